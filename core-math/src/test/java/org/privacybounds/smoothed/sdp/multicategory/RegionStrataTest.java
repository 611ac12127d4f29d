package org.privacybounds.smoothed.sdp.multicategory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** The levels of a region's extra count ({@link RegionStrata}) against the exact law of a sum of binomials. */
class RegionStrataTest {
    private static final MathContext MC = new MathContext(60);

    /** P(E = e) for e = 0..top, E the sum of independent Binomial(n_i, p_i), in exact decimal arithmetic (p_i as given). */
    private static BigDecimal[] exactPmf(long[] n, double[] p, int top) {
        BigDecimal[] sum = new BigDecimal[top + 1];
        Arrays.fill(sum, BigDecimal.ZERO);
        sum[0] = BigDecimal.ONE;
        for (int i = 0; i < n.length; i++) {
            BigDecimal q = new BigDecimal(p[i]);
            BigDecimal[] pmf = new BigDecimal[top + 1];
            BigInteger choose = BigInteger.ONE;
            for (int k = 0; k <= top; k++) {
                if (k > 0) {
                    choose = choose.multiply(BigInteger.valueOf(n[i] - k + 1)).divide(BigInteger.valueOf(k));
                }
                pmf[k] = k > n[i] ? BigDecimal.ZERO
                        : new BigDecimal(choose).multiply(q.pow(k, MC), MC).multiply(BigDecimal.ONE.subtract(q).pow((int) (n[i] - k), MC), MC);
            }
            BigDecimal[] next = new BigDecimal[top + 1];
            for (int t = 0; t <= top; t++) {
                BigDecimal acc = BigDecimal.ZERO;
                for (int k = 0; k <= t; k++) {
                    acc = acc.add(sum[t - k].multiply(pmf[k], MC), MC);
                }
                next[t] = acc;
            }
            sum = next;
        }
        return sum;
    }

    /** ln P(E < e) for e = 0..top + 1 from the exact pmf. */
    private static double[] exactLogCdf(BigDecimal[] pmf) {
        double[] out = new double[pmf.length + 1];
        BigDecimal acc = BigDecimal.ZERO;
        out[0] = Double.NEGATIVE_INFINITY;
        for (int e = 1; e <= pmf.length; e++) {
            acc = acc.add(pmf[e - 1], MC);
            out[e] = Math.log(acc.doubleValue());
        }
        return out;
    }

    /**
     * The convolved CDF lies within 1e-8 relative above the exact one, and the Chernoff bound lies above it, for sums of one to
     * three binomials (means 2 to 40).
     */
    @Test
    void theConvolvedCdfAndTheChernoffBoundLieAboveTheExactCdf() {
        long[][] ns = {{60}, {200, 90}, {400, 150, 1000}, {30, 30}};
        double[][] ps = {{0.05}, {0.1, 0.2}, {0.03, 0.07, 0.011}, {0.5, 0.9}};
        for (int c = 0; c < ns.length; c++) {
            double mean = 0;
            for (int i = 0; i < ns[c].length; i++) {
                mean += ns[c][i] * ps[c][i];
            }
            int top = (int) Math.floor(mean);
            double[] exact = exactLogCdf(exactPmf(ns[c], ps[c], top));
            double[] conv = RegionStrata.logCdf(ns[c], ps[c], top);
            for (int e = 1; e <= top; e++) {
                String what = Arrays.toString(ns[c]) + " " + Arrays.toString(ps[c]) + " e " + e;
                assertTrue(conv[e] >= exact[e], what + ": " + conv[e] + " vs " + exact[e]);
                assertTrue(conv[e] - exact[e] <= 1e-8, what + ": " + conv[e] + " vs " + exact[e]);
                double chernoff = RegionStrata.logBelow(ns[c], ps[c], e);
                assertTrue(chernoff >= exact[e] - 1e-12, what + ": Chernoff " + chernoff + " vs " + exact[e]);
            }
            assertEquals(Double.NEGATIVE_INFINITY, RegionStrata.logBelow(ns[c], ps[c], 0), 0);
            assertEquals(0, RegionStrata.logBelow(ns[c], ps[c], top + 2), 0);
        }
    }

    /**
     * The levels' bound: for any non-increasing f with values in [0, 1] (1 standing for the DP delta),
     * {@code E[f(E)] <= c_0 + sum_k w_k f(e_k)} under E's exact law, the weights non-negative and summing to 1, the levels
     * increasing from e0, and c_k non-decreasing; 2,000 random f per sum, each f a random staircase.
     */
    @Test
    void theLevelsBoundEveryNonIncreasingFunctionsExpectation() {
        long[][] ns = {{120}, {300, 80}, {2000, 500}};
        double[][] ps = {{0.1}, {0.05, 0.2}, {0.004, 0.01}};
        long[] e0s = {1, 0, 3};
        SplittableRandom random = new SplittableRandom(5);
        for (int c = 0; c < ns.length; c++) {
            RegionStrata.Levels levels = RegionStrata.levels(2, ns[c], ps[c], e0s[c], Double.NEGATIVE_INFINITY);
            assertNotNull(levels);
            long[] e = levels.levels();
            double[] logBelow = levels.logBelow();
            assertEquals(e0s[c], e[0]);
            double total = 0;
            for (int k = 0; k < e.length; k++) {
                assertTrue(k == 0 || e[k] > e[k - 1] && logBelow[k] >= logBelow[k - 1], Arrays.toString(e) + " " + Arrays.toString(logBelow));
                double w = Math.exp(levels.logWeight(k));
                assertTrue(w >= 0 && w <= 1, "weight " + k + ": " + w);
                total += w;
            }
            assertEquals(1, total, 1e-12);
            int top = (int) (3 * e[e.length - 1] + 40);
            double[] pmf = Arrays.stream(exactPmf(ns[c], ps[c], top)).mapToDouble(BigDecimal::doubleValue).toArray();
            double beyond = 1 - Arrays.stream(pmf).sum();
            for (int trial = 0; trial < 2000; trial++) {
                // a random non-increasing staircase: f(0) = 1, falling at random points
                double[] f = new double[top + 2];
                double level = 1;
                for (int x = 0; x < f.length; x++) {
                    if (random.nextDouble() < 0.2) {
                        level *= random.nextDouble();
                    }
                    f[x] = level;
                }
                double expectation = beyond * f[top + 1];
                for (int x = 0; x <= top; x++) {
                    expectation += pmf[x] * f[x];
                }
                double bound = Math.exp(logBelow[0]);
                for (int k = 0; k < e.length; k++) {
                    bound += Math.exp(levels.logWeight(k)) * f[(int) e[k]];
                }
                assertTrue(expectation <= bound * (1 + 1e-12) + 1e-300, "sum " + c + " trial " + trial + ": " + expectation + " vs " + bound);
            }
        }
    }
}
