package org.privacybounds.quantized;

import java.util.Arrays;

import org.apache.commons.numbers.combinatorics.LogBinomialCoefficient;
import org.privacybounds.smoothed.Direction;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;
import org.privacybounds.validation.Require;

/**
 * One step of SGD on b-bit quantized scalar gradients without added noise (Liu, Wang and Xia, "Smoothed Differential Privacy", Section 6,
 * Figure 2 right): sample T of the n records without replacement and release the mean of their
 * codes put back on the code grid (or the exact sum). Its privacy profile
 * {@code delta_eps(x) = max over neighbours x' of max(d(x, x'), d(x', x))} is computed exactly,
 * over every replace-one neighbour: every code a present in x changed to every code b of the grid.
 *
 * <p>Per code a, with y = x minus one record of code a and theta = T/n (a record of code a is in the batch with probability theta):
 * {@code P_x(s) = (1 - theta) Pr[S_y^(T) = s] + theta Pr[S_y^(T-1) = s - a]}, and the neighbour
 * x' = y + {b} has the same form with b in place of a. The two laws of y come from
 * {@link LeaveOneOut}; per code a the T-1 level is summed over every window of outputs once, so
 * each neighbour costs one pass over the outputs, for all eps together (each output's likelihood
 * ratio is bucketed against the sorted thresholds e^eps).
 *
 * <p>Certificate: every probability is a sum of products of non-negative numbers, with relative
 * error at most {@code (2n + 2L + 3T + 16) u} (L the length of a level, u = 2^-53); the error of a
 * hockey-stick value is at most twice that times the mass {@code sum (P + e^eps P')} of its
 * positive (or within-tolerance) terms, which also covers forming it as a difference of those two
 * sums; the reported bound is the larger of the maximiser's error and the gap to the largest
 * certified upper value of any other pair.
 *
 * <p>Example:
 * <pre>{@code
 * SamplingAverageMechanism m = new SamplingAverageMechanism(new CodeGrid(8), 7, OutputRounding.ROUND);
 * int[] h = DatabaseSampler.histogram(new QuantizedDistribution[] {QuantizedDistribution.gaussian(0, 0.12, 8)}, new int[] {49}, 42L);
 * SamplingAverageMechanism.Value v = m.profile(h, new double[] {1.0})[0];   // exact delta_1(x) of one SGD step
 * }</pre>
 */
public final class SamplingAverageMechanism {
    private static final double U = 0x1p-53;
    /** Largest log C(n, T): the smallest sample-sum probability stays above 1e-280. */
    private static final double MAX_LOG_SUBSETS = 640;

    private final CodeGrid grid;
    private final int sampleSize;
    private final OutputRounding rounding;
    private final long outMin;
    private final int outputs;
    private final int[] outputOf; // output index of the code sum s, at s - T * grid.min()
    private final int[] blockLo; // the first code sum (minus T * grid.min()) of each output
    private final int[] blockLen; // the number of code sums of each output

    public SamplingAverageMechanism(CodeGrid grid, int sampleSize, OutputRounding rounding) {
        checkBatchSize(grid, sampleSize);
        this.grid = grid;
        this.sampleSize = sampleSize;
        this.rounding = rounding;
        long sMin = (long) sampleSize * grid.min();
        long sMax = (long) sampleSize * grid.max();
        this.outMin = rounding.output(sMin, sampleSize);
        this.outputs = (int) (rounding.output(sMax, sampleSize) - outMin + 1);
        this.outputOf = new int[(int) (sMax - sMin + 1)];
        for (long s = sMin; s <= sMax; s++) {
            outputOf[(int) (s - sMin)] = (int) (rounding.output(s, sampleSize) - outMin);
        }
        this.blockLo = new int[outputs];
        this.blockLen = new int[outputs];
        for (int i = outputOf.length - 1; i >= 0; i--) {
            blockLo[outputOf[i]] = i;
            blockLen[outputOf[i]]++;
        }
    }

    public CodeGrid grid() {
        return grid;
    }

    public int sampleSize() {
        return sampleSize;
    }

    public OutputRounding rounding() {
        return rounding;
    }

    /** The number of distinct outputs. */
    public int outputs() {
        return outputs;
    }

    /** The released value of output index o. */
    public long outputValue(int o) {
        return outMin + o;
    }

    /** The worst case over all databases of n records: delta <= T/n for every eps (the changed record must be sampled). */
    public double dpDeltaBound(int n) {
        return (double) sampleSize / n;
    }

