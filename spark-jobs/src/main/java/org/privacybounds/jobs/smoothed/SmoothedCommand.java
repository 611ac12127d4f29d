package org.privacybounds.jobs.smoothed;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Progress;
import org.privacybounds.jobs.common.Ranges;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.SmoothedValue;
import org.privacybounds.smoothed.sdp.multicategory.MonotoneBounds;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code smoothed}: delta_SDP(eps) for one n (Smoothed DP paper, Algorithm 1), exact and certified. */
@Command(name = "smoothed", header = "delta_SDP: the smoothed DP of the sampling-histogram mechanism for one n (Algorithm 1, exact).", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"delta_SDP(eps) of the sampling-histogram mechanism (Smoothed DP paper, Definition 3, Algorithm 1): the largest",
                "expected delta_eps(x) over every assignment of the n records to the vertices of Pi, exact and certified,",
                "with the maximising assignment. Two categories and two vertices at any n (stage 1, delta(h), runs on the",
                "executors); other shapes (three or more categories, more vertices) evaluate every assignment on the executors, with",
                "an estimate of the work first, where that fits in --max-work; beyond it (three or more categories, n up to",
                "2^31 - 1) certified bounds from both sides: delta above (every assignment at once), lowerDelta below (at most",
                "one assignment's value, which is at most 1 + lowerDeltaRelativeError times it) and the log10 gap between them.",
                "When the hull",
                "of Pi has more than --max-vertices vertices, delta_SDP is bounded from both sides (an enclosing simplex above,",
                "some of the hull's vertices below)."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds smoothed --n 100000 --eta 0.998 --epsilon 0.5,1,2,7 \\",
                "      --distributions-from-votes datasets/president_2020_biden_trump_57_jurisdictions_538.csv",
                "  scripts/privacy-bounds smoothed --n 100 --sample-size 50 --epsilon 2 --distributions \"0.3,0.7;0.7,0.3\" --json",
                "  scripts/privacy-bounds smoothed --n 12 --lost 2 --epsilon 1 --distributions \"0.2,0.3,0.5;0.6,0.3,0.1;0.1,0.8,0.1\"",
                "  scripts/privacy-bounds smoothed --n 1000000 --eta 0.998 --epsilon 0.5,1,2,7 \\",
                "      --distributions \"0.45,0.45,0.10;0.50,0.42,0.08;0.40,0.52,0.08\"   # three categories: bounds, about 3 minutes"})
public final class SmoothedCommand extends BoundsCommand {
    @Option(names = "--n", required = true, paramLabel = "N", description = "Number of records (voters), 1 to 10,000,000,000 (10^10; "
            + "past 2,147,483,647 only for two categories and at most two vertices, the large-n method).")
    long nOption;

    /** --n once checked. */
    private long n;

    @Option(names = "--epsilon", required = true, paramLabel = "LIST", description = "One or more eps >= 0: e1,e2,... or a:step:b.")
    String epsilon;

    @Mixin
    MechanismOptions mechanism;

    @Mixin
    PiOptions pi;

    @Option(names = "--compose", paramLabel = "K", defaultValue = "1",
            description = "Report the K-fold composition (Proposition 5): (K eps, min(1, K delta)) (default: ${DEFAULT-VALUE}).")
    int compose;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Spark partitions for stage 1 (default: the default parallelism).")
    int partitions;

    /** The work of the run: the exact hull, or the enclosing simplex and the inner polytope (before reading: m-vertex guesses). */
    private double[] estimate(PiOptions.Reduced reduced, int categories, int epsilons) {
        if (reduced == null) {
            if (categories == 0) {
                return new double[] {1, 0};
            }
            DistributionSet guess = guess(categories);
            double[] a = SmoothedRunner.estimate(n, guess, mechanism.sampling(), epsilons);
            return new double[] {2 * a[0], a[1]};
        }
        if (!reduced.bounded()) {
            return SmoothedRunner.estimate(n, reduced.exact(), mechanism.sampling(), epsilons);
        }
        double[] up = SmoothedRunner.estimate(n, reduced.outer(), mechanism.sampling(), epsilons);
        double[] lo = SmoothedRunner.estimate(n, reduced.inner(), mechanism.sampling(), epsilons);
        return new double[] {up[0] + lo[0], Math.max(up[1], lo[1])};
    }

