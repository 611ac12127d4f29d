package org.privacybounds.smoothed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.privacybounds.exact.ExactMath;
import org.privacybounds.exact.ExactSamplingProfile;
import org.privacybounds.validation.BadInputException;

class SamplingHistogramMechanismTest {
    private static final double EPS_FIG1 = Math.log(51.0 / 49.0);

    @ParameterizedTest(name = "m = {0}, {1}")
    @CsvSource({"2, WITHOUT_REPLACEMENT", "3, WITHOUT_REPLACEMENT", "4, WITHOUT_REPLACEMENT",
            "2, WITH_REPLACEMENT", "3, WITH_REPLACEMENT", "4, WITH_REPLACEMENT"})
    void fastPathAgreesWithExactRationalsOnRandomSmallCases(int m, Sampling sampling) {
        SplittableRandom rnd = new SplittableRandom(20261122L + 31L * m + sampling.ordinal());
        int cases = m == 4 ? 12 : 25;
        for (int c = 0; c < cases; c++) {
            int n = 2 + rnd.nextInt(m == 2 ? 60 : m == 3 ? 24 : 12);
            int[] h = randomHistogram(rnd, m, n);
            int t = rnd.nextInt(n + 1);
            double eps = rnd.nextInt(4) == 0 ? 0.0 : rnd.nextDouble() * 3;
            SamplingHistogramMechanism fast = SamplingHistogramMechanism.of(sampling, t);
            ProfileValue v = fast.profile(h, eps);
            BigDecimal exact = new ExactSamplingProfile(sampling, t).delta(h, eps);
            String where = Arrays.toString(h) + " T=" + t + " eps=" + eps;
            assertEquals(0, ExactMath.relativeError(v.logDelta(), exact), 1e-9, where);
            assertTrue(v.relativeErrorBound() <= 1e-9, where);
        }
    }

