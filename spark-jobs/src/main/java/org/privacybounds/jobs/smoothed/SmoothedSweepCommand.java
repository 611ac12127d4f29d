package org.privacybounds.jobs.smoothed;

import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Plots;
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

/**
 * {@code smoothed-sweep}: delta_SDP over a grid of n and eps, one row per (n, eps), with progress,
 * resume and a plot like the paper's Figure 2 (left).
 */
@Command(name = "smoothed-sweep", header = "delta_SDP over a grid of n, with progress, resume and a plot (Figures 2 and 4).", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"delta_SDP(eps) over a grid of n (and every eps in one pass per n), exact and certified, with a",
                "progress line per n (done/total, rate, ETA). With --out, every finished n is kept in a hidden work",
                "folder beside DIR, so rerunning the same command after a crash resumes where it stopped. Writes CSV,",
                "JSON, Parquet and a PNG of log10 delta_SDP against n (one line per eps, 1/n and DP delta dashed)."},
        footer = {"", "Examples (Figure 2 left; the paper's own code's sweep):",
                "  scripts/privacy-bounds smoothed-sweep --n 10000:10000:100000 --eta 0.998 --epsilon 0.5,1,2,7 \\",
                "      --distributions-from-votes datasets/president_2020_biden_trump_57_jurisdictions_538.csv --out out/fig2-left",
                "  scripts/privacy-bounds smoothed-sweep --n 100000:50000:500000 --eta 0.998 --rounding round \\",
                "      --epsilon 0.1,0.5,1:1:10 --distributions-from-votes datasets/smoothed_dp_paper_election_history_1900_2020.csv \\",
                "      --votes-columns votes_a,votes_b --label-column year --symmetric --out out/paper-sweep   # about 15 s"})
public final class SmoothedSweepCommand extends BoundsCommand {
    @Option(names = "--n", required = true, paramLabel = "LIST", description = "Numbers of records: n1,n2,... or a:step:b.")
    String nList;

    @Option(names = "--epsilon", required = true, paramLabel = "LIST", description = "One or more eps >= 0: e1,e2,... or a:step:b.")
    String epsilon;

    @Mixin
    MechanismOptions mechanism;

    @Mixin
    PiOptions pi;

    @Option(names = "--compose", paramLabel = "K", defaultValue = "1",
            description = "Also report the K-fold composition (Proposition 5) (default: ${DEFAULT-VALUE}).")
    int compose;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Spark partitions for stage 1 (default: the default parallelism).")
    int partitions;

    private List<Long> ns;
    private double[] eps;
    private DistributionSet given;
    private DistributionSet hull;
    /** The driver's threads for the bounded n where Spark was started here on a local master (null otherwise). */
    private Integer boundsThreads;
    private double[] costOf;
    /** Per n: three or more categories with every assignment beyond --max-work, so certified two-sided bounds instead. */
    private boolean[] bounds;
    /** Core-seconds of --max-work each bounded n may use (shared equally between them). */
    private double boundsWork;