    /** A set of m vertices over m categories (the enclosing simplex's shape), for an estimate before Pi is read. */
    private static DistributionSet guess(int m) {
        List<double[]> v = new ArrayList<>();
        List<String> l = new ArrayList<>();
        for (int c = 0; c < m; c++) {
            double[] p = new double[m];
            Arrays.fill(p, 0.5 / m);
            p[c] += 0.5;
            v.add(p);
            l.add("v" + c);
        }
        return DistributionSet.of(v, l, "estimate");
    }

    private double[] eps;
    private long t;
    private DistributionSet given;
    private PiOptions.Reduced reduced;
    /** Three or more categories and every assignment beyond --max-work: certified two-sided bounds instead. */
    private boolean beyond;
    /** Core-seconds the certified bounds may take at most (every side's budget), where {@link #beyond}. */
    private double boundsSeconds;

    @Override
    protected void check() {
        if (nOption < 1 || nOption > SmoothedRunner.MAX_N) {
            throw new UserInputException("--n", nOption, "must be in [1, " + SmoothedRunner.MAX_N + "] (10^10)");
        }
        n = nOption;
        if (compose < 1) {
            throw new UserInputException("--compose", compose, "must be >= 1");
        }
        eps = Ranges.epsilons("--epsilon", epsilon);
        pi.refineSeconds(); // checked before any input is read (precinct returns are read on Spark)
        t = mechanism.sampleSize(n);
        // read and checked before any work (precinct returns need Spark: read once it runs)
        given = pi.needsSpark() ? null : pi.read();
        reduced = given == null ? null : pi.reduce(given);
        int categories = pi.categoriesBeforeReading();
        double[] cost = estimate(reduced, categories, eps.length);
        if (reduced != null) {
            cost = beyondExactReach(cost);
        } else if (categories >= 3 && !WorkLimit.fits(common, cost[0], cost[1])) {
            // precinct returns are read on Spark, after this check: where every assignment would be beyond reach, the certified
            // bounds run instead (checked again once Pi is read), so theirs is the estimate to check (the enumeration's had
            // refused three categories at n = 1e6 before reading a file)
            SmoothedRunner.checkBoundsN(n);
            DistributionSet guess = guess(categories);
            cost = SmoothedRunner.monotoneEstimate(n, t, mechanism.sampling(), guess, guess, eps.length, common.maxWork, pi.refineSeconds());
        }
        if (reduced != null) {
            WorkLimit.check(spec, common, "--n, --epsilon and Pi", cost[0], cost[1]);
        } else {
            // the estimate from Pi's shape only refuses here; the one from the returns themselves is printed once they are read
            WorkLimit.refuse(common, "--n, --epsilon and Pi", cost[0], cost[1]);
        }
    }

    /** The set the certified bounds' lower side runs on: the inner vertices where the hull is bounded, else the hull itself. */
    private DistributionSet boundsLowerSet() {
        return reduced.bounded() ? reduced.inner() : reduced.exact();
    }

    /**
     * The set a run is over from above: the enclosing simplex where the hull is bounded, else the hull itself (the certified
     * bounds' upper side runs on it).
     */
    private DistributionSet boundsUpperSet() {
        return reduced.bounded() ? reduced.outer() : reduced.exact();
    }

    /**
     * Three or more categories where every assignment is beyond --max-work or the driver's memory: certified two-sided bounds instead
     * ({@link SmoothedRunner#monotoneBounds}), announced with both estimates. Returns the cost of what will run.
     */
    private double[] beyondExactReach(double[] cost) {
        DistributionSet hull = boundsUpperSet();
        // three or more categories by the enumeration: where it does not fit, the bounds run; where it is long, they are offered
        boolean boundable = hull.categories() >= 3 && SmoothedRunner.method(hull, mechanism.sampling()) == SmoothedRunner.Method.ENUMERATION;
        beyond = boundable && !WorkLimit.fits(common, cost[0], cost[1]);
        if (!beyond) {
            if (boundable) {
                offerBounds(hull, cost);
            }
            return cost;
        }
        SmoothedRunner.checkBoundsN(n);
        DistributionSet lowerSet = boundsLowerSet();
        double[] bounds = SmoothedRunner.monotoneEstimate(n, t, mechanism.sampling(), hull, lowerSet, eps.length, common.maxWork, pi.refineSeconds());
        boundsSeconds = bounds[0];
        int[] zero = MonotoneBounds.zeroShare(lowerSet);
        spec.commandLine().getErr().printf(Locale.ROOT, "smoothed: every assignment %s; %s%n", whyBeyond(n, cost),
                MonotoneBounds.everyRecordReleased(mechanism.sampling(), t, n) ? "but T = n releases every record, so delta_SDP is 1, exactly (no evaluation needed)"
                : zero == null ? "reporting certified bounds instead (at most about " + WorkLimit.duration(bounds[0])
                        + " of core time, every side's budget spent; the sides often meet sooner)"
                : "but vertex " + lowerSet.label(zero[0]) + " has a share of 0 of " + pi.categoryName(zero[1])
                        + ", so delta_SDP is the DP delta, exactly (no evaluation needed" + pi.zeroShareHint(zero[1]) + ")");
        return bounds;
    }

