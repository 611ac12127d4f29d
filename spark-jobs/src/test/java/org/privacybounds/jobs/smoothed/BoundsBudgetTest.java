package org.privacybounds.jobs.smoothed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.multicategory.MonotoneBounds;

/**
 * How --max-work is shared among the certified bounds' sides: only the sides that run count, and the estimate of the whole run
 * stays within --max-work.
 */
class BoundsBudgetTest {
    private static final DistributionSet ONE = DistributionSet.of(List.of(new double[] {0.268, 0.29, 0.17, 0.154, 0.118}), List.of("v"), "Pi");
    private static final DistributionSet TWO = DistributionSet.of(List.of(new double[] {0.45, 0.45, 0.10}, new double[] {0.50, 0.42, 0.08}),
            List.of("a", "b"), "Pi");

    @Test
    void aVertexAloneKeepsNoShareForRegionsThatNeverRun() {
        assertEquals(2 + MonotoneBounds.OWN_SHARE + MonotoneBounds.SHIFT_SHARE, SmoothedRunner.sides(ONE, ONE, Sampling.WITHOUT_REPLACEMENT), 0);
        assertEquals(2 + MonotoneBounds.OWN_SHARE, SmoothedRunner.sides(ONE, ONE, Sampling.WITH_REPLACEMENT), 0);
        assertEquals(2 + MonotoneBounds.OWN_SHARE + MonotoneBounds.REGIONS_SHARE + MonotoneBounds.SHIFT_SHARE,
                SmoothedRunner.sides(TWO, TWO, Sampling.WITHOUT_REPLACEMENT), 0);
        // --max-work 600 with two eps: one vertex keeps the default 40 core-seconds a side (it had 17 and a log10 gap of 854 at
        // n = 1e5, eps 2, against 0.215 on 40), two vertices share the 600 with their regions
        assertEquals(40, SmoothedRunner.sideSeconds(2, 600, 40, ONE, ONE, Sampling.WITHOUT_REPLACEMENT), 0);
        double two = SmoothedRunner.sideSeconds(2, 600, 40, TWO, TWO, Sampling.WITHOUT_REPLACEMENT);
        assertEquals(0.9 * 600 / (2 * SmoothedRunner.sides(TWO, TWO, Sampling.WITHOUT_REPLACEMENT)), two, 1e-12);
        assertTrue(two < 40, "two vertices: " + two);
    }

    /**
     * Where the hull has more vertices than --max-vertices, the upper side runs on an enclosing simplex and the lower on some of
     * the hull's vertices: the regions of assignments do not run there, and the sides keep no share for them (they had, as if
     * the hull were exact: under --max-work 300 with two eps each side got 8.7 core-seconds, 40 % of what it now gets).
     */
    @Test
    void underAnEnclosingSimplexTheRegionsKeepNoShare() {
        DistributionSet simplex = DistributionSet.of(List.of(new double[] {0.55, 0.37, 0.08}, new double[] {0.40, 0.52, 0.08},
                new double[] {0.40, 0.37, 0.23}), List.of("s1", "s2", "s3"), "simplex");
        assertTrue(MonotoneBounds.regionsRun(TWO, TWO));
        assertTrue(!MonotoneBounds.regionsRun(simplex, TWO) && !MonotoneBounds.regionsRun(ONE, ONE));
        for (Sampling sampling : Sampling.values()) {
            assertEquals(SmoothedRunner.sides(ONE, ONE, sampling), SmoothedRunner.sides(simplex, TWO, sampling), 0);
        }
        double sandwich = SmoothedRunner.sideSeconds(2, 300, 40, simplex, TWO, Sampling.WITHOUT_REPLACEMENT);
        double exact = SmoothedRunner.sideSeconds(2, 300, 40, TWO, TWO, Sampling.WITHOUT_REPLACEMENT);
        assertEquals(0.9 * 300 / (2 * (2 + MonotoneBounds.OWN_SHARE + MonotoneBounds.SHIFT_SHARE)), sandwich, 1e-12);
        assertTrue(sandwich > 2 * exact, sandwich + " against " + exact);
        for (double work : new double[] {300, 600, 3_600}) {
            double estimate = SmoothedRunner.monotoneEstimate(100_000, 200, Sampling.WITHOUT_REPLACEMENT, simplex, TWO, 2, work, 40)[0];
            assertTrue(estimate <= work, "--max-work " + work + ": estimate " + estimate);
        }
    }

    /**
     * With replacement a term costs more than the sides' budgets count it at: four vertices of three categories at n = 1e5 with
     * 5 % lost, eps 0.5, took 33.7 minutes of core time on 2 cores for an estimate of 8; the estimate now covers that.
     */
    @Test
    void withReplacementTheEstimateCountsItsDearerTerms() {
        DistributionSet four = DistributionSet.of(List.of(new double[] {0.387, 0.379, 0.234}, new double[] {0.374, 0.441, 0.185},
                new double[] {0.372, 0.428, 0.2}, new double[] {0.32, 0.376, 0.304}), List.of("a", "b", "c", "d"), "Pi");
        double with = SmoothedRunner.monotoneEstimate(100_000, 95_000, Sampling.WITH_REPLACEMENT, four, four, 1, 86_400, 40)[0];
        assertTrue(with > 35 * 60, "estimate " + with + " s");
        assertEquals(5, SmoothedRunner.termCost(Sampling.WITH_REPLACEMENT), 0);
        assertEquals(1, SmoothedRunner.termCost(Sampling.WITHOUT_REPLACEMENT), 0);
        // under --max-work the sides shrink by the same factor, and the estimate stays within it
        double side = SmoothedRunner.sideSeconds(1, 1_200, 40, four, four, Sampling.WITH_REPLACEMENT);
        assertEquals(0.9 * 1_200 / (5 * SmoothedRunner.sides(four, four, Sampling.WITH_REPLACEMENT)), side, 1e-12);
        assertTrue(SmoothedRunner.monotoneEstimate(100_000, 95_000, Sampling.WITH_REPLACEMENT, four, four, 1, 1_200, 40)[0] <= 1_200);
    }

    @Test
    void theEstimateStaysWithinMaxWork() {
        for (DistributionSet set : new DistributionSet[] {ONE, TWO}) {
            for (Sampling sampling : Sampling.values()) {
                for (double work : new double[] {300, 600, 3_600}) {
                    for (int epsilons : new int[] {1, 2, 4}) {
                        double estimate = SmoothedRunner.monotoneEstimate(100_000, 200, sampling, set, set, epsilons, work, 40)[0];
                        String at = set.size() + " vertices, " + sampling + ", --max-work " + work + ", " + epsilons + " eps";
                        assertTrue(estimate <= work, at + ": estimate " + estimate);
                    }
                }
            }
        }
    }
}
