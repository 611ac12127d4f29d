package org.privacybounds.smoothed.sdp.pair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

/** The rows' argument that a direction is its own largest neighbour, against the mechanism's own divergences. */
class RowDominationTest {
    /** A(u, v): the divergence moving a record from category 0 (u records) to 1 (v records), {ln value, relative error}. */
    private static double[] a(SamplingHistogramMechanism m, long n, long u, long v, double eps) {
        return m.logHockeyStick(new long[] {u, v, n - u - v}, 0, 1, eps, 1e-10);
    }

    /** Whether A(u + 1, v - 1) - A(u, v) <= tau holds with both values' errors against it (tau in ln). */
    private static boolean within(double[] shifted, double[] own, double logTau) {
        // in ln, so that values below 1e-308 are compared too
        return shifted[0] + Math.log1p(shifted[1]) <= LogMath.logAdd(own[0] + Math.log1p(-Math.min(0.5, own[1])), logTau);
    }

    /**
     * 400 random small boxes (n from 200 to 4,000, 1 to 60 % lost, eps from 0.1 to 4, source and destination counts anywhere):
     * at every histogram of each box the shifted divergence exceeds the box's own by at most the excess the rows give, the
     * divergences summed over every released histogram by the mechanism. Where the destination's count is several times the
     * source's, the rows show it (tau below 1e-6 of A) in a good share of the boxes; where the counts are close they
     * never do (there the shifted divergence is often the larger).
     */
    @Test
    void theExcessBoundsTheShiftedDivergenceEverywhereInTheBox() {
        SplittableRandom rng = new SplittableRandom(20261201L);
        int shownOutright = 0;
        int largerShift = 0;
        int boxes = 400;
        for (int i = 0; i < boxes; i++) {
            long n = 200 + rng.nextInt(3801);
            long lost = Math.max(1, Math.round(n * (0.01 + 0.59 * rng.nextDouble())));
            double eps = new double[] {0.1, 0.5, 1, 2, 4}[rng.nextInt(5)];
            long u0 = 1 + rng.nextInt((int) (n / 4));
            long v0 = 1 + u0 * (1 + rng.nextInt(8)) / 2 + rng.nextInt(20);
            if (i % 2 == 0) {
                // half where the rows can show it: many lost source records, the destination's count 3 to 6 times the source's
                n = 3000 + rng.nextInt(1001);
                eps = rng.nextBoolean() ? 0.5 : 1;
                lost = Math.round(n * (0.15 + 0.1 * rng.nextDouble()));
                u0 = Math.round(n * (0.05 + 0.1 * rng.nextDouble()));
                v0 = Math.round(u0 * (3 + 3 * rng.nextDouble()));
            }
            long size = n;
            double epsilon = eps;
            long lostCount = lost;
            long uLo = u0;
            long vLo = v0;
            long u1 = u0 + rng.nextInt(4);
            long v1 = v0 + rng.nextInt(6);
            if (u1 + v1 > n - 2) {
                continue;
            }
            SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, n - lost);
            double logTau = RowDomination.logExcess(n, lost, u0, u1, v0, v1, eps);
            boolean outright = true;
            for (long u = u0; u <= u1; u++) {
                for (long v = v0; v <= v1; v++) {
                    double[] own = a(m, n, u, v, eps);
                    double[] shifted = a(m, n, u + 1, v - 1, eps);
                    if (shifted[0] > own[0] + 1e-9) {
                        largerShift++;
                    }
                    assertTrue(within(shifted, own, logTau), () -> String.format("n %d, L %d, eps %s, box [%d, %d] x [%d, %d]: ln tau %s", size, lostCount,
                            epsilon, uLo, u1, vLo, v1, logTau));
                    outright &= logTau < own[0] + Math.log(1e-6);
                }
            }
            if (outright) {
                shownOutright++;
            }
        }
        // the test sees both kinds: boxes the rows show outright, and histograms whose shifted divergence is the larger
        assertTrue(shownOutright >= 100, "boxes shown outright: " + shownOutright);
        assertTrue(largerShift >= 30, "histograms whose shifted divergence is the larger: " + largerShift);
    }

    /**
     * The case at the national n: 0.2 % lost, shares 0.08 and 0.40, eps 0.5 and 1: a box of 2 standard deviations of
     * each count around the means is shown with an excess below 10^-2000 (the direction itself is about 10^-912 at eps 0.5).
     */
    @Test
    void theNationalBoxIsShown() {
        long n = 158_528_503L;
        long lost = n - (long) Math.ceil(0.998 * n);
        long u = Math.round(0.08 * n);
        long v = Math.round(0.40 * n);
        for (double eps : new double[] {0.5, 1}) {
            double logTau = RowDomination.logExcess(n, lost, u - 6800, u + 6800, v - 12300, v + 12300, eps);
            assertTrue(logTau < -2000 * Math.log(10), "ln tau " + logTau);
        }
        // tied shares: no row holds, the excess is 2 / v (each tail's bound 1)
        double tied = RowDomination.logExcess(n, lost, u, u + 10, u, u + 10, 0.5);
        assertEquals(Math.log(2) - Math.log(u), tied, 1e-4);
    }
}