    @Test
    void everyHockeyStickDirectionAgreesWithExactRationals() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (Sampling s : Sampling.values()) {
            for (int c = 0; c < 40; c++) {
                int n = 3 + rnd.nextInt(30);
                int[] h = randomHistogram(rnd, 3, n);
                int t = rnd.nextInt(n + 1);
                double eps = rnd.nextDouble() * 2;
                for (int a = 0; a < 3; a++) {
                    if (h[a] == 0) {
                        continue;
                    }
                    int b = (a + 1 + rnd.nextInt(2)) % 3;
                    int[] hp = h.clone();
                    hp[a]--;
                    hp[b]++;
                    double[] fast = SamplingHistogramMechanism.of(s, t).logHockeyStick(h, a, b, eps);
                    BigDecimal exact = new ExactSamplingProfile(s, t).hockeyStick(h, hp, eps);
                    assertEquals(0, ExactMath.relativeError(fast[0], exact), 1e-9, s + " " + Arrays.toString(h) + " a=" + a + " b=" + b);
                }
            }
        }
    }

    @Test
    void allOneTypeDatabaseHasTheClosedForm() {
        // a database of one type: delta_eps(h = 0) = max(T/n, 1 - e^eps (n - T)/n) in closed form
        assertEquals(0.5, profile(new int[] {0, 100}, 50, 1.0).delta(), 1e-14);
        assertEquals(0.99, profile(new int[] {0, 100}, 99, 1.0).delta(), 1e-14);
        double closed = Math.max(30.0 / 40, 1 - Math.exp(0.1) * 10 / 40);
        assertEquals(closed, profile(new int[] {40, 0}, 30, 0.1).delta(), 1e-14);
    }

    @Test
    void deterministicWhenEveryRecordIsSampled() {
        // T = n: the output is the histogram itself, every neighbour differs: delta = 1
        for (double eps : new double[] {0, 1, 10}) {
            assertEquals(1.0, profile(new int[] {3, 4}, 7, eps).delta(), 1e-15);
            assertEquals(1.0, profile(new int[] {250, 249}, 499, eps).delta(), 1e-15);
        }
        // eta = 0.998 rounds up to T = n for every n < 500 (decimal arithmetic: 0.998 is not a double)
        assertEquals(499, SampleSize.fromEta(new BigDecimal("0.998"), 499, SampleSize.Rounding.CEIL));
        assertEquals(499, SampleSize.fromEta(new BigDecimal("0.998"), 500, SampleSize.Rounding.CEIL));
    }

    @Test
    void worstDatabaseAttainsTheDpDeltaTOverN() {
        // a category of one record (n = 2000, T = 1996): delta = T/n = 0.998, the DP delta, for every eps (the worst case that makes the mechanism only (eps, T/n)-DP)
        for (double eps : new double[] {0, EPS_FIG1, 2, 7}) {
            ProfileValue v = profile(new int[] {1, 1999}, 1996, eps);
            assertEquals(0.998, v.delta(), 1e-13);
        }
        SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 1996);
        assertEquals(0.998, Math.exp(m.logDpDelta(2000)), 1e-15);
        // with replacement: 1 - (1 - 1/n)^T, attained by a database missing a category
        SamplingHistogramMechanism w = SamplingHistogramMechanism.of(Sampling.WITH_REPLACEMENT, 5);
        double dp = 1 - Math.pow(1 - 1.0 / 10, 5);
        assertEquals(dp, Math.exp(w.logDpDelta(10)), 1e-15);
        assertEquals(dp, w.profile(new int[] {10, 0}, 0.7).delta(), 1e-13);
    }

    @Test
    void balancedElectionReferenceValue() {
        // n = 2000, h = 1000, T = 1996, eps = ln(51/49): the exact sum computed independently in 50-digit arithmetic (mpmath)
        ProfileValue v = profile(new int[] {1000, 1000}, 1996, EPS_FIG1);
        assertEquals(0.361877279068545, v.delta(), 1e-14);
        assertNotNull(v.worst());
    }

    @Test
    void largeElectionIsFastAndMatchesAnIndependentHighPrecisionValue() {
        // n = 1e6, h = 480000, 0.2 % lost (T = 998000), eps = ln(51/49). Reference: mpmath at
        // 50 digits, the literal hockey-stick sum over every output for all four neighbour
        // directions (scratch cross-check, quoted in the issue note).
        ProfileValue v = profile(new int[] {480000, 520000}, 998000, EPS_FIG1);
        assertEquals(REF_LOG10_1E6, v.log10Delta(), 1e-10);
        // n = 1e7, h = 4.6e6, T = 9,980,000: mpmath gives delta = 1.0323226256990932214e-5
        ProfileValue v7 = profile(new int[] {4_600_000, 5_400_000}, 9_980_000, EPS_FIG1);
        assertEquals(-4.9861845540034133971, v7.log10Delta(), 1e-10);
        // n = 1.5e8: must not underflow, and is far below 1/n
        ProfileValue big = profile(new int[] {74_216_154, 81_268_924}, 155_174_921, EPS_FIG1);
        assertTrue(big.log10Delta() < -8 && big.log10Delta() > -40, "log10 delta " + big.log10Delta());
        assertTrue(big.relativeErrorBound() < 1e-9);
    }

    /**
     * Three categories at n = 1e6 (0.2 % lost): one hockey-stick sum each way of a pair, against 50-digit sums over every
     * unsampled count (ua, ub) of the 2,001 x 2,001 plane (mpmath: log-gamma row starts, exact ratio steps, exact rho).
     */
    @ParameterizedTest(name = "a = {0}, b = {1}, eps = {2}")
    @CsvSource({"0, 1, 0.5, -27.3946674487988315287873392884", "1, 0, 0.5, -19.5283157357094010807657961403",
            "1, 0, 2, -103.27331685589155314514185731", "0, 1, 2, -405.390340413616513762680593925"})
    void threeCategoryHockeySticksAtOneMillionMatchFiftyDigitSums(int a, int b, double eps, String reference) {
        double[] v = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 998_000).logHockeyStick(new long[] {400_000, 80_000, 520_000}, a, b, eps);
        double err = Math.abs(Math.expm1(new BigDecimal(reference).subtract(new BigDecimal(v[0])).doubleValue()));
        assertTrue(err <= v[1], "relative error " + err + " > stated " + v[1]);
        assertTrue(err < 1e-13, "relative error " + err);
        // summed to 1e-8 relative only: fewer terms, and the stated error still holds
        double[] loose = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 998_000).logHockeyStick(new long[] {400_000, 80_000, 520_000}, a, b,
                eps, 1e-8);
        double looseErr = Math.abs(Math.expm1(new BigDecimal(reference).subtract(new BigDecimal(loose[0])).doubleValue()));
        assertTrue(looseErr <= loose[1] && loose[1] < 1e-7, "relative error " + looseErr + " against stated " + loose[1]);
        assertTrue(loose[2] < v[2], "terms " + loose[2] + " against " + v[2]);
    }

    /** mpmath, 50 digits: delta = 0.0046322109589243360567. */
    static final double REF_LOG10_1E6 = -2.3342116703059899003;

    /**
     * At national n and beyond, the log-pmfs' error grows with |ln delta|; the stated error bound must still cover
     * it. References: 40-digit sums over every neighbour pair (mpmath: log-gamma pmfs, exact likelihood ratios).
     */
    @ParameterizedTest(name = "n = {0}, h = {2}, eps = {3}")
    @CsvSource({"155485078, 155174108, 101474226, 0.5, -7787.922286501995421149419",
            "1000000000, 998000000, 550000000, 1, -207114.5880903216669844507",
            "2147483647, 2143188680, 1401447828, 0.5, -107370.3428037600610888753",
            "2147483647, 2143188680, 1932735282, 2, -261526.4755350208060724226"})
    void errorBoundHoldsAtNationalSizeAndBeyond(int n, int t, int h, double eps, String reference) {
        ProfileValue v = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t).profile(new int[] {h, n - h}, eps);
        double err = Math.abs(Math.expm1(new BigDecimal(reference).subtract(new BigDecimal(v.logDelta())).doubleValue()));
        assertTrue(err <= v.relativeErrorBound(), "relative error " + err + " > stated " + v.relativeErrorBound());
        // the allowance is not vacuous: within 100x of the measured error or the fixed 1e-11
        assertTrue(v.relativeErrorBound() <= Math.max(100 * err, 2e-11), "stated " + v.relativeErrorBound() + " against " + err);
    }

    @Test
    void deltaIsNonIncreasingInEpsilonAndZeroEpsilonIsTotalVariation() {
        int[] h = {12, 9, 4};
        double prev = 2;
        for (double eps = 0; eps <= 4; eps += 0.25) {
            double d = profile(h, 18, eps).delta();
            assertTrue(d <= prev + 1e-15);
            prev = d;
        }
        // at eps = 0 the hockey-stick divergence is the total variation distance: the largest over the neighbours of
        // 1/2 sum |P - P'|, from the exact laws
        ExactSamplingProfile exact = new ExactSamplingProfile(Sampling.WITHOUT_REPLACEMENT, 18);
        BigDecimal largest = BigDecimal.ZERO;
        for (int[] g : ExactSamplingProfile.neighbours(h)) {
            var p = exact.law(h);
            var q = exact.law(g);
            BigDecimal sum = BigDecimal.ZERO;
            Set<List<Integer>> outputs = new HashSet<>(p.keySet());
            outputs.addAll(q.keySet());
            for (List<Integer> k : outputs) {
                sum = sum.add(p.getOrDefault(k, BigDecimal.ZERO).subtract(q.getOrDefault(k, BigDecimal.ZERO)).abs());
            }
            largest = largest.max(sum.divide(BigDecimal.valueOf(2)));
        }
        assertEquals(largest.doubleValue(), profile(h, 18, 0).delta(), 1e-12 * largest.doubleValue());
        assertTrue(largest.doubleValue() > 0.01, "a non-trivial distance: " + largest);
    }

    @Test
    void badInputIsNamed() {
        BadInputException e = assertThrows(BadInputException.class, () -> profile(new int[] {3, -1}, 1, 1));
        assertTrue(e.getMessage().startsWith("counts"), e.getMessage());
        e = assertThrows(BadInputException.class, () -> profile(new int[] {3, 1}, 5, 1));
        assertTrue(e.getMessage().startsWith("T = "), e.getMessage());
        e = assertThrows(BadInputException.class, () -> profile(new int[] {3, 1}, 2, -1));
        assertTrue(e.getMessage().startsWith("eps = "), e.getMessage());
        assertThrows(BadInputException.class, () -> SampleSize.parseEta("1.0"));
        assertThrows(BadInputException.class, () -> SampleSize.parseEta("abc"));
    }

    @Test
    void sampleSizeIsExact() {
        assertEquals(998, SampleSize.fromEta(new BigDecimal("0.998"), 1000, SampleSize.Rounding.CEIL));
        assertEquals(1996, SampleSize.fromEta(new BigDecimal("0.998"), 2000, SampleSize.Rounding.ROUND));
        assertEquals(1497, SampleSize.fromEta(new BigDecimal("0.998"), 1500, SampleSize.Rounding.ROUND)); // 1497.0
        assertEquals(2, SampleSize.fromEta(new BigDecimal("0.25"), 6, SampleSize.Rounding.ROUND)); // 1.5 -> 2
        assertEquals(2, SampleSize.fromEta(new BigDecimal("0.25"), 6, SampleSize.Rounding.CEIL));
        assertEquals(1997, SampleSize.fromLostFraction(new BigDecimal("0.002"), 2000 + 1)); // floor(4.002) = 4 lost
    }

    static ProfileValue profile(int[] h, int t, double eps) {
        return SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t).profile(h, eps);
    }

    static int[] randomHistogram(SplittableRandom rnd, int m, int n) {
        int[] h = new int[m];
        for (int i = 0; i < n; i++) {
            h[rnd.nextInt(rnd.nextInt(4) == 0 ? 1 : m)]++;
        }
        return h;
    }
}