    /** The profile of one database at each eps, with its worst and its heuristic neighbours. */
    public record Value(double epsilon, double delta, double absoluteError, int worstFrom, int worstTo, Direction direction,
            double heuristicDelta, int heuristicFrom, int heuristicTo) {
        public double logDelta() {
            return Math.log(delta);
        }

        /** Whether the paper's heuristic neighbours attain the maximum (within the certified error). */
        public boolean heuristicTight() {
            return heuristicDelta >= delta - 2 * absoluteError;
        }

        /** The certified error relative to delta. */
        public double relativeError() {
            return delta > 0 ? absoluteError / delta : 0;
        }
    }

    /** Checks a histogram over the grid (entry c - grid.min()) and returns n. */
    public int checkHistogram(int[] h) {
        if (h.length != grid.size()) {
            throw new IllegalArgumentException("histogram over " + h.length + " codes, grid has " + grid.size());
        }
        long n = 0;
        for (int c : h) {
            if (c < 0) {
                throw new IllegalArgumentException("negative count");
            }
            n += c;
        }
        checkSizes(grid, sampleSize, n);
        return (int) n;
    }

    private static void checkBatchSize(CodeGrid grid, int sampleSize) {
        if (sampleSize < 1) {
            throw new BadInputException(Parameter.SAMPLE_SIZE, sampleSize, "must be >= 1");
        }
        if ((long) sampleSize * (grid.size() - 1) + 1 > 50_000_000L) {
            throw new BadInputException(Parameter.SAMPLE_SIZE, sampleSize, "T * 2^bits must stay below 5e7 (" + grid.bits() + " bits)");
        }
    }

    /**
     * Whether databases of n records and batches of T fit the exact method (without building the
     * mechanism's tables): 1 <= T <= n <= 1e6, C(n, T) < e^640, T = n only up to n = 900.
     */
    public static void checkSizes(CodeGrid grid, int sampleSize, long n) {
        checkBatchSize(grid, sampleSize);
        if (n < 1 || n > 1_000_000) {
            throw new BadInputException(Parameter.N, n, "the database must have 1..1000000 records");
        }
        if (sampleSize > n) {
            throw new BadInputException(Parameter.SAMPLE_SIZE, sampleSize, "T must be <= n = " + n);
        }
        if (sampleSize < n && logBinomial((int) n, sampleSize) > MAX_LOG_SUBSETS) {
            throw new BadInputException(Parameter.SAMPLE_SIZE, sampleSize, "C(n, T) above e^" + (int) MAX_LOG_SUBSETS
                    + " at n = " + n + ": the exact method's probabilities would leave double range");
        }
        if (sampleSize == n && n > 900) {
            throw new BadInputException(Parameter.SAMPLE_SIZE, sampleSize, "T = n is supported up to n = 900");
        }
    }

    /**
     * The exact law of the released value for one database: entry o is the probability of
     * {@link #outputValue(int) outputValue(o)}.
     */
    public double[] outputLaw(int[] histogram) {
        int n = checkHistogram(histogram);
        int[][] cc = present(histogram);
        double rho = sampleSize < n ? (double) sampleSize / (n - sampleSize) : 1.0;
        LeaveOneOut poly = new LeaveOneOut(cc[0], cc[1], sampleSize, rho);
        double[] level = poly.full()[sampleSize];
        double w = 1 / sum(level);
        int off = (int) (poly.base(sampleSize) - (long) sampleSize * grid.min());
        double[] law = new double[outputs];
        for (int i = 0; i < level.length; i++) {
            law[outputOf[off + i]] += w * level[i];
        }
        return law;
    }

    /** The distinct codes present, ascending, and their counts. */
    private int[][] present(int[] histogram) {
        int m = 0;
        for (int c : histogram) {
            m += c > 0 ? 1 : 0;
        }
        int[] codes = new int[m];
        int[] counts = new int[m];
        for (int i = 0, j = 0; i < histogram.length; i++) {
            if (histogram[i] > 0) {
                codes[j] = grid.min() + i;
                counts[j++] = histogram[i];
            }
        }
        return new int[][] {codes, counts};
    }

    /** Which neighbours the maximum runs over. */
    public enum Neighbors {
        /** Every code a present changed to every code b of the grid (the definition). */
        ALL,
        /** Only the paper's two: the smallest code present to the grid maximum, the largest to the grid minimum. */
        HEURISTIC
    }

    /** delta_eps(x) for every eps of {@code eps}, exact over all neighbours, with certificate. */
    public Value[] profile(int[] histogram, double[] eps) {
        return profile(histogram, eps, Neighbors.ALL);
    }

