package org.privacybounds.jobs.smoothed;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.LocalPool;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.SmoothedValue;
import org.privacybounds.smoothed.sdp.VertexEnumeration;
import org.privacybounds.smoothed.sdp.multicategory.MonotoneBounds;
import org.privacybounds.smoothed.sdp.pair.PairDivergence;
import org.privacybounds.smoothed.sdp.twocategory.Expectation;
import org.privacybounds.smoothed.sdp.twocategory.LargeNSmoothed;

/**
 * Chooses and runs the delta_SDP method for one n: the large-n method where it applies (two categories, at most two
 * vertices, sampling without replacement), on Spark or on the driver's threads, else full enumeration on Spark.
 *
 * <p>Example (n = 10^7, 0.2 % lost, the two distributions, on the driver with 2 threads; {@code largeN(spark, ...)}
 * runs the same on a session you own):
 * <pre>{@code
 * DistributionSet pi = DistributionSet.of(List.of(new double[] {0.944667, 0.055333}, new double[] {0.533392, 0.466608}),
 *         List.of("a", "b"), "Pi");
 * List<SmoothedValue> v = SmoothedRunner.runLocal(10_000_000, 9_980_000, pi, new double[] {0.5, 1, 2, 7}, 2, System.err::println);
 * double log10Delta = v.get(0).log10Delta();   // certified: relativeErrorBound() says how far off it can be
 * }</pre>
 */
public final class SmoothedRunner {
    private SmoothedRunner() {
    }

    /** The two ways of computing delta_SDP for one n. */
    enum Method {
        /** Two categories, at most two vertices, sampling without replacement: {@link LargeNSmoothed}, any n. */
        LARGE_N,
        /** Every other shape: every assignment evaluated on the executors. */
        ENUMERATION
    }

    /** Which method a run uses. */
    static Method method(DistributionSet hull, Sampling sampling) {
        return hull.categories() == 2 && hull.size() <= 2 && sampling == Sampling.WITHOUT_REPLACEMENT ? Method.LARGE_N : Method.ENUMERATION;
    }

    /**
     * {core-seconds, driver bytes} of one n. The large-n method computes exact delta(h) over windows of a few standard
     * deviations (about sqrt(n) values of h per eps) and one bound per block of 256 h; measured
     * (bench/results/smoothed-large-n.csv, 4 eps): about 4, 9 and 22 core-seconds at n = 1e6, 1e7 and 1e8. The estimate is
     * 2 s + 2e-3 sqrt(n) per eps + 1e-8 n, about four times those figures (a flat f at a small eps needs more exact values),
     * and 200 MB plus 16 bytes per block of the driver. The enumeration's estimate is {@link VertexEnumeration#estimate}'s, its tasks
     * running at once as many as the driver's cores.
     */
    static double[] estimate(long n, DistributionSet hull, Sampling sampling, int epsilons) {
        if (method(hull, sampling) == Method.LARGE_N) {
            // measured (docs/benchmarks.md): 5-16 core seconds at n = 1e8-1.55e8 with 4 eps; the estimate stays above that by 2-4x
            // memory: a double and a flag per block (at most 2^23 blocks), a reference per 4,096 h of the delta cache
            return new double[] {2 + 5e-4 * Math.sqrt((double) n) * epsilons + 1e-8 * n, 200e6 + 16.0 * Math.min(n / 256.0, 1 << 23) + n / 1024.0};
        }
        if (n > ENUMERATION_MAX_N) {
            return new double[] {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY};
        }
        // the assignments run in ranges per core of the default parallelism (a local master's: the driver's cores), each range
        // a task that builds the last vertex's tables, held at once by as many tasks as there are cores: the estimate had counted
        // 4 tasks and one table, and at n = 1,000 with m = 3 two tasks ran out of a 6 GB heap the estimate said 1.3 GB would do
        int cores = Runtime.getRuntime().availableProcessors();
        return VertexEnumeration.estimate((int) n, hull.categories(), hull.size(), epsilons, SparkEnumeration.RANGES_PER_PARTITION * cores, cores);
    }

