package org.privacybounds.ensemble;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.apfloat.Apfloat;
import org.apfloat.ApfloatMath;
import org.junit.jupiter.api.Test;
import org.privacybounds.guarantee.Verdict;

/**
 * DaRRM verdicts that rounding cannot flip: exact ties decided exactly, the rest by rigorous intervals and more digits,
 * "undecided" only where nothing separates them, and the double scan's a-priori error bound checked against the intervals.
 */
class ExactVerdictTest {
    private static final BigDecimal TENTH = new BigDecimal("0.1");

    /**
     * K = 21, m = 5, eps = 0.1, Delta = 0, gamma_DSub: at one (a,b), one (b,a) and nineteen (0,0) the two Poisson-binomial
     * laws coincide and gamma(0..2) = 1, so the cost is e^{m eps} - 1, the bound, exactly. The 60-digit check without an
     * allowance answered "not DP" (its cost exceeded the bound by one unit in the 60th digit).
     */
    @Test
    void theIssuesTieIsDp() {
        ConstraintSet set = ConstraintSet.of(21, 0.1, 0);
        double[] gamma = NoiseFunctions.doubleSubsampling(21, 5);
        ExactTarget target = ExactTarget.of(TENTH, new BigDecimal("5"), BigDecimal.ZERO, null);
        HighPrecisionVerifier.Certificate c = HighPrecisionVerifier.verify(set, target, gamma);
        assertEquals(Verdict.HOLDS, c.verdict());
        assertTrue(c.certified());
        assertTrue(c.worstExactTie());
        // every multiset whose number of ones stays where gamma = 1 (l <= 4) costs (E - 1) exactly, and so do those where
        // alpha_5 = E alpha'_5 (five (a,b): (a/b)^5 = e^{5 eps}): 36 in all, each decided by polynomial identity
        assertEquals(36, c.exactTies());
        assertEquals(36, c.nearTies());
        assertEquals(2024, c.multisets());
        assertEquals(0, c.undecided());
        // the same with the binary double nearest 0.1 (the tie does not depend on eps)
        assertEquals(Verdict.HOLDS, HighPrecisionVerifier.verify(set, gamma, 5, 0).verdict());
    }

    /** The ties are the multisets whose cost is E - 1 by an identity; the others are not flagged. */
    @Test
    void tiesAreExactlyTheIdentities() {
        ConstraintSet set = ConstraintSet.of(21, 0.1, 0);
        double[] gamma = NoiseFunctions.doubleSubsampling(21, 5);
        ExactTarget target = ExactTarget.of(TENTH, new BigDecimal("5"), BigDecimal.ZERO, null);
        ExactTie tie = new ExactTie(set, target, free(gamma));
        assertTrue(tie.isTie(new int[] {1, 1, 19, 0}));
        assertTrue(tie.isTie(new int[] {0, 0, 21, 0}));
        assertTrue(tie.isTie(new int[] {0, 0, 20, 1}));
        assertTrue(tie.isTie(new int[] {0, 0, 17, 4}), "gamma(4) = 1");
        assertTrue(tie.isTie(new int[] {2, 0, 19, 0}), "L <= 2: sum (E alpha' - alpha) = E - 1 whatever the laws");
        assertTrue(tie.isTie(new int[] {5, 0, 16, 0}), "alpha_5 = a^5 = e^{5 eps} b^5 = E alpha'_5");
        assertFalse(tie.isTie(new int[] {0, 0, 16, 5}), "gamma(5) < 1: cost (E - 1) gamma(5)");
        assertFalse(tie.isTie(new int[] {6, 0, 15, 0}), "six (a,b): alpha_5 = 6 a^5 b, E alpha'_5 = 6 a^6");
    }

    /**
     * An integer m tie of the second kind: K = 1, gamma = (1, 1) releases the one mechanism's bit, which is exactly eps-DP,
     * so at m = 1 its cost at (a, b) is e^eps - 1 = the bound: U - t V = 0 with U, V not zero.
     */
    @Test
    void aSingleMechanismIsExactlyEpsDp() {
        ConstraintSet set = ConstraintSet.of(1, 0.1, 0);
        ExactTarget target = ExactTarget.of(TENTH, BigDecimal.ONE, BigDecimal.ZERO, null);
        double[] gamma = {1, 1};
        ExactTie tie = new ExactTie(set, target, free(gamma));
        assertTrue(tie.isTie(new int[] {1, 0, 0, 0}));
        HighPrecisionVerifier.Certificate c = HighPrecisionVerifier.verify(set, target, gamma);
        assertEquals(Verdict.HOLDS, c.verdict());
        assertTrue(c.worstExactTie());
        assertArrayEquals(new int[] {1, 0, 0, 0}, c.worstMultiset());
        // with Delta > 0 the same: the bit of an (eps, Delta)-DP mechanism is (eps, Delta)-DP, tight at its corners
        ConstraintSet setD = ConstraintSet.of(1, 0.1, 1e-3);
        ExactTarget targetD = ExactTarget.of(TENTH, BigDecimal.ONE, new BigDecimal("0.001"), null);
        HighPrecisionVerifier.Certificate cd = HighPrecisionVerifier.verify(setD, targetD, gamma);
        assertEquals(Verdict.HOLDS, cd.verdict());
        assertTrue(cd.exactTies() >= 1);
    }