    @Override
    protected void check() {
        ns = Ranges.longs("--n", nList);
        pi.refineSeconds(); // checked before any input is read
        for (long v : ns) {
            if (v < 1 || v > SmoothedRunner.MAX_N) {
                throw new UserInputException("--n", v, "every n must be in [1, " + SmoothedRunner.MAX_N + "] (10^10)");
            }
        }
        if (compose < 1) {
            throw new UserInputException("--compose", compose, "must be >= 1");
        }
        eps = Ranges.epsilons("--epsilon", epsilon);
        for (long v : ns) {
            mechanism.sampleSize(v); // validate every T before any work
        }
        if (pi.needsSpark()) {
            throw new UserInputException("--distributions-from-precincts", "(smoothed-sweep)", "is read by smoothed only; run smoothed for each n, "
                    + "or give the precincts' distributions as --distributions-file");
        }
        given = pi.read(); // read and checked before any work
        PiOptions.Reduced reduced = pi.reduce(given);
        if (reduced.bounded()) {
            throw new UserInputException("--max-vertices", pi.maxVertices(), "the hull has more vertices; smoothed-sweep needs the exact hull "
                    + "(raise --max-vertices, or use smoothed, which bounds delta_SDP from both sides)");
        }
        hull = reduced.exact();
        double[][] exact = new double[ns.size()][];
        for (int i = 0; i < ns.size(); i++) {
            exact[i] = SmoothedRunner.estimate(ns.get(i), hull, mechanism.sampling(), eps.length);
        }
        Plan plan = plan(exact, common.maxWork);
        bounds = plan.bounds();
        boundsWork = plan.boundsWork();
        costOf = new double[ns.size()]; // estimated core-seconds per n, to weight the ETA (cost grows fast with n)
        for (int i = 0; i < ns.size(); i++) {
            costOf[i] = Math.max(plan.cost()[i][0], 1e-9);
        }
        long bounded = IntStream.range(0, bounds.length).filter(i -> bounds[i]).count();
        if (bounded > 0) {
            spec.commandLine().getErr().printf(Locale.ROOT, "smoothed-sweep: at %d of the %d n every assignment is beyond --max-work;"
                    + " certified two-sided bounds there (log10LowerDelta below, delta above), estimated below with every side's budget spent"
                    + " (the sides often meet sooner)%n", bounded, ns.size());
        }
        offerBounds(exact, plan);
        double coreSeconds = plan.coreSeconds();
        double memory = plan.memory();
        WorkLimit.check(spec, common, "--n and --epsilon", coreSeconds, memory);
    }

    /** Which n take the certified bounds under a --max-work, each n's {core-seconds, driver bytes}, and the bounded n's share. */
    private record Plan(boolean[] bounds, double[][] cost, double boundsWork) {
        double coreSeconds() {
            return Arrays.stream(cost).mapToDouble(c -> c[0]).sum();
        }

        double memory() {
            return Arrays.stream(cost).mapToDouble(c -> c[1]).max().orElse(0);
        }
    }

    /**
     * The n of three or more categories whose exact enumeration ({@code exact}: {core-seconds, bytes} per n) does not fit
     * {@code maxWork} take the certified bounds, sharing {@code maxWork} equally between them.
     */
    private Plan plan(double[][] exact, double maxWork) {
        boolean[] b = new boolean[ns.size()];
        double[][] cost = new double[ns.size()][];
        for (int i = 0; i < ns.size(); i++) {
            b[i] = hull.categories() >= 3 && !WorkLimit.fits(maxWork, exact[i][0], exact[i][1]);
        }
        double work = maxWork / Math.max(1, IntStream.range(0, b.length).filter(i -> b[i]).count());
        for (int i = 0; i < ns.size(); i++) {
            if (b[i]) {
                SmoothedRunner.checkBoundsN(ns.get(i));
                cost[i] = SmoothedRunner.monotoneEstimate(ns.get(i), mechanism.sampleSize(ns.get(i)), mechanism.sampling(), hull, hull, eps.length, work,
                        pi.refineSeconds());
            } else {
                cost[i] = exact[i];
            }
        }
        return new Plan(b, cost, work);
    }