    /** Beyond this n the enumeration over every assignment is not estimated (its cost is infinite): far beyond any --max-work. */
    static final long ENUMERATION_MAX_N = 100_000;

    /**
     * The largest n the smoothed commands take: 10^10 records (the world's population is 8e9) run in about 30 s with 4 eps
     * on 2 cores; at 10^11 the end scans' convolutions alone took more than 10 minutes. The mechanism itself is checked
     * against 50-digit sums up to {@link SamplingHistogramMechanism#MAX_N}.
     */
    public static final long MAX_N = 10_000_000_000L;

    /** Whether a run can go without Spark on the driver's threads: the large-n method (the enumeration needs executors). */
    static boolean driverCapable(DistributionSet hull, Sampling sampling) {
        return method(hull, sampling) == Method.LARGE_N;
    }

    /**
     * The large-n method on the driver alone, on {@code threads} threads (a local master's cores): every parallel part (delta(h)
     * batches, block bounds, scans, exact expectations) runs in one fork-join pool of that size. The values are those of the
     * Spark run (every part is deterministic and independent of the split).
     */
    public static List<SmoothedValue> runLocal(long n, long sampleSize, DistributionSet hull, double[] eps, int threads, Consumer<String> progress) {
        return runLocal(n, sampleSize, hull, eps, threads, progress, Double.POSITIVE_INFINITY);
    }

