package org.privacybounds.smoothed.sdp.multicategory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import org.privacybounds.numeric.ChernoffTail;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.pair.DirectionSum;
import org.privacybounds.smoothed.sdp.pair.PairDirections;
import org.privacybounds.smoothed.sdp.pair.PairDivergence;

/**
 * Certified two-sided bounds on delta_SDP for three or more categories at any n up to 2^31 - 1, from a few hundred
 * evaluations of one pair's divergence ({@link PairDivergence}) instead of delta over every histogram. Both sides rest on
 * the monotonicity proven there: a pair's divergence cannot grow when records move into either of its categories.
 *
 * <p><b>delta is the pair of the two smallest counts.</b> Every pair's divergence is the same function of its two counts
 * (and n), symmetric in them and non-increasing in each, so {@code delta(h) = pair(h_(1), h_(2))}, the two smallest counts of
 * h: any other pair has counts at least these.
 *
 * <p><b>Upper bound, every assignment at once.</b> Let {@code q_i} be the smallest share of category i over Pi and
 * {@code s = sum q_i <= 1}. Whatever the assignment, each record's distribution p is the mixture "category i with
 * probability q_i, else a draw from (p - q) / (1 - s)", so H = G + R with G ~ Multinomial(n; q_1, ..., q_m, 1 - s) (the
 * last cell undecided) the same law for every assignment, and {@code H >= G} count by count. By monotonicity
 * {@code delta(H) <= pair(G_(1), G_(2))} (T/n where a count is 0), and
 * {@code E[pair(G_(1), G_(2))] = sum over pairs {i, j} of E[pair(G_i, G_j); {i, j} are the two smallest]}, the two smallest
 * in the order of (count, index), so that a tie is counted once. Each
 * term is bounded above over cells of the (g_i, g_j) plane covering all of it, each cell's probability (with the condition on
 * the other counts) from above times the pair at its lower corner ({@link PlaneCells}); the cells of every plane are refined
 * together where they can lower the bound most. The plane of G's two smallest shares (their pair is the two smallest counts
 * about always) is bounded instead over all of G's law by its pair's two directions summed exactly ({@link PairDirections}),
 * where that comes within {@link #DIRECT_TRY} of the lower bound (the smaller of that and the cells kept): cells reach 1e-6 only
 * point by point where the pair changes fast, the sums do not depend on that. Where one vertex attains the smallest shares of
 * the two smallest categories, G's law of those two counts is that vertex's, and the two sides close as the cells are refined.
 *
 * <p><b>Lower bound, one assignment.</b> Every record on one vertex v: delta_SDP is at least E[delta(H)],
 * H ~ Multinomial(n, p_v), and that is at least {@code sum over cells C of P((H_a, H_b) in C) pair(upper corner of C)}
 * for one pair {a, b} and any cells of the (h_a, h_b) plane (monotonicity again). Cells are refined where the pair's values
 * at their two corners differ most, weighted by their probability ({@link VertexLowerBound}, {@link PlaneCells}).
 *
 * <p>What is left between the two: the cells' widths (it shrinks with the budget of evaluations, fastest where ln delta
 * changes slowly against the counts' spread), and, where no one vertex has the smallest shares of both of the two smallest
 * categories, the distance between G and the hull's vertices (it does not). It is reported, never hidden.
 */
public final class MonotoneBounds {
    /** Pair-divergence evaluations of one batch: {@code result[i] = {ln value, relative error, terms}} of the points (ha[i], hb[i]). */
    public interface PairSource {
        double[][] log(long[] ha, long[] hb, double eps);

        /**
         * Work done beside the evaluations and charged to the same budget (the cells' probabilities: {@code terms} as charged,
         * {@code seconds} of wall time), for the progress line's pace; nothing by default.
         */
        default void spent(double terms, double seconds) {
        }
    }

    /**
     * A source on the calling JVM: the points of a batch as a parallel stream, so on the fork-join pool the caller runs in (a
     * pool of a chosen size when called inside it, else the common pool).
     */
    public static PairSource local(PairDivergence pair) {
        return (ha, hb, eps) -> IntStream.range(0, ha.length).parallel().mapToObj(i -> pair.log(ha[i], hb[i], eps)).toArray(double[][]::new);
    }

    /**
     * How far to refine: stop when what one more round could gain is below {@code relativeGain} of the bound, or after a budget of
     * pair evaluations per side and eps: {@code termsPerSide} divided by the terms one evaluation sums near where the side's mass
     * lies (so a cheap eps gets more evaluations than a dear one, the same for the same inputs on any machine), at least 300 and
     * at most {@code maxEvaluations}; the cells' probabilities count against the same terms. The defaults aim at a log10 gap of about 1e-6 with up to 20,000 evaluations.
     * Each of the two exact direction sums (the lower side's and the upper side's main plane's, {@link DirectionSum}) may take
     * {@code directTerms}: {@link #DIRECT_SHARE} sides' terms unless given.
     */
    public record Options(double relativeGain, int maxEvaluations, double termsPerSide, double directTerms) {
        /** {@code directTerms} {@link #DIRECT_SHARE} times {@code termsPerSide}. */
        public Options(double relativeGain, int maxEvaluations, double termsPerSide) {
            this(relativeGain, maxEvaluations, termsPerSide, DIRECT_SHARE * termsPerSide);
        }

        public static Options defaults() {
            return new Options(1e-6, 20_000, Double.POSITIVE_INFINITY);
        }

        /** The evaluations of a side whose evaluations each sum about {@code terms} terms. */
        Options forTerms(double terms) {
            int budget = (int) Math.max(Math.min(300, maxEvaluations), Math.min(maxEvaluations, termsPerSide / Math.max(1, terms)));
            // the side's work (evaluations and cell probabilities, in terms) is at least what its least budget takes
            return new Options(relativeGain, budget, Math.max(termsPerSide, budget * Math.max(1, terms)), directTerms);
        }

        /** The same with the direction sums' terms of {@code whole}. */
        Options withDirectTerms(Options whole) {
            return new Options(relativeGain, maxEvaluations, termsPerSide, whole.directTerms);
        }

        /** The same with {@code share} of the terms (and evaluations) of a side, and of the direction sums' terms. */
        Options share(double share) {
            return new Options(relativeGain, (int) Math.max(1, maxEvaluations * share), termsPerSide * share, directTerms * share);
        }
    }

    /**
     * The share of a side's budget that bounds the lower bound's own assignment from above ({@link Bounds#logLowerAbove}): its
     * evaluations are partly those of the lower side already made.
     */
    public static final double OWN_SHARE = 0.25;

    /** Rounds in which the regions whose bound lies above the lower bound are split again ({@link #regions}). */
    public static final int REFINE_ROUNDS = 2;

    /**
     * A round's regions above the lower bound are bounded again before they are split where at most this many are
     * ({@link #regions}), each on {@value #RETRY_FACTOR} times its share, at most {@value #RETRY_SHARE} of a side for them all.
     */
    static final int RETRY_REGIONS = 4;
    static final double RETRY_FACTOR = 4;
    static final double RETRY_SHARE = 1.0 / 3;

    /**
     * Exact direction sums ({@link #logThinnedPair}) the regions may take in their last round, each up to a side's
     * {@link Options#directTerms}: one for the lower bound's vertex's region and the rest for the bands above the lower bound
     * (the highest first), each beside its cells (a quarter of its budget again; the bands on {@value #RETRY_SHARE} of a side).
     */
    public static final int REGION_DIRECT_SUMS = 2;

    /**
     * The most of a side's budget the regions of assignments take ({@link #regions}), where they run: a third for the lower
     * bound's vertex's region in each of its rounds but the last, a whole side in its last, two thirds for the others over all
     * rounds, and a third in each round but the last for bounding a few of them again; and for the bands cut off where the
     * lower bound's vertex holds at least half the records, a third in each round but the last for those its halvings bound
     * at once and a third in every round for bounding a few of them again; beside the last round's exact direction sums
     * ({@link #REGION_DIRECT_SUMS}, counted apart), a quarter of a side for v's region's other planes and, for each band, a
     * third of a side and a quarter of that; and the levels of the bounds above the lower bound ({@link LevelsBudget#SIDES}).
     */
    public static final double REGIONS_SHARE = REFINE_ROUNDS / 3.0 + 1 + 2.0 / 3 + REFINE_ROUNDS * RETRY_SHARE
            + REFINE_ROUNDS * AssignmentRegions.HALVING_SHARE + (REFINE_ROUNDS + 1) * RETRY_SHARE
            + 0.25 + (REGION_DIRECT_SUMS - 1) * 1.25 * RETRY_SHARE + LevelsBudget.SIDES;

    /**
     * The most of a side's budget the upper side's main plane may spend, beyond its own, on showing its larger direction its
     * own largest neighbour along the pair ({@code pair.ShiftBoxes}), where that runs (sampling without replacement, the directions
     * summed exactly).
     */
    public static final double SHIFT_SHARE = PairDirections.SHIFT_SHARE;

    /**
     * The most of a side's budget each of the two exact direction sums may take (the lower side's and the upper side's main
     * plane's, {@link DirectionSum}) by default ({@link Options#directTerms}): they close the gap where they run, so they get
     * more than the cells' refinement. At the national n (317,057 lost) with eps 0.5 each takes about 280 core-seconds, 7
     * sides' default budgets.
     */
    public static final double DIRECT_SHARE = 8;

