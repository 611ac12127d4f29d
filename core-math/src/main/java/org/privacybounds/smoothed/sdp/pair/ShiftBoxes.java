package org.privacybounds.smoothed.sdp.pair;

import java.util.stream.IntStream;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

/**
 * Where one direction of a pair is its own largest neighbour, shown box by box: {@code A(h + e_s - e_d) <= A(h)}, A moving a
 * record from category s (the source, count u) to d (count v). The pair's four divergences at h are A(h), A(h + e_s - e_d)
 * and the other direction's two ({@link PairDirections}); where the other direction is shown below A and this holds, the pair
 * at h is A(h) itself, with no record moved.
 *
 * <p>A box of one source count u and destination counts [v0, v1]: A is non-increasing in both counts (monotonicity,
 * {@link PairDivergence}), so over the box {@code A(h + e_s - e_d) <= A(u + 1, v0 - 1)} and {@code A(h) >= A(u, v1)}; where the
 * first lies below the second (each moved by its error bound), the box is shown. One more record in the source lowers ln A
 * far more than one fewer in the destination raises it where the source's share is the smaller (n = 1e6, shares 0.08 and
 * 0.40, eps 0.5: by 1.6e-4 against 3e-6 to 4e-6 per record), so boxes up to about their ratio tall pass; they must be one
 * source count wide (the shift itself is one record). Along a column the boxes' ends are one lattice of evaluations
 * {@code A(u, v_k - 1)}: column u's box k needs {@code A(u + 1, v_k - 1)} and {@code A(u, v_(k+1) - 1)}, so each point serves
 * two columns. A box not shown adds its chance from above times the pair at its lower corner.
 */
final class ShiftBoxes {
    /** Box height against the measured ratio of the two counts' slopes: room for the slopes' change across the region. */
    static final double HEIGHT_SHARE = 0.85;
    /**
     * Relative tolerance of the lattice's sums: a box's comparison has room of about (1 - {@link #HEIGHT_SHARE}) of a source
     * record's effect (2e-5 at n = 1e6, eps 0.5), and each value carries its certified error; half the terms of full precision.
     */
    static final double TOLERANCE = 1e-8;
    /** Halvings of a box not shown before it counts in full. */
    static final int SPLITS = 4;

    private ShiftBoxes() {
    }

    /**
     * Box height (destination counts) for the region around {@code (u, v)}: {@link #HEIGHT_SHARE} of the ratio of ln A's fall per
     * source record to its rise per destination record removed there, at least 1; 0 where the source record does not lower A
     * more than the destination record raises it (no box can pass).
     */
    static int height(SamplingHistogramMechanism m, long n, int src, int dst, long u, long v, double eps) {
        double at = log(m, n, src, dst, u, v, eps)[0];
        double moreSource = at - log(m, n, src, dst, u + 1, v, eps)[0];
        double lessDestination = log(m, n, src, dst, u, v - 1, eps)[0] - at;
        if (!(moreSource > 2 * Math.max(0, lessDestination)) || !(moreSource > 1e-9)) {
            return 0;
        }
        return lessDestination <= 0 ? Integer.MAX_VALUE : (int) Math.max(1, Math.min(1 << 30, HEIGHT_SHARE * moreSource / lessDestination));
    }

    /** Lattice evaluations a box [u0, u1] x [v0, v1] takes at this height. */
    static double evaluations(long u0, long u1, long v0, long v1, int height) {
        return (u1 - u0 + 2.0) * (boxes(v0, v1, height) + 1);
    }

    /** Boxes of a column over [v0, v1] at this height (the last one shorter). */
    private static int boxes(long v0, long v1, int height) {
        return (int) Math.ceil((v1 - v0 + 1.0) / height);
    }

    /**
     * ln of the sum over the columns' boxes in [u0, u1] x [v0, v1] (source, destination counts, each at least 1, u1 + v1 < n)
     * not shown of their chance from above times the pair at their lower corner; -infinity where every box is shown.
     * (H_s, H_d) ~ Multinomial(n; ps, pd, rest).
     */
    static double logLeft(SamplingHistogramMechanism m, long n, int src, int dst, double ps, double pd, long u0, long u1, long v0, long v1,
            int height, double eps, double logDp) {
        int columns = (int) (u1 - u0 + 2);
        int boxes = boxes(v0, v1, height);
        // lattice[c][k] = {ln A, relative error} at (u0 + c, v0 + k height - 1), the last k at v1
        double[][][] lattice = IntStream.range(0, columns).parallel().mapToObj(c -> {
            double[][] col = new double[boxes + 1][];
            for (int k = 0; k <= boxes; k++) {
                col[k] = log(m, n, src, dst, u0 + c, end(v0, v1, height, k), eps);
            }
            return col;
        }).toArray(double[][][]::new);
        BinomialDistribution source = BinomialDistribution.of((int) n, ps);
        double[] left = IntStream.range(0, columns - 1).parallel().mapToDouble(c -> {
            long u = u0 + c;
            LogSumExp s = new LogSumExp();
            BinomialDistribution dest = BinomialDistribution.of((int) (n - u), pd / (1 - ps));
            for (int k = 0; k < boxes; k++) {
                long lo = v0 + (long) k * height;
                long hi = Math.min(v1, lo + height - 1);
                left(m, n, src, dst, u, lo, hi, lattice[c + 1][k], lattice[c][k + 1], SPLITS, eps, logDp, source, dest, s);
            }
            return s.log();
        }).toArray();
        LogSumExp total = new LogSumExp();
        for (double x : left) {
            total.add(x);
        }
        return total.log() + 1e-12;
    }

