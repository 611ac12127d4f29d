package org.privacybounds.bayes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.privacybounds.bayes.ChainAudit.Config;
import org.privacybounds.bayes.ChainAudit.Part;
import org.privacybounds.guarantee.Verdict;

/** Pure-DP verdicts of exponential mechanisms that rounding cannot flip: exact ties, near ties, undecided. */
class PureDpVerdictTest {
    /** Two databases, two outputs, utilities (0, -1) and (-1, 0). */
    private static ChainAudit.Utility swapped() {
        double[][] u = {{0, -1}, {-1, 0}};
        return new ChainAudit.Utility() {
            public int databases() {
                return 2;
            }

            public int outputs() {
                return 2;
            }

            public void row(int k, double[] out) {
                System.arraycopy(u[k], 0, out, 0, 2);
            }
        };
    }

    /**
     * With sensitivity 1/2 (half the true one) the exponents are eps u, the normalisers of the two databases are equal, and
     * ln P_0(r0) - ln P_1(r0) = eps exactly: a tie, decided by the equal multisets of exponents, so the mechanism is eps-DP.
     */
    @Test
    void anExactTieIsDp() {
        ChainAudit.Utility u = swapped();
        Config cfg = new Config("half", 1, new double[] {0.5, 0.5}, new double[] {1});
        Part p = ChainAudit.run(u, List.of(cfg), 0, 2);
        assertEquals(1.0, p.maxLogRatio[0], 0);
        PureDpVerdict v = PureDpVerdict.decide(u, cfg, p, 0);
        assertEquals(Verdict.HOLDS, v.verdict());
        assertEquals(2, v.exactTies(), "both outputs (each direction) tie");
        assertEquals(0, v.undecided());
        assertTrue(PureDpVerdict.exactTie(u, cfg, p.witness[0]));
    }

    /**
     * The second database's sensitivity 2^-44 relative below 1/2: the loss at r0 is eps (1 + 4.2e-14), a real violation
     * that a tolerance of 1e-12 called pure DP. It is within the double audit's error bound, not a tie, and 50 digits show it
     * above eps.
     */
    @Test
    void aViolationInsideTheRoundingBandIsFound() {
        ChainAudit.Utility u = swapped();
        double s1 = 0.5 / (1 + 0x1p-44);
        Config cfg = new Config("near", 1, new double[] {0.5, s1}, new double[] {1});
        Part p = ChainAudit.run(u, List.of(cfg), 0, 2);
        assertTrue(p.maxLogRatio[0] <= 1 * (1 + 1e-12), "the old tolerance said pure DP: " + p.maxLogRatio[0]);
        PureDpVerdict v = PureDpVerdict.decide(u, cfg, p, 0);
        assertEquals(Verdict.FAILS, v.verdict());
        assertEquals(0, v.exactTies());
        assertEquals(50, v.digits());
        // the interval at 50 digits against the closed form eps + (c1 - eps) - ln(1 + e^-eps) + ln(1 + e^-c1), c1 = 1 / (2 s1)
        BigDecimal[] l = PureDpVerdict.logRatio(u, cfg, new ChainAudit.Witness(0, 1, 0), 50);
        double c1 = 1 / (2 * s1);
        double closed = c1 + Math.log1p(Math.exp(-c1)) - Math.log1p(Math.exp(-1));
        assertEquals(closed, l[0].doubleValue(), 1e-15);
        assertTrue(l[0].compareTo(BigDecimal.ONE) > 0);
        assertTrue(l[1].subtract(l[0]).compareTo(new BigDecimal("1e-35")) < 0);
        // a hair the other way is pure DP, decided the same way
        Config below = new Config("below", 1, new double[] {0.5, 0.5 * (1 + 0x1p-44)}, new double[] {1});
        Part pb = ChainAudit.run(u, List.of(below), 0, 2);
        assertEquals(Verdict.HOLDS, PureDpVerdict.decide(u, below, pb, 0).verdict());
    }

    /** The true sensitivity (1) is far from a tie: decided by the double error bound alone. */
    @Test
    void farFromEpsTheDoubleBoundDecides() {
        ChainAudit.Utility u = swapped();
        Config cfg = new Config("global", 1, new double[] {1, 1}, new double[] {1});
        Part p = ChainAudit.run(u, List.of(cfg), 0, 2);
        PureDpVerdict v = PureDpVerdict.decide(u, cfg, p, 0);
        assertEquals(Verdict.HOLDS, v.verdict());
        assertEquals(0, v.digits());
        assertEquals(0, v.nearEps());
        assertFalse(PureDpVerdict.exactTie(u, cfg, p.witness[0]));
    }

    /** The search reports undecided n apart from violations. */
    @Test
    void theSearchKeepsUndecidedApart() {
        double[] eps = {1};
        List<BayesAudit.LocalLoss> l = List.of(new BayesAudit.LocalLoss(2, new double[] {1}, new Verdict[] {Verdict.UNDECIDED}),
                new BayesAudit.LocalLoss(1, new double[] {0.5}, new Verdict[] {Verdict.HOLDS}),
                new BayesAudit.LocalLoss(3, new double[] {1.5}, new Verdict[] {Verdict.FAILS}));
        BayesAudit.Violation v = BayesAudit.firstViolations(eps, l).get(0);
        assertEquals(3, v.firstViolationN());
        assertEquals(List.of(2), v.undecidedNs());
        assertEquals(1.5, v.maxRealisedOverNominal());
        assertEquals(3, v.atN());
    }
}