    /**
     * gamma = 1 at K = 101, m = 40, Delta = 0 is not (4, 0)-DP: {61 x (a,b), 40 x (0,0)} is 9.5626253879059695e-8 above the
     * bound (50-digit mpmath). A target delta half that excess plus or minus 1e-75 needs more than 60 digits to decide; one
     * within 1e-1000 of it cannot be decided with {@value HighPrecisionVerifier#MAX_DIGITS} and is reported undecided.
     */
    @Test
    void nearTiesTakeMoreDigitsAndOnlyTheUnseparableAreUndecided() {
        ConstraintSet set = ConstraintSet.of(101, 0.1, 0);
        double[] gamma = NoiseFunctions.constant(101, 1);
        // the excess of that multiset to 1,100 digits, independently: Binomial laws in apfloat
        BigDecimal eps = new BigDecimal(0.1);
        BigDecimal mEps = new BigDecimal(40).multiply(eps);
        BigDecimal excess = excessOfBinomialMultiset(61, 40, eps, mEps, 1100);
        assertEquals(9.5626253879059695e-8, excess.doubleValue(), 1e-22);
        List<int[]> worst = List.of(new int[] {61, 0, 40, 0}, new int[] {62, 0, 39, 0});
        HighPrecisionVerifier.Certificate c = HighPrecisionVerifier.verifyMultisets(set, ExactTarget.binary(0.1, 0, 40, 0), gamma, worst);
        assertEquals(Verdict.FAILS, c.verdict());
        assertEquals(excess.doubleValue(), c.maxCost().subtract(c.bound()).doubleValue(), 1e-22);
        BigDecimal half = excess.divide(BigDecimal.valueOf(2));
        for (int sign : new int[] {1, -1}) {
            BigDecimal delta = half.add(new BigDecimal("1e-75").multiply(BigDecimal.valueOf(sign))).round(new MathContext(120));
            HighPrecisionVerifier.Certificate near = HighPrecisionVerifier.verifyMultisets(set, new ExactTarget(eps, BigDecimal.ZERO, mEps, delta), gamma,
                    worst);
            assertEquals(sign > 0 ? Verdict.HOLDS : Verdict.FAILS, near.verdict(), "delta = half the excess " + (sign > 0 ? "+" : "-") + " 1e-75");
            assertEquals(2 * HighPrecisionVerifier.DIGITS, near.digits());
            assertEquals(2, near.nearTies());
            assertEquals(0, near.exactTies());
        }
        BigDecimal unseparable = half.round(new MathContext(1050));
        HighPrecisionVerifier.Certificate u = HighPrecisionVerifier.verifyMultisets(set, new ExactTarget(eps, BigDecimal.ZERO, mEps, unseparable), gamma,
                worst);
        assertEquals(Verdict.UNDECIDED, u.verdict());
        assertEquals(HighPrecisionVerifier.MAX_DIGITS, u.digits());
        assertEquals(2, u.undecided());
        assertTrue(u.worstLower().compareTo(u.boundUpper()) <= 0 && u.worstUpper().compareTo(u.boundLower()) >= 0);
    }

    /** The double scan is within its a-priori error bound of the 60-digit intervals, for random gammas and settings. */
    @Test
    void theDoubleErrorBoundHolds() {
        SplittableRandom rnd = new SplittableRandom(5);
        double[][] settings = {{11, 0.1, 0, 3}, {9, 0.25, 1e-3, 1.5}, {11, 2, 1e-5, 3}, {7, 5, 0.2, 2}, {13, 0.01, 1e-8, 7}};
        for (double[] st : settings) {
            int k = (int) st[0];
            ConstraintSet set = ConstraintSet.of(k, st[1], st[2]);
            ExactTarget target = ExactTarget.binary(st[1], st[2], st[3], DarrmSetting.composedDelta(st[3], st[2]));
            double em = Math.exp(st[3] * st[1]);
            double theta = HighPrecisionVerifier.doubleErrorBound(set, target, em);
            assertTrue(theta > 0 && theta < 1e-5 * (1 + em), "theta " + theta);
            double[] gamma = new double[k + 1];
            for (int l = (k + 1) / 2; l <= k; l++) {
                gamma[l] = rnd.nextDouble();
                gamma[k - l] = gamma[l];
            }
            ConstraintSet.ScanResult scan = set.scanAll(DarrmOptimizer.free(gamma), em, Double.NEGATIVE_INFINITY, Integer.MAX_VALUE);
            double worst = 0;
            List<ConstraintSet.Row> rows = new ArrayList<>();
            for (int i = 0; i < scan.above().size(); i += Math.max(1, scan.above().size() / 500)) {
                rows.add(scan.above().get(i));
            }
            List<BigDecimal[]> exact = HighPrecisionVerifier.costIntervals(set, target, gamma, rows.stream().map(ConstraintSet.Row::counts).toList());
            for (int i = 0; i < rows.size(); i++) {
                BigDecimal v = new BigDecimal(rows.get(i).value());
                worst = Math.max(worst, v.subtract(exact.get(i)[0]).abs().max(v.subtract(exact.get(i)[1]).abs()).doubleValue());
            }
            assertTrue(worst <= theta, "observed " + worst + " > bound " + theta);
            assertTrue(worst > 0 || theta < 1e-12);
        }
    }