    /**
     * The share of the lower side's budget it gets before the upper side runs; the rest only where its cells could still narrow
     * the gap to the upper bound by more than 1 % (on the 2020 states' hull at n = 1e6 the lower side had spent its whole
     * budget on a bound ten thousand times closer to its own assignment's value than to the upper bound).
     */
    static final double LOWER_FIRST_SHARE = 0.25;

    /**
     * One eps: ln of the upper and lower bounds, with how each was obtained.
     *
     * @param lowerVertex the vertex every record of the lower bound's assignment is on (index into the vertices)
     * @param lowerPair   the pair of categories {a, b} of the lower bound
     * @param lowerCells  the lower bound's cells; 0 with a finite lower bound where a vertex has a category of share 0, whose
     *                    value (so delta_SDP) is then the DP delta exactly
     * @param logLowerAbove ln of an upper bound on the value of the lower bound's assignment (every record on the lower
     *                    vertex): that value lies between exp(logLower) and exp(logLowerAbove), so the lower bound is that
     *                    assignment's exact value lowered by at most {@link #lowerRelativeError}
     * @param lowerByDirection whether the lower bound is one direction of the pair summed over the released and lost counts
     *                    ({@link DirectionSum}, moving a record from {@code lowerPair[0]} to {@code lowerPair[1]}) rather than
     *                    the cells, where that is larger
     * @param upperDirectPlane the plane {r, c} of G's two smallest shares, where its pair over all of G's law is
     *                    bounded by two directions summed from above ({@link PairDirections}) rather than by cells; null
     *                    where the cells cover every plane
     * @param upperRegions where the upper bound is the largest of the regions of assignments ({@link #regions}): {how many
     *                    regions, K, 1 where the first region is bounded by its vertex's own value ({@link VertexExchange}), else
     *                    0, how many bounds levels made smaller ({@link #levelled}), the vertices (a bit mask) whose fuller
     *                    assignments were left out by a relabelling of the categories ({@link CategorySymmetry})} (the first
     *                    region holds at least n - K records on the lower bound's vertex); null where it is G's over every
     *                    assignment at once
     */
    public record Bounds(double epsilon, double logUpper, int upperCells, double logLower, int lowerVertex, int[] lowerPair,
            int lowerCells, int evaluations, double logLowerAbove, boolean lowerByDirection, int[] upperDirectPlane, long[] upperRegions) {
        public double log10Gap() {
            return LogMath.toLog10(logUpper) - LogMath.toLog10(logLower);
        }

        /**
         * r such that the lower bound's assignment's exact value is at most (1 + r) times the lower bound (0: exact; infinite: no
         * lower bound, or a factor beyond a double's range: {@link #lowerLog10Factor} has it).
         */
        public double lowerRelativeError() {
            return logLower == Double.NEGATIVE_INFINITY ? Double.POSITIVE_INFINITY : Math.max(0, Math.expm1(logLowerAbove - logLower));
        }

        /** log10 of 1 + {@link #lowerRelativeError}, finite wherever there is a lower bound. */
        public double lowerLog10Factor() {
            return logLower == Double.NEGATIVE_INFINITY ? Double.POSITIVE_INFINITY : Math.max(0, LogMath.toLog10(logLowerAbove - logLower));
        }
    }

    /**
     * How many times a lower bound its assignment's exact value may be, for text: "(1 + 4.3e-07)" where that is under 2, else
     * "10^55.7" ("(1 + 0)" where the lower bound is the value, "an unbounded factor" without a lower bound).
     */
    public static String factorText(double log10Factor) {
        if (log10Factor == Double.POSITIVE_INFINITY) {
            return "an unbounded factor";
        }
        if (log10Factor == 0) {
            return "(1 + 0)";
        }
        return log10Factor < Math.log10(2) ? String.format(Locale.ROOT, "(1 + %.3g)", Math.expm1(log10Factor * Math.log(10)))
                : String.format(Locale.ROOT, "10^%.3g", log10Factor);
    }

    /** What the rounding of a log-sum of positive terms can move it, far above its few ulps. */
    static final double SUM_ROUNDING = 1e-12;

    private MonotoneBounds() {
    }

    /**
     * Whether {@link #of} may bound the regions of assignments: where one hull of two or more vertices is both the upper and the
     * lower set. Above an enclosing simplex (more hull vertices than are kept) they do not run, nor for a single vertex.
     */
    public static boolean regionsRun(DistributionSet upperSet, DistributionSet lowerSet) {
        return upperSet == lowerSet && lowerSet.size() >= 2;
    }

    /** Both bounds for every eps over one set of vertices (the hull of Pi). */
    public static Bounds[] of(PairDivergence pair, DistributionSet vertices, double[] eps, PairSource source, Options options, Consumer<String> progress) {
        return of(pair, vertices, vertices, eps, source, options, progress);
    }

    /**
     * Both bounds for every eps, one after the other (each batch of evaluations runs on the source). The upper bound needs only
     * the smallest share of each category over Pi, which {@code upperSet} must attain (the hull, or an enclosing simplex); the
     * lower bound puts every record on one of {@code lowerSet}'s distributions, which must lie in Pi (hull vertices).
     */
    public static Bounds[] of(PairDivergence pair, DistributionSet upperSet, DistributionSet lowerSet, double[] eps, PairSource source, Options options,
            Consumer<String> progress) {
        if (upperSet.categories() < 3 || lowerSet.categories() != upperSet.categories()) {
            throw new IllegalArgumentException("the monotone bounds need three or more categories");
        }
        if (pair.n() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("n must be at most 2^31 - 1");
        }
        Bounds[] out = new Bounds[eps.length];
        if (everyRecordReleased(pair)) {
            // T = n without replacement: every histogram is released as it is, so delta(h) = 1 for every h, and delta_SDP is 1 on
            // both sides (the lower side's cells, whose probabilities are bounded from below, had stopped 0.01 in log10 short)
            for (int e = 0; e < eps.length; e++) {
                out[e] = new Bounds(eps[e], 0, 0, 0, 0, new int[] {0, 1}, 0, 0, 0, false, null, null);
            }
            return out;
        }
        PairSource timed = progressing(source, options, eps.length, regionsRun(upperSet, lowerSet), progress);
        for (int e = 0; e < eps.length; e++) {
            long t0 = System.nanoTime();
            // one cache of pair values for the three runs of this eps: a point is evaluated once
            Map<Long, double[]> cache = new HashMap<>();
            // the lower side first on a quarter of its budget, and one direction of its pair summed over the released and lost
            // counts where that is larger; then the upper side, which stops refining where it could narrow the gap by at most 1 %
            // more; then the lower side's cells again on the rest of their budget (their points so far are cached) where they could
            // still narrow the gap by more than that, stopping likewise, unless the direction is the lower bound
            VertexLowerBound.Result cells = VertexLowerBound.of(pair, lowerSet, eps[e], timed, options, cache, Double.POSITIVE_INFINITY, LOWER_FIRST_SHARE);
            VertexLowerBound.Result direct = directionSum(pair, lowerSet, cells, eps[e], options);
            VertexLowerBound.Result lo = direct.logLower() > cells.logLower() ? direct : cells;
            Upper up = upper(pair, upperSet, eps[e], timed, options, lo.logLower(), cache);
            double logUpper = Math.max(up.log, lo.logLower());
            int lowerEvaluations = cells.evaluations();
            if (cells.usedShare() < 1 && PlaneCells.narrows(false, cells.logLower(), logUpper, cells.logGainLeft(), PlaneCells.GAP_SHARE)
                    && lo == cells) {
                VertexLowerBound.Result more = VertexLowerBound.of(pair, lowerSet, eps[e], timed, options, cache, logUpper, 1 - cells.usedShare());
                lowerEvaluations += more.evaluations();
                lo = more.logLower() > lo.logLower() ? more : lo;
            }
            boolean byDirection = lo == direct && direct != cells;
            Upper own = own(pair, upperSet, lowerSet, eps[e], timed, options, lo, logUpper, cache);
            Upper kept = up;
            if (upperSet == lowerSet && lo.cells() > 0 && logUpper - lo.logLower() > 2 * options.relativeGain()
                    && !sameWhereItMatters(smallestShares(upperSet), lowerSet.get(lo.vertex()), lo.pair(), pair.n())) {
                // G differs from the lower bound's vertex where it matters (the hull's smallest shares of two categories from
                // different vertices, or another count near the pair's): the regions of assignments leave that out
                Upper split = regions(pair, upperSet, lo.vertex(), eps[e], timed, options, lo.logLower(), cache, logUpper,
                        Math.min(logUpper, own.log));
                lowerEvaluations += split.evaluations;
                if (split.log < logUpper) {
                    logUpper = Math.max(split.log, lo.logLower());
                    kept = split;
                }
            }
            out[e] = new Bounds(eps[e], logUpper, kept.cells, lo.logLower(), lo.vertex(), lo.pair(), lo.cells(), up.evaluations + lowerEvaluations
                    + own.evaluations, Math.min(logUpper, own.log), byDirection, kept.log > lo.logLower() ? kept.directPlane : null, kept.fixed);
            progress.accept(String.format(Locale.ROOT, "eps = %g: %.6g <= log10 delta_SDP <= %.6g (log10 gap %.3g; its assignment's value at most %s"
                    + " times the lower bound), %d pair evaluations, %.1f s", eps[e], LogMath.toLog10(lo.logLower()), LogMath.toLog10(logUpper),
                    out[e].log10Gap(), factorText(out[e].lowerLog10Factor()), out[e].evaluations(), (System.nanoTime() - t0) / 1e9));
        }
        return out;
    }