    /**
     * Where every assignment exactly (three or more categories) is a long run (more than {@link #LONG_EXACT} core-seconds by its
     * estimate) and the certified bounds would fit a --max-work below it, says so in one line before the run: at n = 1,000 on
     * two vertices of three categories the enumeration is about 15 core-minutes, the bounds under --max-work 60 take 0.6 s and
     * meet to a log10 gap of 1.3e-7.
     */
    private void offerBounds(DistributionSet hull, double[] cost) {
        if (!(cost[0] > LONG_EXACT) || MonotoneBounds.everyRecordReleased(mechanism.sampling(), t, n)) {
            return;
        }
        double[] w = SmoothedRunner.offeredMaxWork(n, t, mechanism.sampling(), hull, boundsLowerSet(), eps.length, pi.refineSeconds(), cost[0]);
        if (w != null) {
            spec.commandLine().getErr().printf(Locale.ROOT, "smoothed: every assignment exactly takes about %s of core time; --max-work %.0f would report"
                    + " certified bounds from both sides instead (at most about %s of core time)%n", WorkLimit.duration(cost[0]), w[0], WorkLimit.duration(w[1]));
        }
    }

    /** Core-seconds of the exact enumeration above which {@link #offerBounds} names the certified bounds' --max-work. */
    static final double LONG_EXACT = 300;

    /** Why every assignment is beyond reach; past the enumeration's reach its cost is not estimated (infinite), and it says so. */
    private static String whyBeyond(long n, double[] cost) {
        if (Double.isFinite(cost[0]) && Double.isFinite(cost[1])) {
            return String.format(Locale.ROOT, "would take about %s of core time and about %s of driver memory, more than --max-work or the heap allows",
                    WorkLimit.duration(cost[0]), WorkLimit.bytes(cost[1]));
        }
        if (n > SmoothedRunner.ENUMERATION_MAX_N) {
            return String.format(Locale.ROOT, "is out of reach at n = %,d (the exact enumeration runs up to n = %,d)", n, SmoothedRunner.ENUMERATION_MAX_N);
        }
        return "would take more core time or driver memory than can be counted";
    }

    @Override
    protected boolean readsInputsInCompute() {
        return given == null;
    }