    /**
     * delta_eps(x) for every eps, exact and certified, maximised over {@code neighbors} (the two
     * heuristic neighbours are always evaluated, so their value is reported beside the maximum).
     */
    public Value[] profile(int[] histogram, double[] eps, Neighbors neighbors) {
        int n = checkHistogram(histogram);
        int k = eps.length;
        Integer[] order = new Integer[k];
        for (int e = 0; e < k; e++) {
            Require.finiteNonNegative(Parameter.EPS, eps[e]);
            order[e] = e;
        }
        Arrays.sort(order, (x, y) -> Double.compare(eps[x], eps[y]));
        Scan scan = new Scan(n, k);
        for (int e = 0; e < k; e++) {
            scan.c[e] = Math.exp(eps[order[e]]);
        }
        int[][] cc = present(histogram);
        int[] codes = cc[0];
        int m = codes.length;
        double rho = sampleSize < n ? (double) sampleSize / (n - sampleSize) : 1.0;
        LeaveOneOut loo = new LeaveOneOut(codes, cc[1], sampleSize, rho);
        scan.loo = loo;
        scan.lowCode = codes[0];
        scan.highCode = codes[m - 1];
        boolean[] heuristicLeaves = new boolean[m];
        heuristicLeaves[0] = true;
        heuristicLeaves[m - 1] = true;
        scan.heuristicPass = true;
        loo.run(heuristicLeaves, (j, levels) -> scan.leaf(codes[j], levels));
        if (neighbors == Neighbors.ALL) {
            scan.heuristicPass = false;
            loo.run((j, levels) -> scan.leaf(codes[j], levels));
        }
        Value[] out = new Value[k];
        for (int e = 0; e < k; e++) {
            int i = order[e];
            double err = Math.max(scan.bestErr[e], scan.upper[e] - scan.best[e]);
            out[i] = new Value(eps[i], Math.max(scan.best[e], 0), err, scan.bestFrom[e], scan.bestTo[e], scan.bestDir[e],
                    Math.max(scan.heur[e], 0), scan.heurFrom[e], scan.heurTo[e]);
        }
        return out;
    }

    /** The state of one profile computation (eps in increasing order). */
    private final class Scan {
        final int n;
        final int k;
        final double theta;
        final double[] c;
        final double[] best;
        final double[] bestErr;
        final double[] upper; // largest certified upper value of any evaluated pair
        final int[] bestFrom;
        final int[] bestTo;
        final Direction[] bestDir;
        final double[] heur;
        final int[] heurFrom;
        final int[] heurTo;
        final double[] base = new double[outputs];
        final double[] px = new double[outputs];
        final double[] pb = new double[outputs];
        final double[] buckets;
        LeaveOneOut loo;
        int lowCode;
        int highCode;
        boolean heuristicPass;
        // per leaf
        double[] padded;
        double[] windowT;
        double[] windowT1;
        int base1;
        int len1;
        double w1;
        double rel;
        int lo;
        int hi;

        Scan(int n, int k) {
            this.n = n;
            this.k = k;
            this.theta = (double) sampleSize / n;
            c = new double[k];
            buckets = new double[8 * (k + 1)];
            best = filled(k, -1);
            bestErr = new double[k];
            upper = filled(k, 0);
            bestFrom = new int[k];
            bestTo = new int[k];
            bestDir = new Direction[k];
            heur = filled(k, -1);
            heurFrom = new int[k];
            heurTo = new int[k];
        }

        void leaf(int a, double[][] levels) {
            int t = sampleSize;
            boolean isLow = a == lowCode;
            boolean isHigh = a == highCode;
            double[] levelT = t <= n - 1 ? levels[t] : null;
            double[] level1 = levels[t - 1];
            len1 = level1.length;
            base1 = (int) (loo.base(t - 1) - (long) t * grid.min()); // offset of level T-1 entry 0 in outputOf
            // every probability: products and sums of non-negative numbers (see the class comment)
            rel = (2.0 * n + 2.0 * Math.max(len1, levelT == null ? 0 : levelT.length) + 3.0 * t + 16) * U;
            Arrays.fill(base, 0);
            if (levelT != null && theta < 1) {
                double w = (1 - theta) / sum(levelT);
                int off = (int) (loo.base(t) - (long) t * grid.min());
                for (int i = 0; i < levelT.length; i++) {
                    base[outputOf[off + i]] += w * levelT[i];
                }
            }
            w1 = theta / sum(level1);
            // level T-1 padded with T zeros each side, and its sums over every window of T and T-1 entries
            padded = new double[len1 + 2 * t];
            System.arraycopy(level1, 0, padded, t, len1);
            windowT = windows(padded, t);
            windowT1 = t > 1 ? windows(padded, t - 1) : null;
            int[] ax = mix(a, px);
            int baseLo = Integer.MAX_VALUE;
            int baseHi = -1;
            for (int o = 0; o < outputs; o++) {
                if (base[o] != 0) {
                    baseLo = Math.min(baseLo, o);
                    baseHi = Math.max(baseHi, o);
                }
            }
            for (int b = grid.min(); b <= grid.max(); b++) {
                if (b == a) {
                    continue;
                }
                boolean heuristic = (isLow && b == grid.max()) || (isHigh && b == grid.min());
                if (heuristicPass != heuristic) {
                    continue;
                }
                int[] bx = mix(b, pb);
                lo = Math.min(Math.min(ax[0], bx[0]), baseLo);
                hi = Math.max(Math.max(ax[1], bx[1]), baseHi);
                pair(a, b, heuristic);
                Arrays.fill(pb, 0);
            }
            Arrays.fill(px, 0);
        }