    /**
     * The lower bound's vertex and pair, one direction summed over the released and lost counts ({@link DirectionSum}), each way
     * round (the pair in the order of the larger): sampling without replacement only, and where its CDF pairs fit in the side's
     * budget (about 40 terms each). The cells' result (its pair's order kept) where it is not
     * larger or not done; none where the vertex has a share of 0 (its value is then exact).
     */
    private static VertexLowerBound.Result directionSum(PairDivergence pair, DistributionSet lowerSet, VertexLowerBound.Result lo, double eps,
            Options options) {
        SamplingHistogramMechanism m = pair.mechanism();
        if (lo.cells() == 0 || m.sampling() != Sampling.WITHOUT_REPLACEMENT) {
            return lo;
        }
        double[] p = lowerSet.get(lo.vertex());
        // the smaller share first: moving a record out of the smaller category is the larger direction at large n (its lost
        // count's lower tail), the other way round gets a tenth of the rows
        int a = p[lo.pair()[0]] <= p[lo.pair()[1]] ? lo.pair()[0] : lo.pair()[1];
        int b = a == lo.pair()[0] ? lo.pair()[1] : lo.pair()[0];
        double ab = DirectionSum.logLower(pair.n(), m.sampleSize(), p[a], p[b], eps, options.directTerms() / 40, lo.logLower());
        double ba = DirectionSum.logLower(pair.n(), m.sampleSize(), p[b], p[a], eps, options.termsPerSide() / 40 / 10, lo.logLower());
        double best = Math.max(ab, ba);
        if (!(best > lo.logLower())) {
            return lo;
        }
        int[] order = ab >= ba ? new int[] {a, b} : new int[] {b, a};
        return new VertexLowerBound.Result(best, lo.vertex(), order, lo.cells(), lo.evaluations(), lo.logGainLeft(), lo.usedShare());
    }

    /**
     * The lower bound's own assignment (every record on its vertex v) bounded from above: the upper side with Pi = {v}, whose
     * law G is then v's own (every count's smallest share is v's). Not run where it cannot say more than the upper bound itself:
     * a lower bound that is exact (a share of 0) or missing, an upper bound within twice the refinement's relative gain of the
     * lower, or an upper set whose smallest shares are v's on the lower bound's pair {a, b} and whose other counts of G are
     * unlikely to come below the larger of the pair's (more than 5.3 standard deviations above it, a chance below 1e-7: the two
     * laws then differ only where neither bound has mass worth the refinement). Gets {@link #OWN_SHARE} of a side's budget.
     */
    private static Upper own(PairDivergence pair, DistributionSet upperSet, DistributionSet lowerSet, double eps, PairSource source, Options options,
            VertexLowerBound.Result lo, double logUpper, Map<Long, double[]> cache) {
        Upper same = new Upper(logUpper, 0, 0);
        if (lo.cells() == 0) {
            return lo.logLower() == Double.NEGATIVE_INFINITY ? same : new Upper(lo.logLower(), 0, 0);
        }
        if (logUpper - lo.logLower() <= 2 * options.relativeGain() || sameWhereItMatters(smallestShares(upperSet), lowerSet.get(lo.vertex()), lo.pair(),
                pair.n())) {
            return same;
        }
        DistributionSet v = DistributionSet.of(List.of(lowerSet.get(lo.vertex())), List.of(lowerSet.label(lo.vertex())), "the lower bound's vertex");
        return upper(pair, v, eps, source, options.share(OWN_SHARE), lo.logLower(), cache);
    }