    @Override
    protected Report compute(OutputDir out) {
        // driver-sized: the large-n method and the monotone bounds on a local master need no Spark (its threads run every parallel part)
        Integer threads = given != null && (beyond || SmoothedRunner.driverCapable(boundsUpperSet(),
                mechanism.sampling()) && (!reduced.bounded() || SmoothedRunner.driverCapable(reduced.inner(), mechanism.sampling())))
                ? SparkSessions.localThreads(common) : null;
        Integer local = given == null ? SparkSessions.localThreads(common) : null; // asked before a session exists
        SparkSession spark = threads == null ? SparkSessions.get(common, "smoothed") : null;
        OutputDir.mark(out, spark == null ? "setup" : "sparkStart");
        if (given == null) {
            given = pi.read(spark);
            reduced = pi.reduce(given);
            double[] c = beyondExactReach(estimate(reduced, 0, eps.length));
            WorkLimit.check(spec, common, "--n, --epsilon and Pi", c[0], c[1]);
            OutputDir.inputsRead(spec, common); // a dry run ends here: the precinct returns read and checked
        }
        // returns read on a local master Spark started for them: the certified bounds run on the driver's threads, as where Pi is
        // given (a Spark stage for each batch of pair evaluations had made Pennsylvania's counties at n = 2e5, 99.8 % lost, eps 1
        // and 2, take 162 core-seconds for an estimate of 114; on the threads 26, the same values)
        SparkSession evaluateOn = beyond && local != null ? null : spark;
        int parts = evaluateOn == null ? (spark == null ? threads : local) : partitions > 0 ? partitions : spark.sparkContext().defaultParallelism();
        long t0 = System.nanoTime();
        Consumer<String> progress = msg -> spec.commandLine().getErr().println("smoothed: " + msg);
        DistributionSet hull = boundsUpperSet();
        List<SmoothedValue> values;
        List<SmoothedValue> lower;
        Progress.phase(beyond ? "computing certified bounds (at most about " + WorkLimit.duration(boundsSeconds) + " of core time)" : "computing");
        if (beyond) {
            List<List<SmoothedValue>> b = SmoothedRunner.monotoneBounds(evaluateOn, n, t, mechanism.sampling(), hull,
                    boundsLowerSet(), eps, parts, progress, common.maxWork, pi.refineSeconds());
            values = b.get(0);
            lower = b.get(1);
        } else {
            values = SmoothedRunner.run(spark, n, t, mechanism.sampling(), hull, eps, parts, progress, common.maxWork);
            lower = reduced.bounded() ? SmoothedRunner.run(spark, n, t, mechanism.sampling(), reduced.inner(), eps, parts, progress, common.maxWork) : null;
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        double logDp = SamplingHistogramMechanism.of(mechanism.sampling(), t).logDpDelta(n);
        List<SmoothedRow> rows = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            rows.add(SmoothedRow.of(n, t, values.get(i), lower == null ? null : lower.get(i), logDp, compose, secs));
        }
        String hullMethod = reduced.bounded()
                ? "bounds: the hull of the " + given.size() + " distributions has " + hullVertexCount() + " vertices; delta_SDP over an enclosing simplex of " + reduced.outer().size()
                        + " vertices (a superset: upper bound) and over " + reduced.inner().size() + " of the hull's vertices (a subset: lower bound)"
                : pi.hullDescription();
        ObjectNode root = json(hull, hullMethod, values, rows, lower);
        root.put("seconds", secs);
        root.put("units", "delta is a probability; epsilon in nats; argmaxAssignment counts records per vertex, in the order of hull.vertices");
        return Report.of(root).text(o -> printText(o, hull, hullMethod, values, lower, logDp, secs)).dataset("results", SmoothedRow.COLUMNS, spark, rows);
    }

    private ObjectNode json(DistributionSet hull, String hullMethod, List<SmoothedValue> values, List<SmoothedRow> rows, List<SmoothedValue> lower) {
        ObjectNode root = resultObject();
        ObjectNode p = root.putObject("parameters");
        p.put("n", n);
        mechanism.echo(p);
        pi.echo(p);
        p.set("epsilon", Json.MAPPER.valueToTree(eps));
        p.put("compose", compose);
        root.put("n", n);
        root.put("T", t);
        PiOptions.describe(root.putObject("hull"), hull, hullMethod, given.size());
        if (reduced.bounded()) {
            PiOptions.describe((ObjectNode) root.get("hull").withObject("/inner"), reduced.inner(), "a subset of the hull's vertices: lower bound", given.size());
            root.with("hull").put("hullVertices", reduced.hullVertices());
        }
        root.set("vertices", root.get("hull").get("vertices"));
        ArrayNode results = root.putArray("results");
        for (int i = 0; i < rows.size(); i++) {
            SmoothedValue v = values.get(i);
            ObjectNode r = rows.get(i).jsonValue();
            results.add(r);
            if (lower != null) {
                SmoothedValue lo = lower.get(i);
                r.set("lowerArgmaxAssignment", Json.MAPPER.valueToTree(lo.argmaxAssignment()));
                r.put("method", beyond ? "bounds (every assignment is beyond --max-work): delta is an upper bound (" + v.method()
                        + "), lowerDelta a lower bound (" + lo.method() + "); the exact delta_SDP lies between"
                        : "bounds: delta is an upper bound (enclosing simplex; " + v.method() + "), lowerDelta a lower bound (" + lo.method()
                                + "); the exact delta_SDP over the hull lies between");
            }
        }
        return root;
    }

