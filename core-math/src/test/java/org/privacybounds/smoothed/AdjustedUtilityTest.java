package org.privacybounds.smoothed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.privacybounds.exact.ExactMath;
import org.privacybounds.exact.ExactSamplingProfile;
import org.privacybounds.validation.BadInputException;

class AdjustedUtilityTest {
    private static AdjustedUtility utility(int t) {
        return new AdjustedUtility(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t));
    }

    @Test
    void figure1ReferenceValue() {
        // the Smoothed DP paper's Figure 1 setting, n = 2000, h = 1000, T = 1996, t = 0.51: computed independently in 50-digit arithmetic (mpmath)
        UtilityValue u = utility(1996).utility(new int[] {1000, 1000}, 0.51, UtilityForm.FIGURE1);
        assertEquals(0.361892478091687, u.utility(), 1e-14);
        // d + d' of the same pair
        assertEquals(0.723723915241628, Math.exp(u.logLemma10Upper()), 1e-14);
    }

    @Test
    void worstDatabaseGivesUtilityNearOne() {
        // the Smoothed DP paper's example "all but one vote Republican" gives utility about 1 (0.99999 at n = 2000)
        UtilityValue u = utility(1996).utility(new int[] {1, 1999}, 0.51, UtilityForm.FIGURE1);
        assertTrue(u.utility() > 0.99 && u.utility() <= 1, "" + u.utility());
    }

    @Test
    void oneSidedUtilitiesMatchExactRationalsAndTheLemma10Identity() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (Sampling s : Sampling.values()) {
            for (int c = 0; c < 30; c++) {
                int n = 2 + rnd.nextInt(50);
                int h = rnd.nextInt(n + 1);
                int t = rnd.nextInt(n + 1);
                double thr = 0.5 + 0.49 * rnd.nextDouble();
                double eps = AdjustedUtility.epsilonOfThreshold(thr);
                int[] x = {h, n - h};
                int a = h > 0 ? 0 : 1;
                int[] xp = x.clone();
                xp[a]--;
                xp[1 - a]++;
                MovePair fwd = new MovePair(s, x, a, 1 - a, t);
                MovePair bwd = new MovePair(s, xp, 1 - a, a, t);
                ExactSamplingProfile ex = new ExactSamplingProfile(s, t);
                BigDecimal uf = ex.oneSidedUtility(x, xp, eps);
                BigDecimal ub = ex.oneSidedUtility(xp, x, eps);
                String where = s + " h=" + h + " n=" + n + " T=" + t + " t=" + thr;
                assertEquals(0, ExactMath.relativeError(fwd.oneSidedUtility(eps, 1e-15).log(), uf), 1e-9, where);
                assertEquals(0, ExactMath.relativeError(bwd.oneSidedUtility(eps, 1e-15).log(), ub), 1e-9, where);
                // corrected Lemma 10 (Smoothed DP paper, Appendix C.1): u(x,x') + u(x',x) = d(x,x') + d(x',x), exactly
                BigDecimal d = ex.hockeyStick(x, xp, eps).add(ex.hockeyStick(xp, x, eps));
                assertEquals(0, uf.add(ub).subtract(d).abs().doubleValue(), 1e-40, where);
            }
        }
    }

    @Test
    void eq3UtilityLiesWithinTheCorrectedLemma10Bounds() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int c = 0; c < 40; c++) {
            int n = 2 + rnd.nextInt(400);
            int h = rnd.nextInt(n + 1);
            int t = rnd.nextInt(n + 1);
            double thr = 0.5 + 0.45 * rnd.nextDouble();
            UtilityValue u = utility(t).utility(new int[] {h, n - h}, thr, UtilityForm.EQ3);
            double tol = 1e-12;
            assertTrue(u.logLemma10Lower() <= u.logPairUtility() + tol, "lower " + u);
            assertTrue(u.logPairUtility() <= u.logLemma10Upper() + tol, "upper " + u);
            UtilityValue f = utility(t).utility(new int[] {h, n - h}, thr, UtilityForm.FIGURE1);
            assertTrue(f.logUtility() <= u.logUtility() + tol, "figure-1 form is one side of Eq. (3)");
        }
    }

    @Test
    void thresholdOutsideTheRangeIsRejected() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> utility(5).utility(new int[] {3, 4}, 0.4, UtilityForm.FIGURE1));
        assertTrue(e.getMessage().startsWith("t = 0.4"), e.getMessage());
        assertThrows(BadInputException.class, () -> utility(5).utility(new int[] {3, 4, 1}, 0.6, UtilityForm.EQ3));
    }
}