    /** Whether G (shares q) is v's law on the pair {a, b} and its other counts lie far above the pair's (see {@link #own}). */
    static boolean sameWhereItMatters(double[] q, double[] v, int[] pair, long n) {
        int a = pair[0];
        int b = pair[1];
        if (q[a] != v[a] || q[b] != v[b]) {
            return false;
        }
        double larger = Math.max(v[a], v[b]);
        for (int k = 0; k < q.length; k++) {
            if (k != a && k != b && (q[k] - larger) * Math.sqrt(n) < 5.3 * Math.sqrt(q[k] + larger)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {vertex, category}: the first vertex of {@code lowerSet} with a category of share 0, and its first such category; null where
     * none has one. Every record on that vertex has the DP delta as its value, so {@link #of} reports delta_SDP = the DP delta
     * exactly, with no evaluations (see {@link VertexLowerBound#zeroShare}).
     */
    public static int[] zeroShare(DistributionSet lowerSet) {
        int[] z = VertexLowerBound.zeroShare(lowerSet);
        return z == null ? null : new int[] {z[0], z[1]};
    }

    /**
     * Whether every record is released (T = n, sampling without replacement): two neighbouring histograms are then released as
     * they are, and delta(h) = 1, the DP delta, for every h (reported exactly by {@link #of}, with no cells).
     */
    public static boolean everyRecordReleased(PairDivergence pair) {
        return everyRecordReleased(pair.mechanism().sampling(), pair.mechanism().sampleSize(), pair.n());
    }

    /** {@link #everyRecordReleased(PairDivergence)} for a sampling, T and n (before any pair is made). */
    public static boolean everyRecordReleased(Sampling sampling, long sampleSize, long n) {
        return sampling == Sampling.WITHOUT_REPLACEMENT && sampleSize == n;
    }

    /** The smallest share of each category over the set. */
    static double[] smallestShares(DistributionSet vertices) {
        double[] q = new double[vertices.categories()];
        Arrays.fill(q, 1);
        for (int v = 0; v < vertices.size(); v++) {
            for (int i = 0; i < q.length; i++) {
                q[i] = Math.min(q[i], vertices.get(v)[i]);
            }
        }
        return q;
    }

    /**
     * The source with a progress line at most every 30 s: evaluations done, elapsed time and the time left until the run's
     * budget of terms (of evaluations where the terms are not limited) would be spent at the pace so far: an ETA from above,
     * since the sides stop sooner where they meet (at n = 2e5 on the benchmarks' hull the first line said 601 s, the run
     * ended 253 s later).
     */
    private static PairSource progressing(PairSource source, Options options, int epsilons, boolean regions, Consumer<String> progress) {
        long start = System.nanoTime();
        boolean byTerms = Double.isFinite(options.termsPerSide());
        double budget = (2 + OWN_SHARE + (regions ? REGIONS_SHARE : 0)) * epsilons * (byTerms ? options.termsPerSide() : options.maxEvaluations() + 64);
        // evaluations done, time of the last line, work done, seconds spent in evaluations and cells' probabilities (the pace: the
        // direction sums between batches, up to 90 s each at the national n, had made elapsed time look 20 times slower, "at most
        // about 10923 s more" 7 minutes before the end; the cells count because with four categories at n = 1e6 they took most
        // of the run, and counting evaluations alone had said "at most about 58 s more" for 20 minutes)
        double[] state = {0, start, 0, 0};
        return new PairSource() {
            @Override
            public double[][] log(long[] ha, long[] hb, double eps) {
                long before = System.nanoTime();
                double[][] v = source.log(ha, hb, eps);
                state[0] += ha.length;
                state[3] += (System.nanoTime() - before) / 1e9;
                for (double[] x : v) {
                    state[2] += byTerms ? x[2] : 1;
                }
                report();
                return v;
            }

            @Override
            public void spent(double terms, double seconds) {
                state[2] += byTerms ? terms : 0;
                state[3] += seconds;
            }

            private void report() {
                long now = System.nanoTime();
                if (now - state[1] <= 30e9) {
                    return;
                }
                state[1] = now;
                double elapsed = (now - start) / 1e9;
                double done = state[2] / budget;
                // past the budget the parts under way still take their least evaluations each (300 a region of assignments:
                // with replacement at 5 % lost the line had said "at most about 0 s more" for the last 460 s of a run)
                String left = !(done > 0) ? "" : done < 1
                        ? String.format(Locale.ROOT, ", at most about %.0f s more of evaluations and cells (the budget's end)",
                                state[3] / done * (1 - done))
                        : ", the budget spent: the parts under way finish their least evaluations (300 each)";
                progress.accept(String.format(Locale.ROOT, "%,.0f pair evaluations, %.0f s", state[0], elapsed) + left);
            }
        };
    }

    /**
     * The upper side bounds the plane of G's two smallest shares by its pair's directions summed exactly ({@link PairDirections},
     * where they come within {@link #DIRECT_TRY} of the lower bound); where that comes within this (in ln), every plane's cells
     * run on only a quarter of the budget beside it (the smaller bound kept): the records moved by thinning (6 to 23) cost what
     * they cost whatever the work, while the cells narrow with it (on the issue hull with 0.2 % lost the directions came within
     * 3e-5 in log10 at n = 1e6 and are kept; at n = 1e4, 20 lost, not within this on the hull, and the cells stay; on its third
     * vertex alone within it, and the cells are kept).
     */
    static final double DIRECT_GAP = 1e-3;

    /**
     * The upper side sums that plane by its pair's directions ({@link #DIRECT_GAP}) wherever they come within this (in ln) of
     * the lower bound, the cells then on all of the side's budget beside them unless they come within {@link #DIRECT_GAP}, the
     * smaller kept: where many records are lost the thinning's records cost more than {@link #DIRECT_GAP}, and the cells can
     * cost more still (one vertex (0.75, 0.15, 0.10), n = 3e5, 5 % lost, eps 1: the directions left a log10 gap of 0.0043, the
     * cells 0.015, which stood where the directions were given up at {@link #DIRECT_GAP}; 36 s against 34 s).
     */
    static final double DIRECT_TRY = 0.1;

    /** The upper bound of one eps: ln of it, its cells and evaluations. */
    record Upper(double log, int cells, int evaluations, int[] directPlane, long[] fixed) {
        Upper(double log, int cells, int evaluations) {
            this(log, cells, evaluations, null);
        }

        Upper(double log, int cells, int evaluations, int[] directPlane) {
            this(log, cells, evaluations, directPlane, null);
        }
    }

    /** The upper bound of one eps; {@code logLower}: the lower side's (-infinity if none), against which refinement stops. */
    static Upper upper(PairDivergence pair, DistributionSet vertices, double eps, PairSource source, Options options, double logLower) {
        return upper(pair, vertices, eps, source, options, logLower, new HashMap<>());
    }

    /** {@link #upper} keeping its cells' pair values in {@code cache} (see {@link PlaneCells}). */
    static Upper upper(PairDivergence pair, DistributionSet vertices, double eps, PairSource source, Options options, double logLower,
            Map<Long, double[]> cache) {
        long n = pair.n();
        int m = vertices.categories();
        double logDp = pair.mechanism().logDpDelta(n);
        double[] q = smallestShares(vertices);
        if (Arrays.stream(q).anyMatch(x -> x <= 0)) {
            return new Upper(logDp, 0, 0); // that count of G is 0: the worst case T/n
        }
        List<int[]> categories = new ArrayList<>();
        List<PlaneCells.Plane> planes = planes(q, new long[m], categories);
        double[][] tilt = new double[planes.size()][];
        double[] scale = tilts(pair, eps, source, planes, tilt);
        Options side = options.forTerms(scale[1]);
        // the plane of the two smallest shares of G (the pair that is the two smallest counts about always): its pair over all of
        // G's law (the condition on the other counts dropped) from two directions summed exactly, where that is done within the
        // side's terms (CDF pairs at about 40 terms each) and comes within DIRECT_GAP of the lower bound; the cells then cover the
        // other planes, or every plane where the two together do not come that close either (the smaller bound is kept)
        int main = smallestPlane(categories, q);
        double logMain = pair.mechanism().sampling() == Sampling.WITHOUT_REPLACEMENT && logLower > Double.NEGATIVE_INFINITY
                ? PairDirections.logUpper(pair.mechanism(), n, planes.get(main).pr(), planes.get(main).pc(), eps, options.termsPerSide() / 40,
                        options.directTerms() / 40,
                        logLower, logLower + DIRECT_TRY)
                : Double.POSITIVE_INFINITY;
        Upper direct = null;
        Options forAll = side;
        if (logMain < logDp && logMain - logLower <= DIRECT_TRY) {
            List<PlaneCells.Plane> rest = new ArrayList<>(planes);
            rest.remove(main);
            // (on a quarter of the side's budget: where the two smallest shares are the pair about always, the other planes
            // weigh little; at n = 1e4 on the issue hull they did not close, and the full cells took the rest)
            direct = cells(pair, eps, source, rest, dropRow(tilt, main), side.share(0.25), scale[0], logLower, cache, logMain,
                    categories.get(main));
            // where it comes close, every plane's cells still run on a quarter of the budget: the records moved by thinning cost
            // the same at any budget, and where few are lost the cells leave less (one vertex, n = 1e4, 20 lost, eps 0.5: the
            // directions left a log10 gap of 1.6e-4, the cells 6.2e-7); where it does not, on all of it
            forAll = direct.log - logLower <= DIRECT_GAP ? side.share(0.25) : side;
        }
        Upper all = cells(pair, eps, source, planes, tilt, forAll, scale[0], logLower, cache, Double.NEGATIVE_INFINITY, null);
        if (direct == null) {
            return all;
        }
        Upper kept = direct.log < all.log ? direct : all;
        return new Upper(kept.log, kept.cells, direct.evaluations + all.evaluations, kept.directPlane);
    }

    /**
     * The planes of every pair of categories of G ~ Multinomial(n; q, undecided) with its counts moved up by {@code shift} (one per
     * category; the pair is taken at the moved counts, and the order of the two smallest counts is theirs): r the category of the
     * larger share; {@code categories} gets each plane's {r, c}. Ties go to the lower index: a plane counts only where every other
     * moved count comes after both of its own in the order of (count, index), so the planes part the outcomes (a tie is counted
     * once).
     */
    static List<PlaneCells.Plane> planes(double[] q, long[] shift, List<int[]> categories) {
        int m = q.length;
        List<PlaneCells.Plane> planes = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            for (int j = i + 1; j < m; j++) {
                int r = q[i] >= q[j] ? i : j;
                int c = r == i ? j : i;
                double[] others = new double[m - 2];
                int[][] ties = new int[m - 2][];
                for (int k = 0, o = 0; k < m; k++) {
                    if (k != i && k != j) {
                        // G_k + s_k must come after G_r + s_r (at least one more where k < r takes the tie), so
                        // G_k >= G_r + s_r - s_k (+ 1); c alike
                        ties[o] = new int[] {Math.toIntExact(shift[r] - shift[k] + (k < r ? 1 : 0)), Math.toIntExact(shift[c] - shift[k] + (k < c ? 1 : 0))};
                        others[o++] = q[k];
                    }
                }
                planes.add(new PlaneCells.Plane(q[r], q[c], others, ties, new long[] {shift[r], shift[c]}));
                categories.add(new int[] {r, c});
            }
        }
        return planes;
    }

    /**
     * Each plane's tilt (into {@code tilt}: {g_r, g_c}, and the evaluations of its peak's search where there was one) from the pair
     * at its mean (moved by its shift) and one sigma below it in each count; returns {ln of the largest pair at a mean, the terms
     * its evaluation took}.
     */
    private static double[] tilts(PairDivergence pair, double eps, PairSource source, List<PlaneCells.Plane> planes, double[][] tilt) {
        long n = pair.n();
        List<long[]> means = new ArrayList<>();
        for (PlaneCells.Plane pl : planes) {
            means.add(new long[] {Math.max(1, Math.round(n * pl.pr()) + pl.shift()[0]), Math.max(1, Math.round(n * pl.pc()) + pl.shift()[1])});
        }
        double[][] atMean = evaluate(means, eps, source);
        int best = 0;
        for (int p = 0; p < planes.size(); p++) {
            long[] at = means.get(p);
            PlaneCells.Plane pl = planes.get(p);
            tilt[p] = VertexLowerBound.tilt(pair, eps, source, pl.pr(), pl.pc(), at[0], at[1], atMean[p][0]);
            // where the slopes at the mean put the law's tilted peak below count 1 (their line has left the plane, as with
            // replacement at eps 7 and n = 10,000 for the 0.08 count), the cells start at the peak of the law times the pair
            // instead (VertexLowerBound#peak): started at the plane's edge, they had stalled at the DP delta, 359 decades above
            // the lower bound
            if (PlaneCells.center(n, pl.pr(), tilt[p][0]) < 1 || PlaneCells.center(n, pl.pc(), tilt[p][1]) < 1) {
                tilt[p] = VertexLowerBound.peak(pair, eps, source, pl.pr(), pl.pc(), pl.shift(), tilt[p]); // {g_r, g_c, evaluations}
            }
            best = atMean[p][0] > atMean[best][0] ? p : best;
        }
        return new double[] {atMean[best][0], atMean[best][2]};
    }

    /**
     * An upper bound over every assignment of records to {@code vertices} (the hull's), as the largest over regions of assignments
     * by how many records lie on each set of vertices (every assignment of the hull is at most one of these: E[delta(H)] is linear
     * in each record's distribution), from a branch and bound ({@link AssignmentRegions}): first, for a cut K, at least n - K
     * records on the lower bound's vertex v, or at most n - K - 1; the second split further until each part's moved counts lie
     * well below v's. In a region where at least f records lie on a set S of vertices, each record is "category j" with chance
     * q_j (the smallest shares, the same law G as {@link #upper}) and those f records in category j with chance q^S_j - q_j more
     * (q^S the smallest shares over S): H >= G + E count by count, E_j a sum of binomials. So
     * {@code E[delta(H)] <= E[pair of the two smallest of G + e] + P(E_j < e_j for some j) DP} for any counts e, here each part's
     * e_j where its Chernoff tail falls below a 1e-8 share of the lower bound; the first is the cells of {@link #upper} with
     * every count moved up by e ({@link #shifted}). Given up (+infinity) where a region lies at or above {@code logGiveUp}.
     *
     * <p>K is the largest cut at which G + e of v's region keeps every category outside v's pair {a, b} {@value #APART} standard
     * deviations above the pair's larger count (there the two smallest are v's pair about always and the region's bound is about
     * v's own value): where the hull's smallest shares of two categories come from different vertices (the issue of
     * {@link #upper}'s class comment), G alone lets the two smallest be a pair no assignment near v has. Returns +infinity where no
     * such cut exists.
     *
     * <p>Where v has the smallest share over Pi of both of its two smallest categories, the assignments with at most K records
     * off v are at most v's own value ({@code e^logOwn}, from above) plus a slack ({@link VertexExchange}); K is then at least
     * the largest at which that slack stays within {@link #EXCHANGE_SHARE} of the lower bound (at most n - 1), and v's region
     * is bounded so (and not halved).
     */
    static Upper regions(PairDivergence pair, DistributionSet vertices, int v, double eps, PairSource source, Options options,
            double logLower, Map<Long, double[]> cache, double logGiveUp, double logOwn) {
        long n = pair.n();
        int l = vertices.size();
        double[] q = smallestShares(vertices);
        if (l < 2 || !(logLower > Double.NEGATIVE_INFINITY) || Arrays.stream(q).anyMatch(x -> x <= 0)) {
            return new Upper(Double.POSITIVE_INFINITY, 0, 0);
        }
        double logBeta = logBeta(pair, logLower, q.length);
        long cut = cut(n, q, vertices.get(v), twoSmallest(vertices.get(v)), logBeta);
        // where v has the smallest shares of its two smallest categories over Pi, the assignments with at most `reach` records
        // off v are at most v's own value plus a slack of EXCHANGE_SHARE of the lower bound (VertexExchange)
        double[][] at = arrays(vertices);
        double logDp = pair.mechanism().logDpDelta(n);
        long reach = logOwn < Double.POSITIVE_INFINITY ? VertexExchange.reach(n, at, v, logDp, logLower + Math.log(EXCHANGE_SHARE)) : -1;
        cut = Math.max(cut, Math.min(reach, n - 1));
        if (cut < 1) {
            return new Upper(Double.POSITIVE_INFINITY, 0, 0);
        }
        return regions(pair, vertices, v, cut, logBeta, eps, source, options, logLower, cache, logGiveUp, logOwn, reach);
    }

    /** Half of v's region's K, but not below {@code reach} where that lies below K (at least 1 record). */
    private static long halve(long k, long reach) {
        return reach >= 1 && reach < k ? Math.max(reach, k / 2) : k / 2;
    }

    /**
     * The share of the lower bound that {@link VertexExchange}'s slack may add to v's own value: where it is at most this, the
     * assignments near v are bounded by v's value from above.
     */
    static final double EXCHANGE_SHARE = 1e-9;

    private static double[][] arrays(DistributionSet vertices) {
        double[][] at = new double[vertices.size()][];
        for (int w = 0; w < at.length; w++) {
            at[w] = vertices.get(w);
        }
        return at;
    }

    /** ln of the chance each moved count of {@link #regions} may miss: a 1e-8 share of the lower bound over the DP delta, per category. */
    static double logBeta(PairDivergence pair, double logLower, int categories) {
        return Math.min(0, logLower + Math.log(1e-8) - pair.mechanism().logDpDelta(pair.n())) - Math.log(categories);
    }

    /** The most halvings of the lower bound's vertex's region in one round of {@link #regions}. */
    static final int MAX_HALVINGS = 32;

    /** The most regions of assignments the branch and bound makes ({@link AssignmentRegions#partition}). */
    static final int MAX_REGIONS = 24;

    /**
     * {@link #regions} at a given cut and chance {@code e^logBeta} for each moved count to miss: the regions of
     * {@link AssignmentRegions#partition}, v's first on a third of the side's budget, the others sharing the rest, each bounded by
     * the cells of G with its counts moved up ({@link #shifted}) plus the chance they miss times the DP delta; given up (+infinity)
     * as soon as one region lies at or above {@code logGiveUp}.
     */
    static Upper regions(PairDivergence pair, DistributionSet vertices, int v, long cut, double logBeta, double eps, PairSource source, Options options,
            double logLower, Map<Long, double[]> cache, double logGiveUp) {
        return regions(pair, vertices, v, cut, logBeta, eps, source, options, logLower, cache, logGiveUp, Double.POSITIVE_INFINITY, -1);
    }

    /**
     * {@link #regions(PairDivergence, DistributionSet, int, long, double, double, PairSource, Options, double, Map, double)}
     * where the assignments with at most {@code reach} records off v are at most {@code e^logOwn} (v's own value from above)
     * plus {@link VertexExchange}'s slack: v's region, once its K is at most that, is bounded so and not halved.
     */
    static Upper regions(PairDivergence pair, DistributionSet vertices, int v, long cut, double logBeta, double eps, PairSource source, Options options,
            double logLower, Map<Long, double[]> cache, double logGiveUp, double logOwn, long reach) {
        long n = pair.n();
        int l = vertices.size();
        double[] q = smallestShares(vertices);
        if (l < 2 || cut < 0 || cut >= n || Arrays.stream(q).anyMatch(x -> x <= 0)) {
            throw new IllegalArgumentException("regions need two or more vertices with every smallest share above 0 and a cut in [0, n)");
        }
        double[][] at = arrays(vertices);
        double[] slopes = slopes(pair, at[v], eps, source);
        // the assignments a relabelling of the categories maps onto others kept are left out (CategorySymmetry)
        int orbit = CategorySymmetry.orbit(at, v);
        AssignmentRegions split = new AssignmentRegions(n, at, logBeta, slopes[0], slopes[1], v, orbit);
        LevelsBudget levels = new LevelsBudget(options);
        List<AssignmentRegions.Region> leaves = split.partition(v, cut, MAX_REGIONS);
        double logDp = pair.mechanism().logDpDelta(n);
        int cells = 0;
        int evaluations = 5; // the slopes'
        // rounds: v's region on a third of the budget (a whole side in its last round), and the others; a region whose bound
        // lies above the lower bound is split again, with a target lowered by what it missed by (the proxy is a line through v's
        // point); v's own region, whose free records take G's smallest shares, has its K halved instead (the band between joins
        // the others). v's last region is most often what binds, and its cells are what leaves the gap there: on the 2020
        // states' hull at the national n and eps 2, a third of a side left it 0.72 decades above the lower bound, a whole side 0.04
        AssignmentRegions.Region onVertex = leaves.get(0);
        long k = cut;
        boolean exchanged = false;
        double worst = Double.NEGATIVE_INFINITY;
        int kept = 0;
        List<AssignmentRegions.Region> others = new ArrayList<>(leaves.subList(1, leaves.size()));
        // the bands cut off v's region where at most half the records leave v: {lo, hi} records on v, bounded from v's own law
        List<long[]> bands = new ArrayList<>();
        // the bands bounded already in this round (where a halving cut them off), by identity
        Map<long[], Upper> known = new java.util.IdentityHashMap<>();
        // the regions no split lowered, bounded again in the next round: their bound so far, by identity
        Map<AssignmentRegions.Region, Upper> unsplit = new java.util.IdentityHashMap<>();
        int directLeft = REGION_DIRECT_SUMS;
        for (int round = 0; round <= REFINE_ROUNDS && (onVertex != null || !others.isEmpty() || !bands.isEmpty()) && worst < logGiveUp; round++) {
            boolean last = round == REFINE_ROUNDS;
            if (onVertex != null) {
                // (halved, but not below the exchange's reach: below it v's region is bounded by v's own value)
                long half = halve(k, reach);
                boolean closing = last || half < 1;
                Options share = options.share(closing ? 1 : 1.0 / 3);
                // v's region by v's own value where the exchange reaches it (no halving then: its bound holds v's value), else
                // in its last bound also from its pair's directions at thinned shares (one of REGION_DIRECT_SUMS)
                exchanged = k <= reach;
                boolean direct = !exchanged && closing && 2 * k <= n && directLeft > 0;
                directLeft -= direct ? 1 : 0;
                Upper first = exchanged ? new Upper(LogMath.logAdd(logOwn, VertexExchange.logSlack(n, at, v, k, logDp)), 0, 0)
                        : 2 * k <= n ? vertexBound(pair, split, v, n - k, n, at[v], eps, source, share, logLower, cache, logDp, direct, levels)
                        : leafBound(pair, q, split, onVertex, eps, source, share, logLower, cache, logDp, null);
                cells += first.cells;
                evaluations += first.evaluations;
                if (first.log - logLower > 2 * options.relativeGain() && !closing && !exchanged) {
                    // halved, and again while each band a halving cuts off is excluded (bounded below the lower bound at once, on
                    // a region's share) and v's law puts v's region still above: where few records leave v the bands are v's law
                    // with few counts moved, and K can fall by many halvings in one round (4 vertices at n = 1e6: K stayed at
                    // n / 8 after two single halvings, a log10 gap of 0.84; 0.02 so). The first band not excluded stops it and is
                    // bounded again below (and in the next round)
                    double excess = first.log - logLower;
                    double own = split.vertexProxy(v, n, n);
                    double perProxy = excess / Math.max(1e-300, (2 * k <= n ? split.vertexProxy(v, n - k, n) : onVertex.proxy()) - own);
                    // a round's halvings share a third of a side, each band as much as the most halvings K allows
                    Options bandShare = options.share(AssignmentRegions.HALVING_SHARE / Math.max(1, 64 - Long.numberOfLeadingZeros(k)));
                    for (int h = 0; h < MAX_HALVINGS && half >= 1 && k > reach; h++) {
                        if (h > 0 && perProxy * (split.vertexProxy(v, n - half, n) - own) <= 2 * options.relativeGain()) {
                            break;
                        }
                        long[] band = {n - k, n - half - 1};
                        boolean byVertex = 2 * k <= n;
                        if (!byVertex) {
                            long[] region = split.with(onVertex.atLeast(), v, n - half - 1, true);
                            if (region != null && !split.outside(region)) {
                                others.add(split.relax(region));
                            }
                        }
                        onVertex = split.relax(split.with(onVertex.atLeast(), v, n - half, false));
                        k = half;
                        half = halve(k, reach);
                        if (byVertex) {
                            Upper b = vertexBound(pair, split, v, band[0], band[1], at[v], eps, source, bandShare, logLower, cache, logDp, false, levels);
                            evaluations += b.evaluations;
                            if (b.log > logLower) {
                                bands.add(band);
                                known.put(band, b); // its cells counted with the bands below
                                break;
                            }
                            cells += b.cells;
                            worst = Math.max(worst, b.log);
                            kept++;
                        }
                    }
                } else {
                    worst = Math.max(worst, first.log);
                    kept++;
                    onVertex = null;
                }
            }
            double eachShare = 2.0 / 3 / (REFINE_ROUNDS + 1) / Math.max(1, others.size() + bands.size());
            Options each = options.share(eachShare);
            List<long[]> narrower = new ArrayList<>();
            List<Upper> bandBounds = new ArrayList<>();
            for (long[] band : bands) {
                Upper b = known.get(band);
                if (b == null) {
                    b = vertexBound(pair, split, v, band[0], band[1], at[v], eps, source, each, logLower, cache, logDp, false, levels);
                    evaluations += b.evaluations;
                }
                bandBounds.add(b);
            }
            known.clear();
            // as the others below: a few bands above are bounded again on more of the budget before they are split
            evaluations += boundAgain(bands, bandBounds, logLower, options, eachShare,
                    (band, closer) -> vertexBound(pair, split, v, band[0], band[1], at[v], eps, source, closer, logLower, cache, logDp, false, levels));
            if (last) {
                // the bands kept above the lower bound, the highest first, also from their pair's directions (the rest of
                // REGION_DIRECT_SUMS)
                List<Integer> order = IntStream.range(0, bands.size()).filter(i -> bandBounds.get(i).log > logLower).boxed()
                        .sorted((x, y) -> Double.compare(bandBounds.get(y).log, bandBounds.get(x).log)).toList();
                for (int i : order) {
                    if (directLeft <= 0) {
                        break;
                    }
                    directLeft--;
                    Upper b = vertexBound(pair, split, v, bands.get(i)[0], bands.get(i)[1], at[v], eps, source,
                            options.share(RETRY_SHARE).withDirectTerms(options), logLower, cache, logDp, true, levels);
                    evaluations += b.evaluations;
                    if (b.log < bandBounds.get(i).log) {
                        bandBounds.set(i, b);
                    }
                }
            }
            for (int i = 0; i < bands.size(); i++) {
                long[] band = bands.get(i);
                Upper b = bandBounds.get(i);
                cells += b.cells;
                if (b.log > logLower && !last) {
                    narrower.add(band);
                    continue;
                }
                worst = Math.max(worst, b.log);
                kept++;
            }
            bands = narrower;
            List<Upper> bounds = new ArrayList<>();
            for (AssignmentRegions.Region r : others) {
                Upper b = leafBound(pair, q, split, r, eps, source, each, logLower, cache, logDp, levels);
                evaluations += b.evaluations;
                bounds.add(b);
            }
            // where few regions lie above the lower bound, each is bounded again on more of the budget (its points so far cached)
            // before it is split: a split's parts start their cells afresh on shifted points, each on a smaller share (the 2020
            // states at n = 1e5, eps 0.5: two regions of five above, split into 14 that all stayed above, a log10 gap of 0.0067;
            // bounded again, both came below, 2.5e-4). Where most lie above, v's own region binds and neither would help.
            if (!last) {
                evaluations += boundAgain(others, bounds, logLower, options, eachShare,
                        (r, closer) -> leafBound(pair, q, split, r, eps, source, closer, logLower, cache, logDp, levels));
            }
            List<AssignmentRegions.Region> again = new ArrayList<>();
            for (int i = 0; i < others.size(); i++) {
                AssignmentRegions.Region r = others.get(i);
                Upper b = bounds.get(i);
                Upper before = unsplit.remove(r);
                boolean narrowed = before == null || b.log < before.log;
                b = narrowed ? b : before;
                cells += b.cells;
                if (b.log > logLower && !last) {
                    List<AssignmentRegions.Region> parts = split.refine(r, r.proxy() - (b.log - logLower) - AssignmentRegions.MARGIN,
                            MAX_REGIONS / (REFINE_ROUNDS + 1));
                    // no part: every assignment of r has a relabelled image kept (CategorySymmetry), so r is dropped
                    if (parts.size() != 1 || parts.get(0) != r) {
                        again.addAll(parts);
                        continue;
                    }
                    // no split lowers it by the proxy: bounded again next round while that narrows it, its points cached (the
                    // smaller bound kept). Kept at its first bound, the two regions of a five-category hull at n = 1e4 (vertices
                    // that swap two categories' shares) had stayed 4.4e-4 in log10 above the lower bound; bounded again, 8.8e-6
                    if (narrowed) {
                        again.add(r);
                        unsplit.put(r, b);
                        continue;
                    }
                }
                worst = Math.max(worst, b.log);
                kept++;
                if (worst >= logGiveUp) {
                    break;
                }
            }
            others = again;
        }
        if (worst >= logGiveUp) {
            return new Upper(Double.POSITIVE_INFINITY, cells, evaluations);
        }
        return new Upper(worst, cells, evaluations, null, new long[] {kept, k, exchanged ? 1 : 0, levels.smaller(), orbit});
    }

    /**
     * The bound of the assignments with between {@code lo} and {@code hi} records on vertex v (the others on the other vertices):
     * the cells of v's own law moved by {@link AssignmentRegions#vertexShift}, plus the chance that its counts miss times what
     * delta is then: the records on v alone are at least Multinomial(lo, v), which is X less B, B ~ Multinomial(n - lo, v), and
     * independent of the other records (the event's), so that part is the chance times the cells of X moved down by B's upper
     * Chernoff counts (plus their own chance to miss times the DP delta), far less than the DP delta (weighed by that, at
     * n = 1e6 and a value of 1e-757 the counts' chance to miss had to be e^-1765, 59 standard deviations, and every record off
     * v was counted as lost). The chance is set
     * to a 1e-8 share of the lower bound over that part.
     */
    static Upper vertexBound(PairDivergence pair, AssignmentRegions split, int v, long lo, long hi, double[] own, double eps,
            PairSource source, Options options, double logLower, Map<Long, double[]> cache, double logDp) {
        return vertexBound(pair, split, v, lo, hi, own, eps, source, options, logLower, cache, logDp, false, null);
    }

    /**
     * {@link #vertexBound(PairDivergence, AssignmentRegions, int, long, long, double[], double, PairSource, Options, double, Map, double)}
     * with the moved counts' bound from {@link #shifted(PairDivergence, double[], long[], double, PairSource, Options, double, Map, boolean)}
     * with {@code direct}.
     */
    static Upper vertexBound(PairDivergence pair, AssignmentRegions split, int v, long lo, long hi, double[] own, double eps,
            PairSource source, Options options, double logLower, Map<Long, double[]> cache, double logDp, boolean direct, LevelsBudget budget) {
        // Multinomial(lo, v) >= X - B, B ~ Multinomial(n - lo, v), each B_j at most b_j but with a chance that leaves the
        // DP delta e^-30 below the lower bound
        double logMissB = Math.min(0, logLower - logDp - 30) - Math.log(own.length);
        double[] none = new double[own.length];
        long[] b = chernoffCounts(pair.n() - lo, own, none, logMissB, true);
        long[] down = new long[own.length];
        for (int j = 0; j < own.length; j++) {
            down[j] = -b[j];
        }
        Upper fail = lo == pair.n() ? new Upper(Double.NEGATIVE_INFINITY, 0, 0)
                : shifted(pair, own, down, eps, source, options.share(VERTEX_FAIL_SHARE), logLower, cache);
        double logFail = Math.min(logDp, LogMath.logAdd(fail.log, chernoffMiss(pair.n() - lo, own, none, b, true) + logDp));
        double logBeta = Math.min(0, logLower + Math.log(1e-8) - logFail) - Math.log(2.0 * own.length);
        AssignmentRegions.Moved moved = split.vertexShift(v, lo, hi, logBeta);
        Options main = options.share(1 - VERTEX_FAIL_SHARE);
        Upper u = shifted(pair, own, moved.counts(), eps, source, main, logLower, cache, direct);
        Upper plain = new Upper(LogMath.logAdd(u.log, moved.logTail() + logFail), u.cells + fail.cells, u.evaluations + fail.evaluations);
        if (budget == null || !(plain.log > logLower)) {
            return plain;
        }
        // the records off v's extra of the smallest moved count in levels, as for a region
        int j = smallestMoved(pair.n(), own, moved.counts());
        RegionStrata.Levels s = split.vertexStrata(v, hi, j, moved.counts()[j], logBeta);
        if (s == null || !budget.take(main, s.levels().length - 1)) {
            return plain;
        }
        Upper l = levelled(pair, own, moved.counts(), s, u, moved.logTailExcept(j), logFail, eps, source, main, logLower, cache);
        return budget.smaller(plain, new Upper(l.log, l.cells + fail.cells, l.evaluations + fail.evaluations));
    }

    /**
     * Where at most {@value #RETRY_REGIONS} of {@code bounds} (one for each region) lie above the lower bound, each of those
     * regions is bounded again on {@value #RETRY_FACTOR} times {@code eachShare} of a side, at most {@value #RETRY_SHARE}
     * of a side for them all, and the smaller bound kept in its place; returns the evaluations it took.
     */
    private static <R> int boundAgain(List<R> regions, List<Upper> bounds, double logLower, Options options, double eachShare,
            BiFunction<R, Options, Upper> bound) {
        long above = bounds.stream().filter(b -> b.log > logLower).count();
        if (above == 0 || above > RETRY_REGIONS) {
            return 0;
        }
        Options closer = options.share(Math.min(RETRY_FACTOR * eachShare, RETRY_SHARE / above));
        int evaluations = 0;
        for (int i = 0; i < bounds.size(); i++) {
            if (bounds.get(i).log > logLower) {
                Upper b = bound.apply(regions.get(i), closer);
                evaluations += b.evaluations;
                if (b.log < bounds.get(i).log) {
                    bounds.set(i, b);
                }
            }
        }
        return evaluations;
    }

    /** The share of a region's budget {@link #vertexBound} spends on what delta is where its counts miss. */
    static final double VERTEX_FAIL_SHARE = 0.05;

    /**
     * One region's bound: the cells of G moved by its counts plus the chance they miss times the DP delta; where that lies above
     * the lower bound and {@code budget} (null for none) allows, also with its smallest count's extra in levels
     * ({@link #levelled}), the smaller kept.
     */
    private static Upper leafBound(PairDivergence pair, double[] q, AssignmentRegions split, AssignmentRegions.Region r, double eps,
            PairSource source, Options options, double logLower, Map<Long, double[]> cache, double logDp, LevelsBudget budget) {
        AssignmentRegions.Moved moved = split.shift(r);
        Upper u = shifted(pair, q, moved.counts(), eps, source, options, logLower, cache);
        Upper plain = new Upper(LogMath.logAdd(u.log, moved.logTail() + logDp), u.cells, u.evaluations);
        if (budget == null || !(plain.log > logLower)) {
            return plain;
        }
        int j = smallestMoved(pair.n(), q, moved.counts());
        RegionStrata.Levels s = split.strata(r, j, moved.counts()[j]);
        if (s == null || !budget.take(options, s.levels().length - 1)) {
            return plain;
        }
        return budget.smaller(plain, levelled(pair, q, moved.counts(), s, u, moved.logTailExcept(j), logDp, eps, source, options, logLower, cache));
    }

    /**
     * A bound above the lower bound again with its smallest moved count's extra in levels ({@link RegionStrata}): {@code law}
     * G's shares (the hull's smallest for a region, the vertex's own for a band), {@code counts} the relaxation's shift, of which
     * category {@code s.category()} is at {@code s.levels()[0]} already ({@code atFirst} its bound); {@code logMiss} the chance
     * that another count misses its shift, and {@code logFail} what the pair is at most then. Each level's shift is bounded on
     * the whole budget (a quarter of it had left the levels' cells too coarse: the 2020 states at n = 5e4, eps 0.5, a region
     * 0.035 above the lower bound in ln where the whole budget leaves 0.0018). Its cells and evaluations count those of
     * {@code atFirst}.
     */
    static Upper levelled(PairDivergence pair, double[] law, long[] counts, RegionStrata.Levels s, Upper atFirst, double logMiss,
            double logFail, double eps, PairSource source, Options options, double logLower, Map<Long, double[]> cache) {
        long[] e = s.levels();
        double log = LogMath.logAdd(LogMath.logAdd(logMiss, s.logMiss()), s.logBelow()[0]) + logFail;
        int cells = atFirst.cells;
        int evaluations = atFirst.evaluations;
        for (int k = 0; k < e.length; k++) {
            Upper f = atFirst;
            if (k > 0) {
                long[] at = counts.clone();
                at[s.category()] = e[k];
                f = shifted(pair, law, at, eps, source, options, logLower, cache);
                cells += f.cells;
                evaluations += f.evaluations;
            }
            log = LogMath.logAdd(log, s.logWeight(k) + f.log);
        }
        return new Upper(log, cells, evaluations);
    }

    /** The category of the smallest of {@code n law + counts} (the pair's smaller count, where the levels pay most). */
    private static int smallestMoved(long n, double[] law, long[] counts) {
        double[] means = new double[law.length];
        for (int i = 0; i < law.length; i++) {
            means[i] = n * law[i] + counts[i];
        }
        return twoSmallest(means)[0];
    }

    /**
     * What the levels of one call of {@link #regions} may still take ({@link #levelled}), each level on its bound's whole share;
     * past it, bounds go without levels. Taken in the order the regions are bounded, so the result does not depend on the
     * machine.
     */
    static final class LevelsBudget {
        /** The sides of budget the levels of one call of {@link #regions} may take over all its bounds. */
        static final double SIDES = 4;

        private final double side;
        private double left = SIDES;
        private long smaller;

        LevelsBudget(Options side) {
            this.side = side.maxEvaluations();
        }

        /** The sides left. */
        double left() {
            return left;
        }

        /** How many bounds the levels made smaller. */
        long smaller() {
            return smaller;
        }

        /** The smaller of a bound and its levels' (which count their cells and evaluations), counted where the levels are. */
        Upper smaller(Upper plain, Upper levels) {
            smaller += levels.log < plain.log ? 1 : 0;
            return new Upper(Math.min(plain.log, levels.log), levels.cells, levels.evaluations);
        }

        /** Takes what {@code levels} bounds on {@code options} cost, where that is left; false (nothing taken) otherwise. */
        boolean take(Options options, int levels) {
            double need = levels * options.maxEvaluations() / side;
            if (need > left) {
                return false;
            }
            left -= need;
            return true;
        }
    }

    /**
     * {d ln pair / d x, d ln pair / d ln y} at vertex p's two smallest mean counts (x <= y), x moved down by the tilt of the pair
     * (its growth per standard deviation of x, at most 8 of them): the first over one standard deviation of x, the second over y
     * to y / 4 (a secant: the regions move y far).
     */
    private static double[] slopes(PairDivergence pair, double[] p, double eps, PairSource source) {
        long n = pair.n();
        int[] ab = twoSmallest(p);
        long x = Math.max(2, Math.round(n * p[ab[0]]));
        long y = Math.max(x, Math.round(n * p[ab[1]]));
        long sd = Math.max(1, Math.min(x - 1, Math.round(Math.sqrt(n * p[ab[0]] * (1 - p[ab[0]])))));
        double[][] first = evaluate(List.of(new long[] {x, y}, new long[] {x - sd, y}), eps, source);
        double g = Math.max(0, Math.min(8, first[1][0] - first[0][0]));
        long at = Math.max(sd + 1, x - Math.round(g * sd));
        long quarter = Math.max(at, y / 4);
        double[][] v = evaluate(List.of(new long[] {at, y}, new long[] {at - sd, y}, new long[] {at, quarter}), eps, source);
        double alpha = (v[0][0] - v[1][0]) / sd;
        double beta = quarter < y ? (v[2][0] - v[0][0]) / Math.log((double) quarter / y) : 0;
        return new double[] {alpha, beta};
    }

    /**
     * ln of an upper bound on {@code E[pair of the two smallest counts of G + shift]}, G ~ Multinomial(n; q, undecided): the cells
     * of every plane ({@link #planes}) refined against {@code logLower} within {@code options} (a side's budget).
     */
    static Upper shifted(PairDivergence pair, double[] q, long[] shift, double eps, PairSource source, Options options, double logLower,
            Map<Long, double[]> cache) {
        return shifted(pair, q, shift, eps, source, options, logLower, cache, false);
    }

    /**
     * {@link #shifted(PairDivergence, double[], long[], double, PairSource, Options, double, Map)}; with {@code direct} (sampling
     * without replacement) also the plane of the two smallest moved means bounded over all of G's law by its pair's directions
     * summed exactly at thinned shares ({@link #logThinnedPair}), the cells covering the other planes on a quarter of the
     * budget beside it, and the smaller of the two bounds kept: the cells' corners leave a gap that grows with n (the 2020
     * states at the national n and eps 0.5, 168,661 records off Florida: 0.091 in log10 above the lower bound, from the
     * directions 6.1e-4).
     */
    static Upper shifted(PairDivergence pair, double[] q, long[] shift, double eps, PairSource source, Options options, double logLower,
            Map<Long, double[]> cache, boolean direct) {
        List<int[]> categories = new ArrayList<>();
        List<PlaneCells.Plane> planes = planes(q, shift, categories);
        double[][] tilt = new double[planes.size()][];
        double[] scale = tilts(pair, eps, source, planes, tilt);
        Options side = options.forTerms(scale[1]);
        Upper all = cells(pair, eps, source, planes, tilt, side, scale[0], logLower, cache, Double.NEGATIVE_INFINITY, null);
        if (!direct || pair.mechanism().sampling() != Sampling.WITHOUT_REPLACEMENT || !(logLower > Double.NEGATIVE_INFINITY)) {
            return all;
        }
        double[] means = new double[q.length];
        for (int j = 0; j < q.length; j++) {
            means[j] = pair.n() * q[j] + shift[j];
        }
        int main = smallestPlane(categories, means);
        double logMain = logThinnedPair(pair, q, shift, categories.get(main), eps, options, logLower, all.log);
        if (!(logMain < all.log)) {
            return all;
        }
        List<PlaneCells.Plane> rest = new ArrayList<>(planes);
        rest.remove(main);
        Upper beside = cells(pair, eps, source, rest, dropRow(tilt, main), side.share(0.25), scale[0], logLower, cache, logMain,
                categories.get(main));
        Upper kept = beside.log < all.log ? beside : all;
        return new Upper(kept.log, kept.cells, all.evaluations + beside.evaluations, kept.directPlane);
    }

    /**
     * ln of an upper bound on E[pair(G_r + s_r, G_c + s_c)] over all of G's law (G ~ Multinomial(n; q, undecided); the condition
     * that r, c are the two smallest counts dropped), {@code rc} = {r, c}, from the pair's two directions summed exactly
     * ({@link PairDirections}) at thinned shares: each record of r (of c) leaves for the rest with chance theta_r (theta_c), so
     * the thinned law Y is Multinomial(n; q_r (1 - theta_r), q_c (1 - theta_c), rest), and where at least d_j = max(0, -s_j)
     * records of each category j left, Y lies at or below G + s in both counts and pair(G + s) <= pair(Y) (the pair does not
     * fall as a count falls; a count raised only lowers it, so a positive s_j is dropped). The records that left r are
     * Binomial(n, q_r theta_r); theta_j is the least (by bisection) whose Chernoff chance to fall below d_j is at most 1e-10 of
     * the lower bound over the DP delta, and that chance times the DP delta is added. +infinity where not done, or where the
     * directions lie above {@code logWanted}.
     */
    static double logThinnedPair(PairDivergence pair, double[] q, long[] shift, int[] rc, double eps, Options options, double logLower,
            double logWanted) {
        long n = pair.n();
        double logDp = pair.mechanism().logDpDelta(n);
        double logMiss = Math.min(0, logLower + Math.log(1e-10) - logDp) - Math.log(2);
        double[] p = new double[2];
        double miss = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < 2; i++) {
            int j = rc[i];
            long d = Math.max(0, -shift[j]);
            p[i] = q[j];
            if (d == 0) {
                continue;
            }
            if (ChernoffTail.logBinomialTail(n, q[j], d - 1, false) > logMiss) {
                return Double.POSITIVE_INFINITY; // even every record of j leaving may fall short
            }
            double lo = 0;
            double hi = 1;
            for (int it = 0; it < 60; it++) {
                double mid = (lo + hi) / 2;
                if (ChernoffTail.logBinomialTail(n, q[j] * mid, d - 1, false) <= logMiss) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            p[i] = q[j] * (1 - hi);
            miss = LogMath.logAdd(miss, ChernoffTail.logBinomialTail(n, q[j] * hi, d - 1, false));
        }
        double logPair = PairDirections.logUpper(pair.mechanism(), n, p[0], p[1], eps, options.termsPerSide() / 40, options.directTerms() / 40,
                logLower, logWanted, false);
        return LogMath.logAdd(logPair, miss + logDp);
    }

    /**
     * How far above the pair's larger count (in standard deviations of their difference) R_v keeps the other counts: their chance
     * to come near is then about 1e-9, and what it adds to R_v's bound far less (at n = 1e4 on the issue hull, 2.2 standard
     * deviations apart in G, it added 1.3e-5 relative).
     */
    static final double APART = 6;

    /**
     * The cut K of {@link #regions}: the largest in [0, n - 1] whose R_v keeps every other category {@link #APART} standard deviations above the
     * pair's larger moved count (by bisection; the moved counts fall as K grows), 0 where even K = 0 does not.
     */
    static long cut(long n, double[] q, double[] v, int[] pair, double logBeta) {
        java.util.function.LongPredicate apart = K -> {
            long[] e = chernoffCounts(n - K, v, q, logBeta, false);
            double larger = Math.max(n * q[pair[0]] + e[pair[0]], n * q[pair[1]] + e[pair[1]]);
            double top = Math.max(q[pair[0]], q[pair[1]]);
            for (int j = 0; j < q.length; j++) {
                if (j != pair[0] && j != pair[1] && n * q[j] + e[j] - larger < APART * Math.sqrt(n * (q[j] + top))) {
                    return false;
                }
            }
            return true;
        };
        if (!apart.test(0)) {
            return 0;
        }
        long lo = 0;
        long hi = n - 1;
        while (lo < hi) {
            long mid = lo + (hi - lo + 1) / 2;
            if (apart.test(mid)) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * Chernoff counts of X_j ~ Binomial(fixed, p_j), p_j = (a_j - b_j)_+ (at most 1; c_j = 0 where p_j = 0): with {@code upper}
     * false the largest c_j with P(X_j < c_j) <= e^logBeta (a lower count: each e_j of {@link #regions}), with {@code upper} true
     * the least c_j with P(X_j > c_j) <= e^logBeta (an upper one).
     */
    static long[] chernoffCounts(long fixed, double[] a, double[] b, double logBeta, boolean upper) {
        long[] c = new long[a.length];
        for (int j = 0; j < a.length; j++) {
            double p = Math.min(1, a[j] - b[j]);
            if (p <= 0 || fixed < 1) {
                continue;
            }
            long lo = upper ? (long) Math.floor(fixed * p) : 0;
            long hi = upper ? fixed : (long) Math.floor(fixed * p);
            while (lo < hi) {
                if (upper) {
                    long mid = lo + (hi - lo) / 2;
                    if (ChernoffTail.logBinomialTail(fixed, p, mid + 1, true) <= logBeta) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                } else {
                    long mid = lo + (hi - lo + 1) / 2;
                    if (ChernoffTail.logBinomialTail(fixed, p, mid - 1, false) <= logBeta) {
                        lo = mid;
                    } else {
                        hi = mid - 1;
                    }
                }
            }
            c[j] = lo;
        }
        return c;
    }

    /**
     * ln of an upper bound on the chance that some X_j of {@link #chernoffCounts} misses its count c_j (falls below it, or with
     * {@code upper} passes it): the sum of the Chernoff tails.
     */
    static double chernoffMiss(long fixed, double[] a, double[] b, long[] c, boolean upper) {
        double s = Double.NEGATIVE_INFINITY;
        for (double x : chernoffMisses(fixed, a, b, c, upper)) {
            s = LogMath.logAdd(s, x);
        }
        return Math.min(0, s);
    }

    /** The Chernoff tails of {@link #chernoffMiss}, one a category (ln; -infinity where X_j cannot miss). */
    static double[] chernoffMisses(long fixed, double[] a, double[] b, long[] c, boolean upper) {
        double[] s = new double[a.length];
        for (int j = 0; j < a.length; j++) {
            double p = Math.min(1, a[j] - b[j]);
            s[j] = p > 0 && fixed >= 1 && (upper ? c[j] < fixed : c[j] > 0)
                    ? ChernoffTail.logBinomialTail(fixed, p, upper ? c[j] + 1 : c[j] - 1, upper) : Double.NEGATIVE_INFINITY;
        }
        return s;
    }

    /** The upper side's cells over {@code planes} (plus {@code logFixed}, a plane bounded otherwise: {@code directPlane}). */
    private static Upper cells(PairDivergence pair, double eps, PairSource source, List<PlaneCells.Plane> planes, double[][] tilt, Options side,
            double logScale, double logLower, Map<Long, double[]> cache, double logFixed, int[] directPlane) {
        PlaneCells cells = new PlaneCells(true, pair, eps, source, planes, cache);
        // the tilts' evaluations (3 a plane, and the peak's where it was searched: a third entry of its row)
        cells.evaluations = 3 * (planes.size() + (directPlane != null ? 1 : 0)) + (int) Arrays.stream(tilt).mapToDouble(t -> t.length > 2 ? t[2] : 0).sum();
        cells.logFixed = logFixed;
        int perAxis = (int) Math.max(3, Math.min(16, Math.sqrt(side.maxEvaluations() / (8.0 * planes.size()))));
        return new Upper(cells.run(side, tilt, perAxis, logScale, logLower), cells.cellCount, cells.evaluations, directPlane);
    }

    /** The categories of the two smallest shares (or counts) of p, in the order of (value, index). */
    static int[] twoSmallest(double[] p) {
        int a = -1;
        int b = -1;
        for (int i = 0; i < p.length; i++) {
            if (a < 0 || p[i] < p[a]) {
                b = a;
                a = i;
            } else if (b < 0 || p[i] < p[b]) {
                b = i;
            }
        }
        return new int[] {a, b};
    }

    /** The index of the plane of the two smallest shares (in the order of (share, index)). */
    private static int smallestPlane(List<int[]> categories, double[] q) {
        Integer[] order = new Integer[q.length];
        for (int i = 0; i < q.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> q[x] != q[y] ? Double.compare(q[x], q[y]) : Integer.compare(x, y));
        int lo = Math.min(order[0], order[1]);
        int hi = Math.max(order[0], order[1]);
        for (int p = 0; p < categories.size(); p++) {
            int[] c = categories.get(p);
            if (Math.min(c[0], c[1]) == lo && Math.max(c[0], c[1]) == hi) {
                return p;
            }
        }
        throw new IllegalStateException("no plane of categories " + lo + " and " + hi);
    }

    private static double[][] dropRow(double[][] rows, int drop) {
        List<double[]> kept = new ArrayList<>(Arrays.asList(rows));
        kept.remove(drop);
        return kept.toArray(double[][]::new);
    }

    /** The evaluations of a batch of (ha, hb) points. */
    static double[][] evaluate(List<long[]> points, double eps, PairSource source) {
        long[] ha = new long[points.size()];
        long[] hb = new long[points.size()];
        for (int i = 0; i < ha.length; i++) {
            ha[i] = points.get(i)[0];
            hb[i] = points.get(i)[1];
        }
        return ha.length == 0 ? new double[0][] : source.log(ha, hb, eps);
    }
}