        /** out = law of the output of y + {b}: base + theta * (level T-1 shifted by b, grouped by output). */
        private int[] mix(int b, double[] out) {
            System.arraycopy(base, 0, out, 0, outputs);
            int first = outputOf[base1 + b];
            int last = outputOf[base1 + b + len1 - 1];
            for (int o = first; o <= last; o++) {
                int lo = blockLo[o] - base1 - b + sampleSize; // index in padded
                int len = blockLen[o];
                double g;
                if (len == sampleSize) {
                    g = windowT[lo];
                } else if (len == sampleSize - 1) {
                    g = windowT1[lo];
                } else {
                    g = 0;
                    for (int i = Math.max(lo, 0); i < Math.min(lo + len, padded.length); i++) {
                        g += padded[i];
                    }
                }
                out[o] += w1 * g;
            }
            return new int[] {first, last};
        }

        /**
         * Both directions of one pair at every eps in one pass over the outputs: each output's
         * likelihood ratio exceeds a prefix of the (increasing) thresholds e^eps, so its masses
         * are added to the bucket of that prefix length, and d_eps = sum over buckets beyond eps of
         * (P - e^eps Q). Terms within the error tolerance of the threshold count in the error mass.
         */
        private void pair(int a, int b, boolean heuristic) {
            double tol = 2 * rel;
            double up = 1 + tol;
            double down = 1 - tol;
            Arrays.fill(buckets, 0);
            double c0 = c[0] * down;
            for (int o = lo; o <= hi; o++) {
                double p = px[o];
                double q = pb[o];
                if (c0 * q >= p * up && c0 * p >= q * up) {
                    continue; // below every threshold in both directions, even with the tolerance: bucket 0, never used
                }
                bucket(p, q, up, down, 0);
                bucket(q, p, up, down, 4 * (k + 1));
            }
            for (int dir = 0; dir < 2; dir++) {
                int off = dir * 4 * (k + 1);
                double sp = 0;
                double sq = 0;
                double mp = 0;
                double mq = 0;
                for (int e = k - 1; e >= 0; e--) {
                    int j = off + 4 * (e + 1);
                    sp += buckets[j];
                    sq += buckets[j + 1];
                    mp += buckets[j + 2];
                    mq += buckets[j + 3];
                    double d = Math.max(0, sp - c[e] * sq);
                    double err = tol * (mp + c[e] * mq) + 1e-300;
                    upper[e] = Math.max(upper[e], d + err);
                    if (d > best[e]) {
                        best[e] = d;
                        bestErr[e] = err;
                        bestFrom[e] = a;
                        bestTo[e] = b;
                        bestDir[e] = dir == 0 ? Direction.X_TO_NEIGHBOR : Direction.NEIGHBOR_TO_X;
                    }
                    if (heuristic && d > heur[e]) {
                        heur[e] = d;
                        heurFrom[e] = a;
                        heurTo[e] = b;
                    }
                }
            }
        }

        /** Adds the output (p, q) to the bucket of the number of thresholds p/q exceeds (and, for the error mass, nearly exceeds). */
        private void bucket(double p, double q, double up, double down, int off) {
            int j = 0;
            while (j < k && c[j] * q < p) {
                j++;
            }
            int jm = j;
            while (jm < k && c[jm] * q * down < p * up) {
                jm++;
            }
            buckets[off + 4 * j] += p;
            buckets[off + 4 * j + 1] += q;
            buckets[off + 4 * jm + 2] += p;
            buckets[off + 4 * jm + 3] += q;
        }
    }

    private static double[] filled(int k, double v) {
        double[] a = new double[k];
        Arrays.fill(a, v);
        return a;
    }

    /** Sums of every run of {@code w} consecutive entries: out[j] = v[j] + ... + v[j + w - 1] (positive terms). */
    private static double[] windows(double[] v, int w) {
        double[] out = new double[v.length - w + 1];
        for (int j = 0; j < out.length; j++) {
            double s = 0;
            for (int i = j; i < j + w; i++) {
                s += v[i];
            }
            out[j] = s;
        }
        return out;
    }

    private static double sum(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s;
    }

    static double logBinomial(int n, int k) {
        return LogBinomialCoefficient.value(n, k);
    }
}