    /** The double path decides the issue's tie too: the rows near the bound go to the intervals and the tie test. */
    @Test
    void theDoubleScanSendsNearTiesToTheExactPath() {
        ConstraintSet set = ConstraintSet.of(21, 0.1, 0);
        double[] gamma = NoiseFunctions.doubleSubsampling(21, 5);
        ExactTarget target = ExactTarget.of(TENTH, new BigDecimal("5"), BigDecimal.ZERO, null);
        double em = Math.exp(0.5);
        HighPrecisionVerifier.Certificate c = HighPrecisionVerifier.verifyByScan(set, target, gamma, em,
                (x, th, keep) -> set.scanAll(x, em, th, keep));
        assertEquals(Verdict.HOLDS, c.verdict());
        assertTrue(c.exactTies() >= 2);
        assertTrue(c.nearTies() < 50, "near " + c.nearTies());
        // the plain majority (gamma = 1) fails on the double path
        HighPrecisionVerifier.Certificate f = HighPrecisionVerifier.verifyByScan(set, target, NoiseFunctions.constant(21, 1), em,
                (x, th, keep) -> set.scanAll(x, em, th, keep));
        assertEquals(Verdict.FAILS, f.verdict());
        // its exact ties (every multiset with at most h ones costs E - 1) are found on the way
        assertEquals(f.nearTies(), f.exactTies());
    }

    /** Certification by the double scan scales an infeasible gamma until the verdict holds, and the decimal pass agrees. */
    @Test
    void certifyingByScanGivesAGammaTheDecimalPassAccepts() {
        ConstraintSet set = ConstraintSet.of(11, 0.1, 1e-4);
        ExactTarget target = ExactTarget.of(TENTH, new BigDecimal("3"), new BigDecimal("0.0001"), null);
        double em = Math.exp(0.3);
        HighPrecisionVerifier.Certified c = HighPrecisionVerifier.certifyByScan(set, target, NoiseFunctions.constant(11, 1), em,
                (x, th, keep) -> set.scanAll(x, em, th, keep));
        assertTrue(c.rescaled());
        assertTrue(c.factor() < 1 && c.factor() > 0.5, "factor " + c.factor());
        assertEquals(Verdict.HOLDS, HighPrecisionVerifier.verify(set, target, c.gamma()).verdict());
    }

    private static BigDecimal[] free(double[] gamma) {
        double[] x = DarrmOptimizer.free(gamma);
        BigDecimal[] b = new BigDecimal[x.length];
        for (int i = 0; i < x.length; i++) {
            b[i] = new BigDecimal(x[i]);
        }
        return b;
    }

    /**
     * For gamma = 1 and the multiset {j x (a,b), rest x (0,0)}: alpha = Bin(j, a), alpha' = Bin(j, b), cost =
     * sum_{l <= h} (E alpha'_l - alpha_l) + sum_{l >= mid} (alpha_l - E alpha'_l); minus the bound E - 1.
     */
    private static BigDecimal excessOfBinomialMultiset(int j, int rest, BigDecimal eps, BigDecimal mEps, int digits) {
        long p = digits + 30;
        Apfloat one = new Apfloat(1, p);
        Apfloat t = ApfloatMath.exp(new Apfloat(eps, p));
        Apfloat e = ApfloatMath.exp(new Apfloat(mEps, p));
        Apfloat a = t.divide(t.add(one));
        Apfloat b = one.divide(t.add(one));
        int k = j + rest;
        int h = (k - 1) / 2;
        Apfloat cost = new Apfloat(0, p);
        Apfloat binom = one;
        for (int l = 0; l <= j; l++) {
            if (l > 0) {
                binom = binom.multiply(new Apfloat(j - l + 1, p)).divide(new Apfloat(l, p));
            }
            Apfloat al = binom.multiply(ApfloatMath.pow(a, l)).multiply(ApfloatMath.pow(b, j - l));
            Apfloat alp = binom.multiply(ApfloatMath.pow(b, l)).multiply(ApfloatMath.pow(a, j - l));
            cost = l <= h ? cost.add(e.multiply(alp).subtract(al)) : cost.add(al.subtract(e.multiply(alp)));
        }
        Apfloat excess = cost.subtract(e.subtract(one));
        return new BigDecimal(excess.toString(true)).round(new MathContext(digits));
    }
}
