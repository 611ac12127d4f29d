package org.privacybounds.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** The closed-form pmf ratios that {@link LogConcaveSum} walks with between exact anchors. */
class CountLawRatioTest {

    @Test
    void ratiosAgreeWithTheLogPmf() {
        CountLaw[] laws = {CountLaw.hypergeometric(100_000_000, 94_400_000, 99_800_000), CountLaw.hypergeometric(4000, 1700, 2600),
            CountLaw.binomial(1_000_000, 3, 7), CountLaw.binomial(2_000_000_000, 0.055333)};
        for (CountLaw law : laws) {
            for (int d = -3000; d <= 3000; d += 7) {
                long k = law.mode() + d;
                if (k < law.lower() || k >= law.upper()) {
                    continue;
                }
                double byPmf = law.logProbability(k + 1) - law.logProbability(k);
                // the log-pmf values carry a few ulps of their own size (about -460 here): that is the tolerance
                double tol = 1e-14 * (Math.abs(law.logProbability(k)) + Math.abs(law.logProbability(k + 1))) + 1e-14;
                assertEquals(byPmf, law.logRatioUp(k), tol, law + " at k = " + k);
            }
        }
    }

    @Test
    void sumWithRatioStepsMatchesExactRationals() {
        // sum over k >= 400 of Hypergeometric(4000, 1500, 1200) (mode 450): many steps across several anchors, against BigInteger
        int pop = 4000;
        int marked = 1500;
        int draws = 1200;
        CountLaw law = CountLaw.hypergeometric(pop, marked, draws);
        LogConcaveSum.Result r = LogConcaveSum.sum(law, 400, draws, k -> 0.0, 1e-17);
        BigInteger num = BigInteger.ZERO;
        for (int k = 400; k <= draws; k++) {
            num = num.add(binomial(marked, k).multiply(binomial(pop - marked, draws - k)));
        }
        BigDecimal exact = new BigDecimal(num).divide(new BigDecimal(binomial(pop, draws)), MathContext.DECIMAL128);
        double expected = Math.log(exact.doubleValue());
        assertTrue(r.terms() > 2 * LogConcaveSum.ANCHOR, "terms " + r.terms());
        assertEquals(expected, r.logSum(), 1e-13);
        // and the whole law sums to 1
        assertEquals(0.0, LogConcaveSum.sum(law, law.lower(), law.upper(), k -> 0.0, 1e-17).logSum(), 1e-13);
    }

    @Test
    void linearSumMatchesExactRationals() {
        // the same sums in linear space (LogConcaveSum.sumLinear), with a factor in [0, 1] that varies
        int pop = 4000;
        int marked = 1500;
        int draws = 1200;
        CountLaw law = CountLaw.hypergeometric(pop, marked, draws);
        for (int from : new int[] {0, 300, 400, 450, 520, 600}) {
            LogConcaveSum.Result r = LogConcaveSum.sumLinear(law, from, draws, k -> 1.0 / (1 + (k % 3)), 1e-17);
            BigDecimal num = BigDecimal.ZERO;
            for (int k = from; k <= draws; k++) {
                num = num.add(new BigDecimal(binomial(marked, k).multiply(binomial(pop - marked, draws - k)))
                        .divide(BigDecimal.valueOf(1 + (k % 3)), MathContext.DECIMAL128));
            }
            BigDecimal exact = num.divide(new BigDecimal(binomial(pop, draws)), MathContext.DECIMAL128);
            double expected = Math.log(exact.doubleValue());
            assertEquals(expected, r.logSum(), 1e-13, "from " + from);
        }
        // far in the tail: the terms are rescaled before they underflow
        LogConcaveSum.Result far = LogConcaveSum.sumLinear(CountLaw.binomial(100_000, 0.5), 0, 100_000, k -> 1.0, 1e-17);
        assertEquals(0.0, far.logSum(), 1e-12);
    }

    @Test
    void hypergeometricModeIsTheLargestProbability() {
        SplittableRandom rnd = new SplittableRandom(4);
        for (int c = 0; c < 300; c++) {
            int pop = 1 + rnd.nextInt(c < 250 ? 300 : 200_000_000);
            int marked = rnd.nextInt(pop + 1);
            int draws = rnd.nextInt(pop + 1);
            CountLaw law = CountLaw.hypergeometric(pop, marked, draws);
            long m = law.mode();
            assertTrue(m >= law.lower() && m <= law.upper());
            double pm = law.logProbability(m);
            for (int d = -3; d <= 3; d++) {
                long k = m + d;
                if (k >= law.lower() && k <= law.upper()) {
                    assertTrue(law.logProbability(k) <= pm + 1e-12 * Math.max(1, Math.abs(pm)),
                            pop + "," + marked + "," + draws + ": P(" + k + ") > P(mode " + m + ")");
                }
            }
        }
    }

    private static BigInteger binomial(int n, int k) {
        BigInteger r = BigInteger.ONE;
        for (int i = 0; i < k; i++) {
            r = r.multiply(BigInteger.valueOf(n - i)).divide(BigInteger.valueOf(i + 1));
        }
        return r;
    }
}