    /**
     * As {@code smoothed} does for one n: where the exact enumeration of some n (three or more categories) is a long run (over
     * {@link SmoothedCommand#LONG_EXACT} core-seconds), says so in one line before the run. Where no n of the sweep is bounded
     * yet, it names a --max-work of 60, 300 or 900, below half of the longest, that sends those n to the certified bounds with
     * the whole sweep within it; where some n are, a --max-work that low would cut their refinement too (n = 1e4 beside n =
     * 1,000 under --max-work 60: a log10 gap of 3.4e-4 instead of 2e-7), so it names the run of each long n alone instead.
     */
    private void offerBounds(double[][] exact, Plan plan) {
        List<Integer> longOnes = new ArrayList<>();
        double longest = 0;
        for (int i = 0; i < ns.size(); i++) {
            long n = ns.get(i);
            if (!plan.bounds()[i] && hull.categories() >= 3 && exact[i][0] > SmoothedCommand.LONG_EXACT
                    && !MonotoneBounds.everyRecordReleased(mechanism.sampling(), mechanism.sampleSize(n), n)) {
                longOnes.add(i);
                longest = Math.max(longest, exact[i][0]);
            }
        }
        if (longOnes.isEmpty()) {
            return;
        }
        List<String> named = new ArrayList<>();
        for (int i : longOnes) {
            named.add(String.format(Locale.ROOT, "about %s%s at n = %,d", WorkLimit.duration(exact[i][0]), named.isEmpty() ? " of core time" : "", ns.get(i)));
        }
        String prefix = "smoothed-sweep: every assignment exactly takes " + String.join(", ", named) + "; ";
        if (IntStream.range(0, ns.size()).noneMatch(i -> plan.bounds()[i])) {
            for (double w : SmoothedRunner.OFFERED_MAX_WORK) {
                Plan p = w < longest / 2 ? plan(exact, w) : null;
                if (p != null && WorkLimit.fits(w, p.coreSeconds(), p.memory())) {
                    spec.commandLine().getErr().printf(Locale.ROOT, "%s--max-work %.0f would report certified bounds from both sides there instead"
                            + " (the whole sweep at most about %s of core time)%n", prefix, w, WorkLimit.duration(p.coreSeconds()));
                    return;
                }
            }
            return;
        }
        List<String> alone = new ArrayList<>();
        for (int i : longOnes) {
            long n = ns.get(i);
            double[] w = SmoothedRunner.offeredMaxWork(n, mechanism.sampleSize(n), mechanism.sampling(), hull, hull, eps.length, pi.refineSeconds(), exact[i][0]);
            if (w != null) {
                alone.add(String.format(Locale.ROOT, "smoothed --n %d --max-work %.0f (at most about %s)", n, w[0], WorkLimit.duration(w[1])));
            }
        }
        if (!alone.isEmpty()) {
            spec.commandLine().getErr().printf(Locale.ROOT, "%salone, %s would report certified bounds from both sides instead (a --max-work"
                    + " that low here would also cut the refinement of the n bounded already)%n", prefix, String.join("; ", alone));
        }
    }

    @Override
    protected Report compute(OutputDir out) throws IOException {
        // the large-n method on a local master needs no Spark: its threads run every parallel part
        boolean allBounds = IntStream.range(0, bounds.length).allMatch(i -> bounds[i]);
        Integer threads = SmoothedRunner.driverCapable(hull, mechanism.sampling()) || allBounds ? SparkSessions.localThreads(common) : null;
        // where Spark runs the exact n on a local master it was started for, the bounded n run on the driver's threads (a Spark
        // stage for each batch of pair evaluations costs more than the batch: see SmoothedCommand)
        boundsThreads = SparkSessions.localThreads(common);
        SparkSession spark = threads == null ? SparkSessions.get(common, "smoothed-sweep") : null;
        OutputDir.mark(out, spark == null ? "setup" : "sparkStartAndInput");
        int parts = spark == null ? threads : partitions > 0 ? partitions : spark.sparkContext().defaultParallelism();
        ObjectNode params = Json.object();
        params.put("n", nList);
        mechanism.echo(params);
        pi.echo(params);
        params.set("epsilon", Json.MAPPER.valueToTree(eps));
        params.put("compose", compose);
        Path work = out == null ? null : out.workDir(params, spec.commandLine().getErr(), "smoothed-sweep");
        List<SmoothedRow> rows = sweep(spark, parts, work);
        ObjectNode root = resultObject();
        root.set("parameters", params);
        PiOptions.describe(root.putObject("hull"), hull, pi.hullDescription(), given.size());
        root.set("vertices", root.get("hull").get("vertices"));
        ArrayNode arr = root.putArray("rows");
        rows.forEach(r -> arr.add(r.json()));
        root.put("units", "delta is a probability; epsilon in nats; argmaxAssignment counts records per vertex, in the order of hull.vertices");
        return Report.of(root).text(o -> {
            o.printf("smoothed-sweep: hull %s%n", pi.hullDescription());
            for (int i = 0; i < hull.size(); i++) {
                o.printf("  vertex %d: %s %s%n", i + 1, hull.label(i), Arrays.toString(hull.get(i)));
            }
            text(rows).printText(o, rows);
        }).dataset("results", SmoothedRow.COLUMNS, spark, rows)
                .write(dir -> plot(dir.resolve("smoothed-sweep.png"), rows, eps, pi.hullDescription(), pi.sourceName() + ", " + mechanism.describe()))
                .afterCommit(() -> OutputDir.deleteTree(work));
    }

