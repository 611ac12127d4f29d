package org.privacybounds.smoothed.sdp.twocategory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.privacybounds.numeric.CountLaw;
import org.privacybounds.numeric.LogSumExp;

/** One exact expectation f(n1) = E[delta(X + Y)] against the same sum term by term in log space. */
class ExpectationTest {
    /**
     * ln delta spanning thousands of nats over the window (as at n = 3e9, eps = 7): one scale for it would flush every term
     * that matters below the smallest double; the tilted sum keeps them.
     */
    @Test
    void steepDeltaIsSummedWithoutFlushingTermsToZero() {
        long n = 5_000;
        long n1 = 3_000;
        double pHi = 0.5;
        double pLo = 0.5;
        CountLaw x = CountLaw.binomial(n1, pHi);
        CountLaw y = CountLaw.binomial(n - n1, pLo);
        // the whole supports (55 and 45 standard deviations each way) and ln delta = a + slope (h - middle): at slope 1 the
        // terms that make up f lie about 1,250 nats below the largest delta of the window
        long xl = 0;
        long xr = n1;
        long yl = 0;
        long yr = n - n1;
        for (double slope : new double[] {0, 1}) {
            long hStart = xl + yl;
            double[] logDelta = new double[(int) (xr + yr - hStart + 1)];
            for (int i = 0; i < logDelta.length; i++) {
                double u = i - logDelta.length / 2.0;
                logDelta[i] = -20_000 + slope * u;
            }
            Expectation ex = new Expectation(n, pHi, pLo, n1, xl, xr, yl, yr, hStart, logDelta, Double.NEGATIVE_INFINITY);
            LogSumExp want = new LogSumExp();
            for (long a = xl; a <= xr; a++) {
                for (long b = yl; b <= yr; b++) {
                    want.add(x.logProbability(a) + y.logProbability(b) + logDelta[(int) (a + b - hStart)]);
                }
            }
            double got = ex.evaluate()[0];
            assertEquals(want.log(), got, 1e-12 * Math.abs(want.log()), "slope " + slope);
        }
    }
}
