package org.privacybounds.smoothed.sdp.twocategory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.privacybounds.exact.ExactMath;
import org.privacybounds.numeric.LogMath;

/** The block sums visit groups of blocks, the end scan's convolution shares passes; neither changes what it computes. */
class BlockBoundsTest {

    /** The block sum as it was: every block within the cut on its own. */
    static double perBlock(int n, double muA, double muB, double var, double[] blocks, double floorLog) {
        double globalMax = Double.NEGATIVE_INFINITY;
        for (double v : blocks) {
            globalMax = Math.max(globalMax, v);
        }
        if (globalMax == Double.NEGATIVE_INFINITY) {
            return globalMax;
        }
        double drop = Math.max(60, globalMax - floorLog + 40 + Math.log(blocks.length));
        double tcut = drop / 3 + Math.sqrt(drop * drop / 9 + 2 * drop * var);
        int from = (int) Math.max(0, Math.floor((muA - tcut) / BlockBounds.BLOCK) - 1);
        int to = (int) Math.min(blocks.length - 1, Math.ceil((muB + tcut) / BlockBounds.BLOCK) + 1);
        double mid = Double.NEGATIVE_INFINITY;
        double tails = Double.NEGATIVE_INFINITY;
        for (int blk = from; blk <= to; blk++) {
            if (blocks[blk] == Double.NEGATIVE_INFINITY) {
                continue;
            }
            double start = (double) blk * BlockBounds.BLOCK;
            double end = Math.min(n, start + BlockBounds.BLOCK - 1);
            if (end < muA) {
                double t = muA - end;
                tails = LogMath.logAdd(tails, -t * t / (2 * (var + t / 3)) + blocks[blk]);
            } else if (start > muB) {
                double t = start - muB;
                tails = LogMath.logAdd(tails, -t * t / (2 * (var + t / 3)) + blocks[blk]);
            } else {
                mid = Math.max(mid, blocks[blk]);
            }
        }
        if (from > 0 || to < blocks.length - 1) {
            tails = LogMath.logAdd(tails, Math.log(blocks.length) - drop + globalMax);
        }
        return LogMath.logAdd(mid, tails);
    }

