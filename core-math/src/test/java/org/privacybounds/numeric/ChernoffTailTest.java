package org.privacybounds.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

class ChernoffTailTest {
    @Test
    void theJavadocExample() {
        assertEquals(-44.403007586882346, ChernoffTail.logBinomialTail(1000, 0.1, 200, true), 1e-6);
        assertEquals(0.2 * Math.log(2) + 0.8 * Math.log(0.8 / 0.9), ChernoffTail.kl(0.2, 0.1), 1e-15);
        assertEquals(0, ChernoffTail.kl(0.3, 0.3), 0);
    }

    @Test
    void theBoundIsAtLeastTheExactTailOnBothSidesAndOneBeforeTheMean() {
        for (int trials : new int[] {1, 7, 100, 5_000}) {
            for (double p : new double[] {0.001, 0.1, 0.5, 0.93}) {
                BinomialDistribution b = BinomialDistribution.of(trials, p);
                for (int x = 0; x <= trials; x += Math.max(1, trials / 50)) {
                    double upper = ChernoffTail.logBinomialTail(trials, p, x, true);
                    double lower = ChernoffTail.logBinomialTail(trials, p, x, false);
                    double exactUpper = x == 0 ? 0 : Math.log(b.survivalProbability(x - 1));
                    double exactLower = Math.log(b.cumulativeProbability(x));
                    assertTrue(upper >= exactUpper - 1e-12, trials + " " + p + " " + x + ": " + upper + " < " + exactUpper);
                    assertTrue(lower >= exactLower - 1e-12, trials + " " + p + " " + x + ": " + lower + " < " + exactLower);
                    if (x <= trials * p) {
                        assertEquals(0, upper, 0);
                    }
                }
                assertEquals(Double.NEGATIVE_INFINITY, ChernoffTail.logBinomialTail(trials, p, trials + 1, true), 0);
                assertEquals(Double.NEGATIVE_INFINITY, ChernoffTail.logBinomialTail(trials, p, -1, false), 0);
            }
        }
    }
}