    /** {@link #runLocal} that stops where its exact evaluations are projected past {@code maxWorkSeconds} ({@link LargeNSmoothed.Options#withWorkLimit}). */
    public static List<SmoothedValue> runLocal(long n, long sampleSize, DistributionSet hull, double[] eps, int threads, Consumer<String> progress,
            double maxWorkSeconds) {
        if (!driverCapable(hull, Sampling.WITHOUT_REPLACEMENT)) {
            throw new IllegalArgumentException("the driver-only path is the large-n method (two categories, at most two vertices)");
        }
        LargeNSmoothed.Options options = LargeNSmoothed.Options.defaults().withStageTwo(LargeNSmoothed.PARALLEL_STAGE_TWO).withParallelEpsilons()
                .withWorkLimit(maxWorkSeconds).withProgress(progress);
        return LocalPool.call(threads, () -> new LargeNSmoothed(n, sampleSize, hull, eps,
                LargeNSmoothed.parallel(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, sampleSize), n, eps), options).solve());
    }

    /**
     * One n: on Spark with {@code partitions} partitions, or, when {@code spark} is null (the large-n method only), on the driver
     * with {@code partitions} threads.
     */
    static List<SmoothedValue> run(SparkSession spark, long n, long sampleSize, Sampling sampling, DistributionSet hull, double[] eps,
            int partitions, Consumer<String> progress) {
        return run(spark, n, sampleSize, sampling, hull, eps, partitions, progress, Double.POSITIVE_INFINITY);
    }

    /** {@link #run} whose large-n method stops where its exact evaluations are projected past {@code maxWorkSeconds}. */
    static List<SmoothedValue> run(SparkSession spark, long n, long sampleSize, Sampling sampling, DistributionSet hull, double[] eps,
            int partitions, Consumer<String> progress, double maxWorkSeconds) {
        if (n < 1) {
            throw new UserInputException("--n", n, "must be >= 1");
        }
        if (spark == null) {
            return runLocal(n, sampleSize, hull, eps, partitions, progress, maxWorkSeconds);
        }
        if (method(hull, sampling) == Method.LARGE_N) {
            return largeN(spark, n, sampleSize, hull, eps, partitions, progress, maxWorkSeconds).solve();
        }
        if (n > Integer.MAX_VALUE) {
            throw new UserInputException("--n", n, "more than two categories or two vertices (the enumeration method) need n <= " + Integer.MAX_VALUE
                    + "; past it only the large-n method (two categories, at most two vertices) runs");
        }
        return SparkEnumeration.run(spark, (int) n, SamplingHistogramMechanism.of(sampling, sampleSize), hull, eps, partitions, progress);
    }

    /** How an upper bound from the regions of assignments ({@link MonotoneBounds#regions}) was obtained. */
    private static String regionsHow(MonotoneBounds.Bounds x, long n) {
        long[] r = x.upperRegions();
        String exchange = r[2] != 1 ? "" : String.format(Locale.ROOT, "; the first region (K = %d) instead by that vertex's own value:"
                + " vertex %d has the smallest share over Pi of both of its two smallest categories, so moving a record onto it never"
                + " lowers E[delta] where those two hold the two smallest counts (E[delta] is linear in each record's distribution, and"
                + " delta the pair divergence of the two smallest counts, monotone in them); an assignment with at most K records off it"
                + " is therefore at most its value from above plus K times the DP delta times a Chernoff bound on"
                + " the chance that another count comes below those two (at most 1e-9 of the lower bound)", r[1], x.lowerVertex() + 1);
        String levels = r.length < 4 || r[3] == 0 ? "" : String.format(Locale.ROOT, "; where a region's or band's bound lay above the"
                + " lower bound, also with the extra count of its smallest category taken over levels of its distribution instead of at"
                + " one count (given which records fall outside G's shares, G and their categories are independent; summation by parts,"
                + " each level's chance from binomial CDFs raised by 1e-9 relative or from Chernoff, the chance to fall below the first"
                + " level times the DP delta added), the smaller kept (%d bounds made smaller so)", r[3]);
        String mirror = r.length < 5 || r[4] == 0 ? "" : String.format(Locale.ROOT, "; the assignments with more records on vertex %s"
                + " than on vertex %d left out: a relabelling of the categories maps every vertex onto a vertex and that one onto vertex"
                + " %d, and delta of a histogram is the same under any relabelling, so each such assignment has the value of one kept",
                IntStream.range(0, 63).filter(w -> (r[4] >> w & 1) != 0).mapToObj(w -> String.valueOf(w + 1))
                        .collect(Collectors.joining(" or ")), x.lowerVertex() + 1, x.lowerVertex() + 1);
        return String.format(Locale.ROOT, "upper bound over every assignment, as the largest over %d regions of them from a branch and"
                + " bound on how many records lie on each set of vertices (the first: at least %d records on vertex %d; E[delta] is"
                + " linear in each record's distribution, so the hull's assignments are at most its vertices'); in each, the counts are"
                + " at least those of one multinomial law G with each category's smallest share over Pi plus the extra counts of the"
                + " records the region puts on a set of vertices (that set's smallest shares above G's), each taken at a count it falls"
                + " below with a chance of at most 1e-8 of the lower bound over the DP delta (Chernoff; that chance times the DP delta"
                + " added); the regions with at least half the records on vertex %d from that vertex's own multinomial instead, each count"
                + " moved down by the records that may leave the vertex and up by the extra shares of those that must (Chernoff counts"
                + " again, their chance to miss times the value with every record off the vertex lost kept at 1e-8 of the lower bound);"
                + " in the last round that vertex's region and the band highest above the lower bound also with the pair of the two"
                + " smallest moved means bounded over all of the law by its two directions summed exactly at thinned shares (each record"
                + " of a count moved down leaves with a chance that moves at least the shift but with a Chernoff chance of 1e-10 of the"
                + " lower bound over the DP delta, that chance times the DP delta added), where that is smaller;"
                + " delta is the pair divergence of the two smallest counts (monotone in them); E over G (or the vertex) summed over %d cells"
                + " of the pairs' planes in all, each cell's probability raised by 2e-12 relative for its binomial CDFs (log-space sums"
                + " in the far tails) times the divergence at its lower corner moved by the extra counts, raised by its error bound"
                + levels + exchange + mirror,
                r[0], n - r[1], x.lowerVertex() + 1, x.lowerVertex() + 1, x.upperCells());
    }

    /**
     * Three or more categories where every assignment is beyond reach: certified two-sided bounds ({@link MonotoneBounds}), the
     * upper bound from {@code upperSet}'s smallest shares (the hull or an enclosing simplex), the lower from every record on one
     * of {@code lowerSet}'s vertices, each side refined for {@code refineSeconds} core-seconds per eps, less where the run would not
     * fit in {@code workSeconds} ({@link #sideSeconds}). Returns {upper
     * values, lower values}. The pair evaluations of each batch run on the executors, or on the driver's {@code partitions}
     * threads when {@code spark} is null.
     */
    static List<List<SmoothedValue>> monotoneBounds(SparkSession spark, long n, long sampleSize, Sampling sampling, DistributionSet upperSet,
            DistributionSet lowerSet, double[] eps, int partitions, Consumer<String> progress, double workSeconds, double refineSeconds) {
        checkBoundsN(n);
        PairDivergence pair = new PairDivergence(SamplingHistogramMechanism.of(sampling, sampleSize), n);
        double side = sideSeconds(eps.length, workSeconds, refineSeconds, upperSet, lowerSet, sampling);
        MonotoneBounds.Options options = new MonotoneBounds.Options(MonotoneBounds.Options.defaults().relativeGain(), maxEvaluations(n),
                side / SECONDS_PER_TERM, directSeconds(eps.length, workSeconds, side, directSums(upperSet, lowerSet)) / SECONDS_PER_TERM);
        MonotoneBounds.Bounds[] b = spark == null
                ? LocalPool.call(partitions, () -> MonotoneBounds.of(pair, upperSet, lowerSet, eps, MonotoneBounds.local(pair), options, progress))
                : MonotoneBounds.of(pair, upperSet, lowerSet, eps, onSpark(spark, pair, partitions), options, progress);
        List<SmoothedValue> upper = new ArrayList<>();
        List<SmoothedValue> lower = new ArrayList<>();
        for (MonotoneBounds.Bounds x : b) {
            long[] pure = new long[lowerSet.size()];
            pure[x.lowerVertex()] = n;
            long[] shown = upperSet == lowerSet ? pure : new long[upperSet.size()];
            double gap = x.logLower() == Double.NEGATIVE_INFINITY ? Double.POSITIVE_INFINITY : Math.expm1(x.logUpper() - x.logLower());
            if (x.lowerCells() == 0 && x.logLower() > Double.NEGATIVE_INFINITY) {
                // every record released, or a vertex with a category of share 0: delta_SDP is the DP delta, exactly
                String how = MonotoneBounds.everyRecordReleased(pair) ? "exact: T = n records are sampled without replacement, so every"
                        + " record is released and each histogram is released as it is; two neighbouring histograms never release the same"
                        + " one, so delta(h) = 1 for every h" : String.format(Locale.ROOT, "exact: every record on vertex %d (%s), whose category %d has share 0, gives only"
                        + " histograms with h_%d = 0; their neighbour with one record moved into category %d releases it whenever that"
                        + " record is sampled, which they never do, so delta(h) is the DP delta (the largest any histogram has) for each",
                        x.lowerVertex() + 1, lowerSet.label(x.lowerVertex()), x.lowerPair()[0] + 1, x.lowerPair()[0] + 1, x.lowerPair()[0] + 1);
                upper.add(new SmoothedValue(x.epsilon(), x.logLower(), shown, 0, how, 1, 0));
                lower.add(new SmoothedValue(x.epsilon(), x.logLower(), pure, 0, how, 1, 0));
                continue;
            }
            String direct = x.upperDirectPlane() == null ? "" : String.format(Locale.ROOT, "; the plane of categories %d and %d (G's two"
                    + " smallest shares) instead over all of G's law from the two directions of its pair (a record moved each way, each at"
                    + " most its value with one more record moved out of the pair, by monotonicity), each direction's expectation summed"
                    + " exactly over the lost and released counts from above (two binomial CDFs per released count near the threshold,"
                    + " raised by 1e-12 relative each; Chernoff bounds for the tails) after records moved out of the pair by thinning"
                    + " so that its law is a multinomial (6 to 23 records, or where less, about one: six levels of one record thinned"
                    + " each, the chance that none moved weighed exactly as the next level's multinomial), or with none moved where"
                    + " boxes of one count of its source show the larger direction at least its value one record along the pair (both"
                    + " monotone in the counts: two evaluations a box), the boxes not shown and those beyond 6 standard deviations"
                    + " added at their chance from above times the pair at their lower corner, whichever is smaller; the smaller direction counted only over boxes of the plane where it is"
                    + " not shown below the larger (both monotone), at the box's chance from above times the pair at its lower corner, or"
                    + " summed like the larger where that is less",
                    x.upperDirectPlane()[0] + 1, x.upperDirectPlane()[1] + 1);
            upper.add(new SmoothedValue(x.epsilon(), x.logUpper(), shown, gap, x.upperRegions() != null ? regionsHow(x, n) : String.format(Locale.ROOT,
                    "upper bound over every assignment: the counts are at least those of one multinomial law G with each category's"
                            + " smallest share over Pi, and delta is the pair divergence of the two smallest counts (monotone in them); E over"
                            + " G summed over %d cells of the pairs' planes covering every count, each plane's outcomes those where its pair"
                            + " are the two smallest counts (a tie to the lower index, so counted once), each cell's probability raised by 2e-12"
                            + " relative for its binomial CDFs (log-space sums in the far tails) times the divergence at its lower corner"
                            + " raised by its error bound%s", x.upperCells(), direct), 0, 0));
            if (x.lowerByDirection()) {
                lower.add(new SmoothedValue(x.epsilon(), x.logLower(), pure, x.lowerRelativeError(), String.format(Locale.ROOT,
                        "lower bound: the assignment with every record on vertex %d (%s); its value E[delta(H)] is at least that of one"
                                + " neighbour, a record moved from category %d to %d, whose expectation is a sum over the lost counts J and"
                                + " the released K (independent multinomials): for each J the expectation over K from below (Jensen, and"
                                + " near the threshold two binomial CDFs per released count, lowered by 1e-12 relative each), the rest left"
                                + " out; it is at most the same assignment's bound from above (its own law as G), so that assignment's"
                                + " exact value is at most %s times lowerDelta (1 + lowerDeltaRelativeError)", x.lowerVertex() + 1,
                        lowerSet.label(x.lowerVertex()), x.lowerPair()[0] + 1, x.lowerPair()[1] + 1, MonotoneBounds.factorText(x.lowerLog10Factor())), 1, 0));
                continue;
            }
            lower.add(new SmoothedValue(x.epsilon(), x.logLower(), pure, x.lowerRelativeError(), String.format(Locale.ROOT,
                    "lower bound: the assignment with every record on vertex %d (%s); its value E[delta(H)] is at least the sum over %d cells"
                            + " of the (h_%d, h_%d) plane of the cell's probability (lowered by 2e-12 relative for its binomial CDFs) times the"
                            + " pair divergence at the cell's upper corner (monotone), lowered by its error bound, and at most the same"
                            + " assignment's bound from above (its own law as G), so that assignment's exact value is at most %s times"
                            + " lowerDelta (1 + lowerDeltaRelativeError)", x.lowerVertex() + 1, lowerSet.label(x.lowerVertex()), x.lowerCells(),
                    x.lowerPair()[0] + 1, x.lowerPair()[1] + 1, MonotoneBounds.factorText(x.lowerLog10Factor())), 1, 0));
        }
        return List.of(upper, lower);
    }

    /** The bounds of three or more categories take n up to 2^31 - 1 (their binomial laws have int counts). */
    static void checkBoundsN(long n) {
        if (n > Integer.MAX_VALUE) {
            throw new UserInputException("--n", n, "three or more categories need n <= " + Integer.MAX_VALUE + " (2^31 - 1) when every assignment is beyond"
                    + " --max-work (certified bounds)");
        }
    }

    /**
     * {core-seconds, driver bytes} of {@link #monotoneBounds}: per eps and side, {@link #sideSeconds} or the least budget of 300
     * evaluations where that takes longer (each timed by {@link #pairSeconds}, the dearest eps's cost), and the evaluations before
     * the refinement; for the lower bound's assignment from above, its share of a side or its own least 300; for the regions of
     * assignments, their share or four regions' least 300 each; for the main plane's boxes of one record along the pair and for
     * the two exact direction sums (and the regions' {@link MonotoneBounds#REGION_DIRECT_SUMS}), their shares (sampling without
     * replacement). Nothing where a vertex
     * of {@code lowerSet} has a category of share 0 (the value is then the DP delta, exactly).
     */
    static double[] monotoneEstimate(long n, long sampleSize, Sampling sampling, DistributionSet upperSet, DistributionSet lowerSet, int epsilons,
            double workSeconds, double refineSeconds) {
        if (MonotoneBounds.zeroShare(lowerSet) != null || MonotoneBounds.everyRecordReleased(sampling, sampleSize, n)) {
            return new double[] {0, 300e6}; // delta_SDP is the DP delta, with no evaluations (it estimated 94 s for a run of none)
        }
        double each = pairSeconds(n, sampleSize, sampling);
        // a side's terms at their cost in core-seconds (sideSeconds counts them at SECONDS_PER_TERM)
        double seconds = sideSeconds(epsilons, workSeconds, refineSeconds, upperSet, lowerSet, sampling) * termCost(sampling);
        double side = Math.min(maxEvaluations(n) * each, Math.max(seconds, 300 * each)) + SETUP_EVALUATIONS * each;
        // the lower bound's assignment from above: a share of a side, at least its own 300 evaluations
        double own = Math.min(maxEvaluations(n) * each, Math.max(MonotoneBounds.OWN_SHARE * seconds, 300 * each)) + SETUP_EVALUATIONS * each;
        // the regions of assignments, where they run (a hull of two or more vertices, not under an enclosing simplex): their
        // share of a side, at least four regions of 300 evaluations
        double regions = MonotoneBounds.regionsRun(upperSet, lowerSet) ? Math.max(MonotoneBounds.REGIONS_SHARE * seconds, 4 * 300 * each) : 0;
        // the boxes that show the upper side's main direction its own largest neighbour (without replacement only)
        double shift = sampling == Sampling.WITHOUT_REPLACEMENT ? MonotoneBounds.SHIFT_SHARE * seconds : 0;
        // the two exact direction sums (the lower side's and the upper side's main plane's), and the regions' in their last
        // round, without replacement only
        int sums = directSums(upperSet, lowerSet);
        double direct = sampling == Sampling.WITHOUT_REPLACEMENT ? sums * directSeconds(epsilons, workSeconds, seconds, sums) : 0;
        return new double[] {epsilons * (2 * side + own + regions + shift + direct), 300e6};
    }

    /** The --max-work values (core-seconds) a long exact run's line may name for the certified bounds instead. */
    static final double[] OFFERED_MAX_WORK = {60, 300, 900};

    /**
     * The least of {@link #OFFERED_MAX_WORK} below half of {@code exactSeconds} under which the certified bounds' estimate fits
     * (core-seconds and the driver's heap) and that estimate's core-seconds, or null where none does.
     */
    static double[] offeredMaxWork(long n, long sampleSize, Sampling sampling, DistributionSet upperSet, DistributionSet lowerSet, int epsilons,
            double refineSeconds, double exactSeconds) {
        for (double w : OFFERED_MAX_WORK) {
            double[] b = monotoneEstimate(n, sampleSize, sampling, upperSet, lowerSet, epsilons, w, refineSeconds);
            if (w < exactSeconds / 2 && WorkLimit.fits(w, b[0], b[1])) {
                return new double[] {w, b[0]};
            }
        }
        return null;
    }

    /**
     * Core-seconds of one side and eps: {@code refineSeconds} (--refine-seconds, 40 by default), or what fits in {@code workSeconds} for every eps and all
     * the sides that run ({@link #sides}, at their terms' cost, {@link #termCost}, with a tenth to spare) where that is less. The refinement spends it in terms summed ({@link #SECONDS_PER_TERM}),
     * so the result is the same on any machine: a cheap eps gets more evaluations than a dear one, each side at least 300 (about 17 ms
     * each at the national n with eps 0.5).
     */
    static double sideSeconds(int epsilons, double workSeconds, double refineSeconds, DistributionSet upperSet, DistributionSet lowerSet,
            Sampling sampling) {
        return Math.min(refineSeconds, 0.9 * workSeconds / (sides(upperSet, lowerSet, sampling) * epsilons * termCost(sampling)));
    }

    /**
     * What a term summed costs against {@link #SECONDS_PER_TERM}, which the sides' budgets count in: 1 without replacement, 5
     * with replacement, whose terms each take an expm1 (and the binomial laws' saddle points): at n = 1e5 with 5 % lost, four
     * vertices of three categories and eps 0.5, the sides' terms took about 86 ns each as the command ran on 2 cores, and the
     * run went on past its budget's terms (the estimate, at 25 ns, had said 8 minutes of core time for a run of 33.7; it now
     * says 39); 30 to 37 ns a term in one evaluation alone.
     */
    static double termCost(Sampling sampling) {
        return sampling == Sampling.WITHOUT_REPLACEMENT ? 1 : 5;
    }

    /**
     * Sides' budgets per eps: the upper and the lower, a share of one for the lower bound's assignment from above, the regions
     * of assignments' (where they run, {@link MonotoneBounds#regionsRun}: not for one vertex, nor under an enclosing simplex)
     * and the main plane's boxes of one record along the pair (sampling without replacement). Under a binding --max-work a hull
     * of one vertex had kept a share for regions that never run: the 5-category vertex (0.268, 0.29, 0.17, 0.154, 0.118) at
     * n = 1e5, eps 2 and 5 under --max-work 600 got sides of 17 core-seconds and left a log10 gap of 854.
     */
    static double sides(DistributionSet upperSet, DistributionSet lowerSet, Sampling sampling) {
        return 2 + MonotoneBounds.OWN_SHARE + (MonotoneBounds.regionsRun(upperSet, lowerSet) ? MonotoneBounds.REGIONS_SHARE : 0)
                + (sampling == Sampling.WITHOUT_REPLACEMENT ? MonotoneBounds.SHIFT_SHARE : 0);
    }

    /**
     * Core-seconds of each of the {@code sums} exact direction sums per eps ({@link #directSums}): {@link MonotoneBounds#DIRECT_SHARE}
     * sides, or where {@code workSeconds} binds, their share of half the tenth {@link #sideSeconds} spares (at n = 300 under
     * --max-work 20 the sides had shrunk to a third when the sums' share came out of theirs, for sums that take milliseconds there).
     */
    static double directSeconds(int epsilons, double workSeconds, double sideSeconds, int sums) {
        return Math.min(MonotoneBounds.DIRECT_SHARE * sideSeconds, 0.05 * workSeconds / (epsilons * sums));
    }

    /**
     * Exact direction sums per eps: the lower side's and the upper side's main plane's, and where the regions of assignments run
     * ({@link MonotoneBounds#regionsRun}) theirs ({@link MonotoneBounds#REGION_DIRECT_SUMS}).
     */
    static int directSums(DistributionSet upperSet, DistributionSet lowerSet) {
        return 2 + (MonotoneBounds.regionsRun(upperSet, lowerSet) ? MonotoneBounds.REGION_DIRECT_SUMS : 0);
    }

    /** At most 100,000 evaluations per side and eps, and at most the points of the plane, n (n + 1) / 2. */
    static int maxEvaluations(long n) {
        return (int) Math.min(100_000, 0.5 * n * (n + 1.0));
    }

    /**
     * Core-seconds per term of a pair evaluation's hockey-stick sums: 13 to 20 ns measured on one idle core of this project's
     * 2-core machine from n = 1e5 to the national n (rows summed in linear space), up to 50 ns at n = 1e4 where a row holds
     * a few terms; with both cores busy the command's own run at the national n took 7.1 core-minutes (6.6 without the JVM's
     * and Spark's start) for an estimate of 5.5 at 20 ns: taken as 25 ns.
     */
    static final double SECONDS_PER_TERM = 25e-9;

    /** Evaluations of a side and eps before its refinement: the vertices' or planes' means and their slopes. */
    private static final int SETUP_EVALUATIONS = 64;

    /**
     * Core-seconds of one pair evaluation (four hockey-stick sums, those that a few of their rows show to lie below the
     * largest skipped) with one eps. The sums run over the sampled counts' bulk, whose width grows with the number of records
     * not sampled, L = n - T: measured with eps 0.5 (the slowest; eps = 7 costs a fifth to a hundredth) 0.044 ms at L = 20
     * (n = 1e4, 0.2 % lost), 0.28 ms at L = 200, 0.81 ms at L = 2,000, 3.3 ms at L = 20,000 and 17 ms at L = 317,057 (the
     * national n); 0.27 ms with 10 % lost at n = 5,000. With replacement the spread is taken as T (an overestimate).
     */
    static double pairSeconds(long n, long sampleSize, Sampling sampling) {
        double spread = sampling == Sampling.WITHOUT_REPLACEMENT ? Math.min(sampleSize, n - sampleSize) : Math.min(sampleSize, n);
        return 4e-5 + 8e-4 * Math.pow(Math.max(1, spread) / 2000.0, 0.6);
    }

    /** Pair evaluations of a batch on the executors. */
    private static MonotoneBounds.PairSource onSpark(SparkSession spark, PairDivergence pair, int partitions) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        return (ha, hb, eps) -> {
            List<long[]> points = new ArrayList<>();
            for (int i = 0; i < ha.length; i++) {
                points.add(new long[] {ha[i], hb[i]});
            }
            return jsc.parallelize(points, Math.max(1, Math.min(points.size(), 2 * partitions))).map(x -> pair.log(x[0], x[1], eps)).collect()
                    .toArray(new double[0][]);
        };
    }

    /**
     * The large-n method with both stages on Spark: delta(h) batches by ranges of h (stage 1) and
     * batches of exact expectations, each with its own slice of delta (stage 2), across executors.
     */
    public static LargeNSmoothed largeN(SparkSession spark, long n, long sampleSize, DistributionSet hull, double[] eps, int partitions,
            Consumer<String> progress) {
        return largeN(spark, n, sampleSize, hull, eps, partitions, progress, Double.POSITIVE_INFINITY);
    }

    /** {@link #largeN} that stops where its exact evaluations are projected past {@code maxWorkSeconds}. */
    public static LargeNSmoothed largeN(SparkSession spark, long n, long sampleSize, DistributionSet hull, double[] eps, int partitions,
            Consumer<String> progress, double maxWorkSeconds) {
        SparkDeltaSource src = new SparkDeltaSource(spark, Sampling.WITHOUT_REPLACEMENT, sampleSize, n, eps, partitions, progress);
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        LargeNSmoothed.StageTwo stageTwo = batch -> {
            double work = batch.stream().mapToDouble(Expectation::work).sum();
            if (batch.size() < 2 || work < 1e7) { // below about 10 ms of work a Spark job costs more than it saves
                return batch.stream().map(Expectation::evaluate).toArray(double[][]::new);
            }
            List<double[]> r = jsc.parallelize(batch, Math.min(batch.size(), partitions * 2)).map(Expectation::evaluate).collect();
            return r.toArray(new double[0][]);
        };
        // one eps at a time: solved at once, the eps would wait for Spark jobs inside tasks of the common fork-join pool, which
        // local-mode executors also use for their parallel sums (on 2 cores that pool has one worker): measured to deadlock
        return new LargeNSmoothed(n, sampleSize, hull, eps, src,
                LargeNSmoothed.Options.defaults().withStageTwo(stageTwo).withProgress(progress).withWorkLimit(maxWorkSeconds));
    }
}