    /** Every n in turn, each kept as a finished stage under the work folder (a rerun resumes from them), with progress and an ETA. */
    private List<SmoothedRow> sweep(SparkSession spark, int parts, Path work) throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        List<SmoothedRow> rows = new ArrayList<>();
        long start = System.nanoTime();
        int resumed = 0;
        double computedCost = 0;
        for (int i = 0; i < ns.size(); i++) {
            long n = ns.get(i);
            ArrayNode forN = OutputDir.finishedStage(work, "n=" + n, err);
            if (forN != null) {
                resumed++;
            } else {
                forN = rowsFor(spark, parts, n, bounds[i]);
                OutputDir.keepStage(work, "n=" + n, forN);
                computedCost += costOf[i];
            }
            forN.forEach(r -> rows.add(SmoothedRow.fromJson(r)));
            double elapsed = (System.nanoTime() - start) / 1e9;
            int computed = i + 1 - resumed;
            double rate = computed / Math.max(elapsed, 1e-9);
            double remainingCost = Arrays.stream(costOf, i + 1, ns.size()).sum();
            // the measured seconds per estimated core-second so far, applied to the estimated cost of the n still to do
            double eta = computed == 0 ? 0 : elapsed / computedCost * remainingCost;
            err.printf(Locale.ROOT, "smoothed-sweep: %d/%d n = %d done (%d resumed), %.2f n/min, elapsed %.0f s, ETA %.0f s%n", i + 1, ns.size(), n, resumed,
                    rate * 60, elapsed, eta);
        }
        return rows;
    }

    /** The rows of one n, as JSON (the form a finished stage is kept in). */
    private ArrayNode rowsFor(SparkSession spark, int parts, long n, boolean bounded) {
        long t = mechanism.sampleSize(n);
        long t0 = System.nanoTime();
        Consumer<String> progress = msg -> {
            if (common.verbose) {
                spec.commandLine().getErr().println("smoothed-sweep:   " + msg);
            }
        };
        List<SmoothedValue> values;
        List<SmoothedValue> lower = null;
        Progress.phase("computing n = " + n + (bounded ? " (certified bounds)" : ""));
        if (bounded) {
            boolean onThreads = spark != null && boundsThreads != null;
            List<List<SmoothedValue>> b = SmoothedRunner.monotoneBounds(onThreads ? null : spark, n, t, mechanism.sampling(), hull, hull, eps,
                    onThreads ? boundsThreads : parts, progress, boundsWork, pi.refineSeconds());
            values = b.get(0);
            lower = b.get(1);
        } else {
            values = SmoothedRunner.run(spark, n, t, mechanism.sampling(), hull, eps, parts, progress, common.maxWork);
        }
        double logDp = SamplingHistogramMechanism.of(mechanism.sampling(), t).logDpDelta(n);
        ArrayNode forN = Json.array();
        for (int i = 0; i < values.size(); i++) {
            forN.add(SmoothedRow.of(n, t, values.get(i), lower == null ? null : lower.get(i), logDp, compose, (System.nanoTime() - t0) / 1e9).json());
        }
        return forN;
    }

    /** The text table's columns: the lower bound's only when some row is a two-sided bound. */
    static Columns<SmoothedRow> text(List<SmoothedRow> rows) {
        Columns<SmoothedRow> c = Columns.<SmoothedRow>of().textOnly("n", "%-10d", SmoothedRow::n).textOnly("T", "%-10d", SmoothedRow::T)
                .textOnly("epsilon", "%-9.4g", SmoothedRow::epsilon).textOnly("log10 delta", "%-13.5f", SmoothedRow::log10Delta);
        if (rows.stream().anyMatch(SmoothedRow::bounded)) {
            c = c.textOnly("log10 lower bound", "%-13.5f", SmoothedRow::log10LowerDelta);
        }
        return c.textOnly("argmax assignment", "%-24s", r -> Arrays.toString(r.argmaxAssignment()).replace(" ", ""))
                .textOnly("relErr", "%-9.1e", SmoothedRow::relativeErrorBound).textOnly("log10 1/n", "%.3f", r -> Math.log10(1.0 / r.n()));
    }

    private static void plot(Path png, List<SmoothedRow> rows, double[] eps, String hull, String setting) {
        List<Plots.Series> series = new ArrayList<>();
        for (int e = 0; e < eps.length; e++) {
            List<double[]> pts = new ArrayList<>();
            for (SmoothedRow r : rows) {
                if (r.epsilon() == eps[e]) {
                    double l = r.log10Delta();
                    pts.add(new double[] {r.n(), Double.isFinite(l) ? l : Double.NaN});
                }
            }
            series.add(new Plots.Series("eps = " + Plots.num(eps[e]) + (rows.stream().anyMatch(SmoothedRow::bounded) ? " (upper bound where bounded)" : ""),
                    pts.stream().mapToDouble(p -> p[0]).toArray(), pts.stream().mapToDouble(p -> p[1]).toArray(), false, Plots.ordered(e, eps.length))
                    .variant(e));
            double e0 = eps[e];
            double[][] lower = rows.stream().filter(r -> r.epsilon() == e0 && r.bounded() && Double.isFinite(r.log10LowerDelta()))
                    .map(r -> new double[] {r.n(), r.log10LowerDelta()}).toArray(double[][]::new);
            if (lower.length > 0) {
                series.add(new Plots.Series("eps = " + Plots.num(eps[e]) + " lower bound", Arrays.stream(lower).mapToDouble(p -> p[0]).toArray(),
                        Arrays.stream(lower).mapToDouble(p -> p[1]).toArray(), true, Plots.ordered(e, eps.length)).variant(e));
            }
        }
        List<double[]> inv = new ArrayList<>();
        for (SmoothedRow r : rows) {
            if (r.epsilon() == eps[0]) {
                inv.add(new double[] {r.n(), Math.log10(r.inverseN()), Math.log10(r.dpDelta())});
            }
        }
        double[] x = inv.stream().mapToDouble(p -> p[0]).toArray();
        series.add(new Plots.Series("1/n", x, inv.stream().mapToDouble(p -> p[1]).toArray(), true, new Color(0x555555)));
        series.add(new Plots.Series("DP delta (any eps)", x, inv.stream().mapToDouble(p -> p[2]).toArray(), true, new Color(0xe377c2)));
        Plots.figure("Smoothed DP of the sampling-histogram mechanism: " + setting + " (" + (hull.startsWith("symmetric") ? "symmetric hull" : "hull of Pi")
                + ")")
                .x("n (records)", Plots.Scale.LINEAR).logXIfWide().y("delta_SDP (log scale)", Plots.Scale.LOG10).addAll(series).save(png);
    }
}
