package org.privacybounds.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;

import org.junit.jupiter.api.Test;
import org.privacybounds.exact.ExactMath;

class LogMathTest {
    @Test
    void log1mexpIsAccurateNearZeroAndFarOut() {
        // log(1 - e^-1e-10) = log(1e-10 - 5e-21 + ...) : closed form via series
        assertEquals(Math.log(1e-10) - 5e-11, LogMath.log1mexp(-1e-10), 1e-15);
        assertEquals(-Math.exp(-50), LogMath.log1mexp(-50), 1e-35);
        assertEquals(Math.log(1 - Math.exp(-1)), LogMath.log1mexp(-1), 1e-15);
        assertEquals(Double.NEGATIVE_INFINITY, LogMath.log1mexp(0));
    }

    @Test
    void logHalfErfcHoldsOnBothSidesAndFarPastWhereErfcUnderflows() {
        // 40-digit mpmath: ln(erfc(x) / 2)
        assertEquals(-904.66726429120382339, LogMath.logHalfErfc(30), 1e-12);
        assertEquals(-1.4281583103970297124, LogMath.logHalfErfc(0.5), 1e-14);
        assertEquals(-0.000011045309498499094259, LogMath.logHalfErfc(-3), 1e-18);
        assertEquals(0, LogMath.logHalfErfc(-30), 0);
    }

    @Test
    void logSumExpHandlesTermsFarBelowTheDoubleRange() {
        LogSumExp acc = new LogSumExp();
        acc.add(-2000).add(-2000 + Math.log(3)).add(Double.NEGATIVE_INFINITY);
        assertEquals(-2000 + Math.log(4), acc.log(), 1e-12);
        assertEquals(2, acc.count());
        assertEquals(Double.NEGATIVE_INFINITY, new LogSumExp().log());
    }

    @Test
    void hypergeometricLogPmfMatchesExactRationalsAtLargePopulation() {
        // C(h,k) C(n-h, T-k) / C(n, T) with n = 20000, exact with BigInteger
        int n = 20000;
        int h = 7000;
        int t = 19960;
        CountLaw law = CountLaw.hypergeometric(n, h, t);
        BigInteger den = ExactMath.binomial(n, t);
        for (int k = 6950; k <= 7000; k += 7) {
            BigInteger num = ExactMath.binomial(h, k).multiply(ExactMath.binomial(n - h, t - k));
            double rel = ExactMath.relativeError(law.logProbability(k), ExactMath.ratio(num, den));
            assertEquals(0, rel, 1e-12, "k = " + k);
        }
    }

    @Test
    void modeIsTheArgmax() {
        CountLaw law = CountLaw.hypergeometric(1000, 333, 977);
        double m = law.logProbability(law.mode());
        for (long k = law.lower(); k <= law.upper(); k++) {
            assertEquals(true, law.logProbability(k) <= m, "k = " + k);
        }
        // Binomial(50, 1/3): (n + 1) p = 17 is an integer, so 16 and 17 tie
        CountLaw bin = CountLaw.binomial(50, 1, 3);
        assertEquals(bin.logProbability(16), bin.logProbability(bin.mode()), 1e-14);
        assertEquals(bin.logProbability(17), bin.logProbability(bin.mode()), 1e-14);
    }

    @Test
    void logConcaveSumCertifiesItsTruncation() {
        // Full binomial mass is 1: the certified sum must contain 1 within its bound.
        CountLaw law = CountLaw.binomial(100000, 3, 10);
        LogConcaveSum.Result r = LogConcaveSum.sum(law, 0, 100000, k -> 0.0, 1e-15);
        assertEquals(0.0, r.logSum(), 1e-12);
        assertEquals(true, r.terms() < 5000, "terms " + r.terms());
        // each of the two directions stops once its rest is below relTol times the sum
        assertEquals(true, r.relativeTruncation() > 0 && r.relativeTruncation() <= 2e-15, "" + r.relativeTruncation());
    }
}