    /**
     * Adds what the box of column u over [lo, hi] leaves to {@code s}: nothing where {@code shifted} = A(u + 1, lo - 1) lies below
     * {@code own} = A(u, hi); else its halves (two evaluations more), down to {@code splits} times, and what is still not shown
     * at its chance from above times the pair at its lower corner.
     */
    private static void left(SamplingHistogramMechanism m, long n, int src, int dst, long u, long lo, long hi, double[] shifted, double[] own,
            int splits, double eps, double logDp, BinomialDistribution source, BinomialDistribution dest, LogSumExp s) {
        if (PairDirections.below(shifted, own)) {
            return;
        }
        if (splits > 0 && hi > lo) {
            long mid = (lo + hi + 1) / 2;
            left(m, n, src, dst, u, lo, mid - 1, shifted, log(m, n, src, dst, u, mid - 1, eps), splits - 1, eps, logDp, source, dest, s);
            left(m, n, src, dst, u, mid, hi, log(m, n, src, dst, u + 1, mid - 1, eps), own, splits - 1, eps, logDp, source, dest, s);
            return;
        }
        double pair = PairDirections.atLeast(m.pairProfile(histogram(n, src, dst, u, lo), 0, 1, eps));
        s.add(source.logProbability((int) u) + logInterval(dest, lo, hi) + Math.min(logDp, pair));
    }

    /** The destination count of lattice point k: one below box k's first count, the last one at v1. */
    private static long end(long v0, long v1, int height, int k) {
        return Math.min(v1, v0 + (long) k * height - 1);
    }

    private static double[] log(SamplingHistogramMechanism m, long n, int src, int dst, long u, long v, double eps) {
        return m.logHockeyStick(histogram(n, src, dst, u, v), src, dst, eps, TOLERANCE);
    }

    /** The pair's histogram (categories 0 and 1, the rest 2) with u records in src and v in dst. */
    private static long[] histogram(long n, int src, int dst, long u, long v) {
        long[] h = new long[3];
        h[src] = u;
        h[dst] = v;
        h[2] = n - u - v;
        return h;
    }

    /**
     * ln of an upper bound on {@code P(a0 <= H_a <= a1, b0 <= H_b <= b1)}, (H_a, H_b) ~ Multinomial(n; pa, pb, rest) (n within the
     * int range): the smaller of the two ways round of "one count's interval from its CDFs times the largest chance of the
     * other's given any value of the first in its interval".
     */
    static double logBox(long n, double pa, double pb, long a0, long a1, long b0, long b1) {
        a1 = Math.min(a1, n);
        b1 = Math.min(b1, n);
        if (a1 < a0 || b1 < b0) {
            return Double.NEGATIVE_INFINITY;
        }
        return Math.min(logThenGiven(n, pa, pb, a0, a1, b0, b1), logThenGiven(n, pb, pa, b0, b1, a0, a1));
    }

    /**
     * X's interval times the largest chance of Y's given x in it: Y given x is Binomial(n - x, py / (1 - px)), at most its chance
     * below y1 at x1 and above y0 at x0.
     */
    private static double logThenGiven(long n, double px, double py, long x0, long x1, long y0, long y1) {
        double q = py / (1 - px);
        double below = logInterval(BinomialDistribution.of((int) (n - x1), q), 0, Math.min(y1, n - x1));
        double above = y0 <= n - x0 ? logInterval(BinomialDistribution.of((int) (n - x0), q), y0, n - x0) : Double.NEGATIVE_INFINITY;
        return logInterval(BinomialDistribution.of((int) n, px), x0, x1) + Math.min(below, above);
    }

    /** ln of an upper bound on P(lo <= X <= hi): the CDFs' difference on the side of the mean, each moved out by 1e-12 relative. */
    private static double logInterval(BinomialDistribution x, long lo, long hi) {
        double mean = x.getMean();
        double p = lo > mean
                ? x.survivalProbability((int) lo - 1) * (1 + 1e-12) - x.survivalProbability((int) hi) * (1 - 1e-12)
                : x.cumulativeProbability((int) hi) * (1 + 1e-12) - x.cumulativeProbability((int) lo - 1) * (1 - 1e-12);
        return Math.log(Math.min(1, Math.max(p, Double.MIN_NORMAL)));
    }
}