    private void printText(PrintWriter o, DistributionSet hull, String hullMethod, List<SmoothedValue> values, List<SmoothedValue> lower, double logDp, double secs) {
        o.printf("smoothed: n = %d, T = %d, hull: %s%n", n, t, hullMethod);
        for (int i = 0; i < hull.size(); i++) {
            o.printf("  vertex %d: %s %s%n", i + 1, hull.label(i), Arrays.toString(hull.get(i)));
        }
        o.printf("%-10s %-14s %-13s %-22s %-10s %s%n", "epsilon", "delta_SDP", "log10", "argmax assignment", "relErr",
                lower == null ? "assignments evaluated / excluded" : "(upper bound above, lower bound below)");
        double widest = 0;
        for (int i = 0; i < values.size(); i++) {
            SmoothedValue v = values.get(i);
            if (lower == null) {
                o.printf("%-10.4g %-14s %-13.5f %-22s %-10.1e %d / %d%n", v.epsilon(), Columns.scientific(v.delta(), v.log10Delta()), v.log10Delta(), Arrays.toString(v.argmaxAssignment()),
                        v.relativeErrorBound(), v.evaluated(), v.excluded());
                continue;
            }
            // a two-sided bound: no relative error of one value, no assignments counted; the gap says how close (and bounds the
            // lower bound's own factor, whose relative error overflows a double past 10^308)
            SmoothedValue lo = lower.get(i);
            double gap = v.log10Delta() - lo.log10Delta();
            widest = Math.max(widest, gap);
            // beyond every assignment the upper bound holds over all of them at once: no assignment is its argmax
            o.printf("%-10.4g %-14s %-13.5f %-22s %-10s %s%n", v.epsilon(), Columns.scientific(v.delta(), v.log10Delta()), v.log10Delta(),
                    beyond ? "(every assignment)" : Arrays.toString(v.argmaxAssignment()), "bound",
                    String.format(Locale.ROOT, "log10 gap to the lower bound %.3g", gap));
            o.printf("%-10s %-14s %-13.5f %-22s (%s)%n", "", Columns.scientific(lo.delta(), lo.log10Delta()), lo.log10Delta(), Arrays.toString(lo.argmaxAssignment()), beyond
                    ? lo.relativeErrorBound() == 0 ? "lower bound: the exact value of this assignment (every record on one vertex); see method"
                            : String.format(Locale.ROOT, "lower bound: at most the exact value of this assignment (every record on one vertex), which"
                            + " is at most %s times it; see method", MonotoneBounds.factorText(Math.min(gap, Math.log1p(lo.relativeErrorBound()) / Math.log(10))))
                    : String.format(Locale.ROOT, "lower bound: delta_SDP over the inner polytope, relErr %.1e", lo.relativeErrorBound()));
        }
        o.printf("DP delta (any eps) = %.6g; 1/n = %.3g; %.1f s%n", Math.exp(logDp), 1.0 / n, secs);
        if (beyond && widest > WIDE_GAP) {
            double side = SmoothedRunner.sideSeconds(values.size(), common.maxWork, pi.refineSeconds(), boundsUpperSet(), boundsLowerSet(),
                    mechanism.sampling());
            // the option that would narrow it: --refine-seconds, unless --max-work already holds the sides below it
            o.printf(Locale.ROOT, "log10 gaps up to %.3g after %.4g core-seconds of refinement per side and eps: a larger %s narrows"
                    + " the part its refinement (cells, boxes, exact sums) leaves, not what the bounds' own arguments leave (docs/commands/smoothed.md lists inputs where that"
                    + " stays)%n", widest, side,
                    side < pi.refineSeconds() ? "--max-work (it holds the sides below --refine-seconds "
                            + BigDecimal.valueOf(pi.refineSeconds()).stripTrailingZeros().toPlainString() + ")"
                            : "--refine-seconds");
            if (reduced.bounded()) {
                // the enclosing simplex is usually most of such a gap (Pennsylvania's 54 counties, 10 vertices, n = 1e6: 0.011,
                // and 1.3e-4 over the hull itself in three times the time)
                o.printf(Locale.ROOT, "the upper bound is over an enclosing simplex, the hull having %s vertices: --max-vertices %s bounds"
                        + " over the hull itself instead (closer, more work)%n", hullVertexCount(),
                        reduced.hullVertices() < 0 ? "larger than " + pi.maxVertices() : String.valueOf(reduced.hullVertices()));
            }
        }
    }

    /** The hull's vertex count where it was computed, else "more than" --max-vertices (four or more categories, many points). */
    private String hullVertexCount() {
        return reduced.hullVertices() < 0 ? "more than " + pi.maxVertices() : String.valueOf(reduced.hullVertices());
    }

    /**
     * A log10 gap above which the text output says how to narrow it: the bounds' own aim (2.3e-6 apart). Below 1e-3 the line
     * still matters: four categories at n = 1e6 with 1 % lost left 6.2e-4 at the default --refine-seconds and 1.1e-7 at 160,
     * where the boxes of one record along the pair fit the larger budget.
     */
    static final double WIDE_GAP = 1e-6;
}