    @Test
    void groupedBlockSumBoundsThePerBlockSumAndAddsOnlyWhatIsNegligible() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int c = 0; c < 300; c++) {
            int n = 1000 + rnd.nextInt(c < 200 ? 2_000_000 : 200_000_000);
            int blocksCount = n / BlockBounds.BLOCK + 1;
            double[] blocks = new double[blocksCount];
            // like ln delta: lowest near n/2, rising towards both ends, some blocks -inf
            double depth = 10 + rnd.nextDouble() * 3000;
            for (int b = 0; b < blocksCount; b++) {
                double x = Math.abs((b + 0.5) * BlockBounds.BLOCK / n - 0.5) * 2;
                blocks[b] = rnd.nextInt(50) == 0 ? Double.NEGATIVE_INFINITY : -depth * (1 - x) * (1 - x) + rnd.nextDouble();
            }
            double muA = rnd.nextDouble() * n;
            double muB = Math.min(n, muA + (rnd.nextBoolean() ? 0 : rnd.nextDouble() * n / 10));
            double var = n * (0.01 + 0.24 * rnd.nextDouble());
            double floor = -depth * rnd.nextDouble();
            double want = perBlock(n, muA, muB, var, blocks, floor);
            double got = BlockBounds.blockSum(n, muA, muB, var, new BlockBounds.Summary(blocks, BlockBounds.BLOCK), floor);
            String where = "case " + c + " n=" + n;
            assertTrue(got >= want - 1e-12 * Math.max(1, Math.abs(want)), where + ": " + got + " < " + want);
            assertTrue(got <= LogMath.logAdd(want, floor - 39) + 1e-12 * Math.max(1, Math.abs(want)), where + ": " + got + " vs " + want);
        }
    }

    @Test
    void summaryMaxOverAnyRangeIsThePlainMax() {
        SplittableRandom rnd = new SplittableRandom(3);
        double[] v = new double[1000];
        for (int i = 0; i < v.length; i++) {
            v[i] = rnd.nextInt(10) == 0 ? Double.NEGATIVE_INFINITY : rnd.nextGaussian();
        }
        BlockBounds.Summary s = new BlockBounds.Summary(v, BlockBounds.BLOCK);
        for (int c = 0; c < 500; c++) {
            int a = rnd.nextInt(v.length);
            int b = a + rnd.nextInt(v.length - a);
            double m = Double.NEGATIVE_INFINITY;
            for (int i = a; i <= b; i++) {
                m = Math.max(m, v[i]);
            }
            assertEquals(m, s.max(a, b), 0);
        }
    }

    @Test
    void convolutionHasTheDigitsOfOneLoopPerShift() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int k : new int[] {0, 1, 7, 8, 9, 63, 2048, 2051}) {
            int w = 1 + rnd.nextInt(5000);
            double[] b = spread(rnd, w, 20);
            double[] d = spread(rnd, w + k, 20);
            double[] want = new double[k + 1];
            for (int s = 0; s <= k; s++) {
                double acc = 0;
                for (int i = 0; i < w; i++) {
                    acc += b[i] * d[i + s];
                }
                want[s] = acc;
            }
            assertArrayEquals(want, EndScan.convolve(b, d, k), 0, "K = " + k);
        }
    }

    /** len positive values spread over {@code nats} nats (log-uniform). */
    private static double[] spread(SplittableRandom rnd, int len, double nats) {
        double[] v = new double[len];
        for (int i = 0; i < len; i++) {
            v[i] = Math.exp(-nats * rnd.nextDouble());
        }
        return v;
    }

    /** A widened window's C(s) from the narrower window's C(s) plus its new values: the full convolution to a few ulps. */
    @Test
    void widenedConvolutionEqualsTheFullOne() {
        SplittableRandom rnd = new SplittableRandom(12);
        for (int k : new int[] {0, 1, 9, 2048}) {
            for (int trial = 0; trial < 6; trial++) {
                int w = 2 + rnd.nextInt(6000);
                double[] b = spread(rnd, w, 30);
                double[] d = spread(rnd, w + k, 30);
                // the inner window [from, to]: trial 0 widens on the left only, trial 1 on the right only
                int from = trial == 1 ? 0 : 1 + rnd.nextInt(w - 1);
                int to = trial == 0 ? w - 1 : from + rnd.nextInt(w - from);
                double[] inner = EndScan.convolve(Arrays.copyOfRange(b, from, to + 1), Arrays.copyOfRange(d, from, to + 1 + k), k);
                // the inner values in other units (as when the window's largest delta grows): rescaled back
                double unit = Math.exp(-7.5);
                for (int s = 0; s <= k; s++) {
                    inner[s] /= unit;
                }
                double[] got = EndScan.widen(inner, unit, b, d, k, from, to);
                double[] want = EndScan.convolve(b, d, k);
                for (int s = 0; s <= k; s++) {
                    assertEquals(want[s], got[s], 1e-13 * want[s], "K = " + k + " window " + w + " inner [" + from + ", " + to + "] s = " + s);
                }
            }
        }
    }

    @Test
    void hypergeometricBoundOverARangeHasTheValuesOfEachHToItsMargins() {
        int[][] cases = {{1, 1}, {1, 0}, {10, 10}, {10, 7}, {2000, 1996}, {5000, 4990}, {300, 150}, {100_000_000, 99_800_000}};
        for (int[] nt : cases) {
            int n = nt[0];
            for (double eps : new double[] {0, 0.5, 7}) {
                HypergeometricBound ub = new HypergeometricBound(n, nt[1], eps);
                int[][] ranges = n < 6000 ? new int[][] {{0, n}} : new int[][] {{0, 300}, {n / 2 - 200, n / 2 + 200}, {94_441_893, 94_442_400}, {n - 300, n}};
                for (int[] r : ranges) {
                    double[] got = ub.logUpperRange(r[0], r[1]);
                    for (int h = r[0]; h <= r[1]; h++) {
                        // the range walks from one pmf to the next, logUpper(h) starts from log-binomials: the same bound up
                        // to the two paths' rounding margins (1e-12 of the log-binomials, which exceed the value)
                        double single = ub.logUpper(h);
                        assertEquals(single, got[h - r[0]], 1e-11 * Math.abs(single) + 1e-9, "n=" + n + " T=" + nt[1] + " eps=" + eps + " h=" + h);
                    }
                }
            }
        }
    }

    /**
     * The walked pmf of the hypergeometric bound (a logarithm per step from an anchor of log-binomials) bounds the exact
     * ln pmf from above, by no more than its rounding margins, along a path of 1,200 steps (two re-anchorings): exact values
     * from integer binomials and a 60-digit logarithm.
     */
    @Test
    void walkedHypergeometricPmfIsAnUpperBoundOfTheExactOne() {
        int n = 1_000_000;
        int lost = 2_000;
        HypergeometricBound hb = new HypergeometricBound(n, n - lost, 1);
        SplittableRandom rnd = new SplittableRandom(5);
        long[][] path = new long[1200][];
        int j = 780;
        for (int i = 0; i < path.length; i++) {
            j += rnd.nextInt(3) - 1; // the thresholds move by a step or two, either way
            path[i] = new long[] {400_000 + (i < 900 ? i : 1800 - i), j}; // k1 up, then back down
        }
        double[] walked = hb.logPmfUpAlong(path);
        BigInteger all = ExactMath.binomial(n, lost);
        for (int i = 0; i < path.length; i += 37) {
            int k1 = (int) path[i][0];
            int jj = (int) path[i][1];
            BigInteger num = ExactMath.binomial(k1, jj).multiply(ExactMath.binomial(n - k1, lost - jj));
            double exact = ExactMath.ln(ExactMath.ratio(num, all));
            assertTrue(exact <= walked[i], "step " + i + ": exact " + exact + " > walked " + walked[i]);
            assertTrue(walked[i] - exact < 1e-6, "step " + i + ": walked " + walked[i] + " is " + (walked[i] - exact) + " above the exact " + exact);
        }
    }
}
