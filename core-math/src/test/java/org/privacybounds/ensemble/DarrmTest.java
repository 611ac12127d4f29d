package org.privacybounds.ensemble;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.apache.commons.numbers.combinatorics.LogBinomialCoefficient;
import org.apache.commons.numbers.fraction.BigFraction;
import org.apfloat.Apfloat;
import org.apfloat.ApfloatMath;
import org.junit.jupiter.api.Test;
import org.privacybounds.testing.ReferenceValues;
import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.validation.BadInputException;

/** Reference values of the DaRRM paper (recomputed) and property tests. */
class DarrmTest {
    /** The paper's tables and independently computed LP optima, each with its source. */
    static final ReferenceValues REF = ReferenceValues.load("/ensemble/darrm-reference.txt");

    private static final double EPS = 0.1;

    static DarrmOptimizer.Result optimize(int k, double delta0, double m, double delta) {
        ConstraintSet set = ConstraintSet.of(k, EPS, delta0);
        double em = Math.exp(m * EPS);
        return DarrmOptimizer.optimize(set, m, delta, DarrmOptimizer.objective(k, 0.75), (x, th, keep) -> set.scanAll(x, em, th, keep), null);
    }

    @Test
    void gammaOptK11ApproximateDp() {
        double d = 1e-5;
        DarrmOptimizer.Result r3 = optimize(11, d, 3, 1 - Math.pow(1 - d, 3));
        assertArrayEquals(REF.values("gammaOpt.approximate.m3"), Arrays.copyOfRange(r3.gamma(), 6, 12), 1e-5);
        assertEquals(REF.value("objective.approximate.m3"), r3.objective(), 1e-6);
        assertEquals(31824, r3.constraints());
        assertTrue(r3.maxCost() <= r3.bound());
        DarrmOptimizer.Result r5 = optimize(11, d, 5, 1 - Math.pow(1 - d, 5));
        assertArrayEquals(REF.values("gammaOpt.approximate.m5"), Arrays.copyOfRange(r5.gamma(), 6, 12), 1e-5);
        assertEquals(REF.value("objective.approximate.m5"), r5.objective(), 1e-6);
        DarrmOptimizer.Result r1 = optimize(11, d, 1, d);
        assertArrayEquals(NoiseFunctions.subsampling(11, 1), r1.gamma(), 1e-5, "gamma_opt = gamma_Sub at m = 1");
        assertEquals(-0.25, r1.objective(), 1e-6);
        DarrmOptimizer.Result r7 = optimize(11, d, 7, 1 - Math.pow(1 - d, 7));
        assertEquals(REF.value("objective.approximate.m7"), r7.objective(), 1e-6);
    }

    @Test
    void gammaOptK11PureDpAndConstraintGenerationEqualsTheFullLp() {
        double[] obj = REF.values("objective.pure.m2to5");
        ConstraintSet set = ConstraintSet.of(11, EPS, 0);
        assertEquals(364, set.size());
        for (int m = 2; m <= 5; m++) {
            DarrmOptimizer.Result r = optimize(11, 0, m, 0);
            assertArrayEquals(REF.values("gammaOpt.pure.m" + m), Arrays.copyOfRange(r.gamma(), 6, 12), 1e-5, "m = " + m);
            assertEquals(obj[m - 2], r.objective(), 1e-6);
            // the full LP over all 364 rows gives the same optimum
            double em = Math.exp(m * EPS);
            ConstraintSet.ScanResult all = set.scanAll(new double[6], em, Double.NEGATIVE_INFINITY, Integer.MAX_VALUE);
            assertEquals(364, all.above().size());
            double[] c = DarrmOptimizer.objective(11, 0.75);
            double[] x = DarrmOptimizer.solve(c, all.above(), ConstraintSet.bound(m, EPS, 0));
            double full = 0;
            for (int i = 0; i < 6; i++) {
                full += c[i] * x[i];
            }
            assertEquals(full, r.objective(), 1e-9);
            // certified in 60-digit arithmetic
            HighPrecisionVerifier.Certificate cert = HighPrecisionVerifier.verify(set, r.gamma(), m, 0);
            assertTrue(cert.certified(), cert.toString());
            assertEquals(364, cert.multisets());
        }
        for (int m = 6; m <= 11; m++) {
            DarrmOptimizer.Result r = optimize(11, 0, m, 0);
            for (double g : r.gamma()) {
                assertEquals(1, g, 1e-9, "m = " + m + ": gamma_opt = 1 (no noise)");
            }
            assertEquals(REF.value("objective.pure.noNoise"), r.objective(), 1e-6);
        }
    }

    @Test
    void gammaSubFractionsAndFamilies() {
        String[][] want = {{"1", "9 / 11", "7 / 11", "5 / 11", "3 / 11", "1 / 11"}, {"1", "1", "49 / 55", "23 / 33", "73 / 165", "5 / 33"},
            {"1", "1", "1", "29 / 33", "20 / 33", "50 / 231"}, {"1", "1", "1", "1", "26 / 33", "10 / 33"}, {"1", "1", "1", "1", "1", "5 / 11"}};
        for (int i = 0; i < want.length; i++) {
            int m = 2 * i + 1;
            BigFraction[] g = NoiseFunctions.subsamplingExact(11, m);
            for (int l = 0; l <= 5; l++) {
                assertEquals(want[i][l], g[l].toString(), "m = " + m + ", l = " + l);
                assertEquals(g[l], g[11 - l]);
            }
            assertArrayEquals(NoiseFunctions.subsamplingExact(11, m + 1), g, "gamma_Sub(m even) = gamma_Sub(m - 1), m = " + (m + 1));
        }
        for (int m = 1; m <= 5; m++) {
            assertArrayEquals(NoiseFunctions.subsampling(11, 2 * m - 1), NoiseFunctions.doubleSubsampling(11, m));
        }
        assertArrayEquals(NoiseFunctions.constant(11, 1), NoiseFunctions.doubleSubsampling(11, 6));
        // p_const: pure DP (tau = K, lambda = 0) and E1 (lambda = K Delta)
        double[] pure = REF.values("pConst.pure.m1to11");
        for (int i = 0; i < pure.length; i++) {
            int m = 2 * i + 1;
            assertEquals(pure[i], NoiseFunctions.pConst(m, EPS, 0, 11, 0), 1e-6, "m = " + m);
        }
        double[] approx = REF.values("pConst.approximate.m1to7");
        for (int i = 0; i < approx.length; i++) {
            int m = 2 * i + 1;
            assertEquals(approx[i], NoiseFunctions.pConst(m, EPS, 1 - Math.pow(1 - 1e-5, m), 11, 11e-5), 1e-6, "m = " + m);
        }
        BadInputException e = assertThrows(BadInputException.class, () -> NoiseFunctions.check(new double[] {1, 0.5, 0.4, 1}));
        assertTrue(e.getMessage().contains("symmetric"));
        assertEquals("gamma(1)", e.parameter());
        assertThrows(BadInputException.class, () -> NoiseFunctions.check(new double[] {1, 1.5, 1.5, 1}));
        assertThrows(BadInputException.class, () -> NoiseFunctions.check(new double[] {1, 1, 1}));
        assertThrows(BadInputException.class, () -> NoiseFunctions.subsampling(11, 12));
    }

    @Test
    void poissonBinomialTestVectorAndSubsamplingMajority() {
        double[] p = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99};
        double[] a = PoissonBinomial.pmf(p);
        assertEquals(1.81440e-7, a[0], 1e-12);
        assertEquals(0.284617855, a[6], 1e-9);
        assertEquals(3.41288640e-4, a[11], 1e-12);
        assertEquals(1, Arrays.stream(a).sum(), 1e-12);
        double g1 = 0;
        for (int l = 6; l <= 11; l++) {
            g1 += a[l];
        }
        assertEquals(0.7675995008, g1, 1e-10);
        // SubMaj (m = 3) by brute force over all 165 subsets = DaRRM with gamma_Sub
        double sub = 0;
        int subsets = 0;
        for (int i = 0; i < 11; i++) {
            for (int j = i + 1; j < 11; j++) {
                for (int k = j + 1; k < 11; k++) {
                    double[] s = PoissonBinomial.pmf(p[i], p[j], p[k]);
                    sub += s[2] + s[3];
                    subsets++;
                }
            }
        }
        sub /= subsets;
        assertEquals(0.6316, sub, 1e-12);
        assertEquals(sub, ErrorMetric.probabilityOne(NoiseFunctions.subsampling(11, 3), p), 1e-12);
        assertEquals(0.1359995008, ErrorMetric.error(NoiseFunctions.subsampling(11, 3), p), 1e-10);
        // m = 1: E(gamma_Sub; p) = |P(g = 1) - mean p| for any p
        SplittableRandom r = new SplittableRandom(3);
        for (int t = 0; t < 100; t++) {
            double[] q = r.doubles(11).toArray();
            double[] aq = PoissonBinomial.pmf(q);
            double g = 0;
            for (int l = 6; l <= 11; l++) {
                g += aq[l];
            }
            assertEquals(Math.abs(g - Arrays.stream(q).average().getAsDouble()), ErrorMetric.error(NoiseFunctions.subsampling(11, 1), q), 1e-12);
        }
    }

    @Test
    void compositionTables() {
        // Tables 5, 2, 7, 9 (m = 1, 3, 5, 7), MNIST then Fashion-MNIST, Q = 20, 50, 100, delta' = 1e-4
        int[] ms = {1, 3, 5, 7};
        int[] qs = {20, 50, 100};
        for (int i = 0; i < 4; i++) {
            for (int d = 0; d < 2; d++) {
                double e = ms[i] * (d == 0 ? 0.0892 : 0.0852);
                for (int j = 0; j < 3; j++) {
                    Guarantee g = general(qs[j], e, ms[i] * 1e-4, 1e-4);
                    assertEquals(REF.values("table.eps.m" + ms[i] + (d == 0 ? ".mnist" : ".fashion"))[j], Math.round(g.epsilon() * 1000) / 1000.0, 1e-12,
                            "m=" + ms[i] + " Q=" + qs[j]);
                    assertEquals(REF.values("table.delta.m" + ms[i])[j], Math.round(g.delta() * 1000) / 1000.0, 1e-12);
                }
            }
        }
        double[] sixDigits = REF.values("table.m7.mnist.q100.sixDigits");
        assertEquals(sixDigits[0], general(100, 7 * 0.0892, 7e-4, 1e-4).epsilon(), 1e-6);
        assertEquals(sixDigits[1], general(100, 7 * 0.0892, 7e-4, 1e-4).delta(), 1e-6);
        // Table 3: K = 35, eps = 0.1, Delta = 1e-5, delta' = 0.1
        int[] mm = {10, 13, 15, 20};
        double[] m = REF.values("table3.m");
        double[] dl = REF.values("table3.delta");
        double[] pc = REF.values("table3.pConst");
        Guarantee all = general(35, 0.1, 1e-5, 0.1);
        assertEquals(REF.value("table3.tau"), all.epsilon() / 0.1, 1e-6);
        assertEquals(REF.value("table3.lambda"), all.delta(), 1e-6);
        for (int i = 0; i < 4; i++) {
            Guarantee g = general(mm[i], 0.1, 1e-5, 0.1);
            assertEquals(m[i], g.epsilon() / 0.1, 1e-6);
            assertEquals(dl[i], g.delta(), 1e-6);
            assertEquals("ln(e + sqrt(k eps^2)/delta')", Composition.generalBranch(mm[i], 0.1, 0.1));
            assertEquals(pc[i], NoiseFunctions.pConst(g.epsilon() / 0.1, 0.1, g.delta(), all.epsilon() / 0.1, all.delta()), 1e-6);
        }
        assertEquals(3, simple(3, 1, 0.1).epsilon());
        assertEquals(0.3, simple(3, 1, 0.1).delta(), 1e-15);
    }

    @Test
    void randomPointsOfTheDpPolygonNeverExceedTheVerifiedMaximum() {
        double d = 1e-5;
        DarrmOptimizer.Result r = optimize(11, d, 3, 1 - Math.pow(1 - d, 3));
        double e = Math.exp(EPS);
        double em = Math.exp(3 * EPS);
        double[][] corners = ConstraintSet.of(11, EPS, d).corners();
        SplittableRandom rnd = new SplittableRandom(11);
        double worst = Double.NEGATIVE_INFINITY;
        for (int t = 0; t < 5000; t++) {
            double[] p = new double[11];
            double[] q = new double[11];
            for (int i = 0; i < 11; i++) {
                if (rnd.nextInt(3) == 0) {
                    double[] c = corners[rnd.nextInt(corners.length)];
                    p[i] = c[0];
                    q[i] = c[1];
                    continue;
                }
                do {
                    p[i] = rnd.nextDouble();
                    q[i] = rnd.nextDouble();
                } while (!(p[i] <= e * q[i] + d && q[i] <= e * p[i] + d && 1 - p[i] <= e * (1 - q[i]) + d && 1 - q[i] <= e * (1 - p[i]) + d));
            }
            double[] a = PoissonBinomial.pmf(p);
            double[] b = PoissonBinomial.pmf(q);
            double f = 0;
            for (int l = 0; l <= 11; l++) {
                double g = r.gamma()[l];
                f += (l <= 5 ? em * b[l] - a[l] : a[l] - em * b[l]) * g;
            }
            worst = Math.max(worst, f);
        }
        assertTrue(worst <= r.maxCost() + 1e-12, worst + " > " + r.maxCost());
        assertTrue(r.maxCost() <= r.bound());
    }

    @Test
    void doublePrecisionCannotCertifyPureDpAtK101() {
        // gamma = 1 at K = 101, m = 40, Delta = 0 violates the bound by 7.1e-15 at {50 x (0,0), 51 x (a,b)}; the worst
        // multiset is {40 x (0,0), 61 x (a,b)}, 9.5626e-8 above the bound (50-digit mpmath: 9.5626253879059695e-8)
        ConstraintSet set = ConstraintSet.of(101, EPS, 0);
        assertEquals(182104, set.size());
        HighPrecisionVerifier.Certificate c = HighPrecisionVerifier.verify(set, NoiseFunctions.constant(101, 1), 40, 0);
        assertEquals(182104, c.multisets());
        double excess = c.maxCost().subtract(c.bound()).doubleValue();
        assertEquals(9.5626253879059695e-8, excess, 1e-20);
        assertTrue(!c.certified());
        assertArrayEquals(new int[] {61, 0, 40, 0}, c.worstMultiset());
        // the optimizer returns a gamma that the 60-digit pass certifies
        DarrmOptimizer.Result r = optimize(101, 0, 40, 0);
        HighPrecisionVerifier.Certificate rc = HighPrecisionVerifier.verify(set, r.gamma(), 40, 0);
        assertTrue(rc.certified(), rc.maxCost() + " > " + rc.bound());
    }

    /**
     * The settings that once ended with "60-digit verification found a cost above the bound": the certified path
     * scales gamma until the 60-digit check passes, and the released DaRRM is then (m eps, delta)-DP on exact output laws.
     */
    @Test
    void certifiedGammaIsDpOnExactOutputLaws() {
        double[][] cases = {{9, 0.25, 1e-3, 1.5}, {15, 0.1, 1e-5, 3}, {11, 40, 0, 3}};
        for (double[] c : cases) {
            int k = (int) c[0];
            double eps = c[1];
            double d0 = c[2];
            double m = c[3];
            double delta = -Math.expm1(m * Math.log1p(-d0));
            ConstraintSet set = ConstraintSet.of(k, eps, d0);
            double em = Math.exp(m * eps);
            DarrmOptimizer.Result r = DarrmOptimizer.optimize(set, m, delta, DarrmOptimizer.objective(k, 0.75),
                    (x, th, keep) -> set.scanAll(x, em, th, keep), null);
            HighPrecisionVerifier.Certified cert = HighPrecisionVerifier.certify(set, r.gamma(), m, delta);
            assertTrue(cert.certificate().certified());
            assertTrue(cert.factor() > 1 - 1e-12 && cert.factor() <= 1, "factor " + cert.factor());
            assertTrue(exactHockeyStickOverCorners(k, eps, d0, m, cert.gamma(), 400, new SplittableRandom(k)).compareTo(new BigDecimal(delta)) <= 0);
        }
    }

    /**
     * The largest {@code H_{e^{m eps}}} between DaRRM's output laws (a bit) on D and D' over random multisets of the corners of
     * the (eps, Delta)-DP polygon, in 80-digit decimals: {@code P(1) = sum_l alpha_l [gamma(l) 1{l >= mid} + (1 - gamma(l)) / 2]}.
     */
    private static BigDecimal exactHockeyStickOverCorners(int k, double eps, double d0, double m, double[] gamma, int draws, SplittableRandom rnd) {
        MathContext mc = new MathContext(80);
        Apfloat one = new Apfloat(1, 90);
        Apfloat e = ApfloatMath.exp(new Apfloat(new BigDecimal(eps), 90));
        Apfloat d = new Apfloat(new BigDecimal(d0), 90);
        BigDecimal em = dec(ApfloatMath.exp(new Apfloat(new BigDecimal(eps), 90)
                .multiply(new Apfloat(new BigDecimal(m), 90))), mc);
        Apfloat[][] corners = {{one.subtract(one), one.subtract(one)}, {one, one}, {e.add(d).divide(e.add(one)), one.subtract(d).divide(e.add(one))},
            {one.subtract(d).divide(e.add(one)), e.add(d).divide(e.add(one))}, {one.subtract(one), d}, {d, one.subtract(one)}, {one.subtract(d), one},
            {one, one.subtract(d)}};
        int used = d0 > 0 ? 8 : 4;
        BigDecimal worst = BigDecimal.ZERO;
        BigDecimal half = new BigDecimal("0.5");
        for (int t = 0; t < draws; t++) {
            BigDecimal[] a = {BigDecimal.ONE};
            BigDecimal[] b = {BigDecimal.ONE};
            for (int i = 0; i < k; i++) {
                Apfloat[] c = corners[rnd.nextInt(used)];
                if (rnd.nextBoolean()) {
                    c = corners[used == 8 ? 2 + rnd.nextInt(2) : 2 + rnd.nextInt(2)];
                }
                a = convolve(a, dec(c[0], mc), mc);
                b = convolve(b, dec(c[1], mc), mc);
            }
            BigDecimal p1 = BigDecimal.ZERO;
            BigDecimal q1 = BigDecimal.ZERO;
            for (int l = 0; l <= k; l++) {
                BigDecimal g = new BigDecimal(gamma[l]);
                BigDecimal out1 = (2 * l > k ? g : BigDecimal.ZERO).add(BigDecimal.ONE.subtract(g).multiply(half), mc);
                p1 = p1.add(a[l].multiply(out1, mc), mc);
                q1 = q1.add(b[l].multiply(out1, mc), mc);
            }
            BigDecimal h = p1.subtract(em.multiply(q1, mc), mc).max(BigDecimal.ZERO)
                    .add(BigDecimal.ONE.subtract(p1).subtract(em.multiply(BigDecimal.ONE.subtract(q1), mc), mc).max(BigDecimal.ZERO));
            worst = worst.max(h);
        }
        return worst;
    }

    private static BigDecimal dec(Apfloat x, MathContext mc) {
        return new BigDecimal(x.toString(true)).round(mc);
    }

    private static BigDecimal[] convolve(BigDecimal[] pmf, BigDecimal p, MathContext mc) {
        BigDecimal[] out = new BigDecimal[pmf.length + 1];
        BigDecimal r = BigDecimal.ONE.subtract(p);
        for (int l = 0; l <= pmf.length; l++) {
            BigDecimal v = BigDecimal.ZERO;
            if (l < pmf.length) {
                v = v.add(pmf[l].multiply(r, mc), mc);
            }
            if (l > 0) {
                v = v.add(pmf[l - 1].multiply(p, mc), mc);
            }
            out[l] = v;
        }
        return out;
    }

    /**
     * Both composition theorems the project prints (simple, Theorem 2.2; general, Theorem 2.3 = Kairouz et al. 3.4) against
     * the exact hockey-stick of k copies of the worst (eps, delta)-DP mechanism (Kairouz et al.'s four outcomes:
     * P = (delta, (1-delta) e^eps/(1+e^eps), (1-delta)/(1+e^eps), 0), Q its mirror), which every (eps, delta)-DP mechanism's
     * composition is dominated by.
     */
    @Test
    void compositionsHoldForTheWorstCaseMechanism() {
        double worstRatio = 0;
        for (int k : new int[] {1, 2, 5, 20, 100}) {
            for (double eps : new double[] {0.01, 0.1, 0.5, 2}) {
                for (double d : new double[] {0, 1e-6, 1e-3}) {
                    for (double dp : new double[] {1e-5, 0.1}) {
                        for (Guarantee g : new Guarantee[] {simple(k, eps, d), general(k, eps, d, dp)}) {
                            double h = canonicalHockeyStick(k, eps, d, g.epsilon());
                            assertTrue(h <= g.delta() * (1 + 1e-12) + 1e-15, k + " " + eps + " " + d + " " + g + ": exact " + h);
                            if (g.delta() > 0) {
                                worstRatio = Math.max(worstRatio, h / g.delta());
                            }
                        }
                    }
                }
            }
        }
        // the oracle is sharp: simple composition with delta > 0 is nearly tight for k = 1
        assertTrue(worstRatio > 0.5, "worst ratio " + worstRatio);
    }

    /** {@code H_{e^epsPrime}} of the k-fold product of the canonical (eps, delta) mechanism, summed over the binomial of its two middle outcomes. */
    private static double canonicalHockeyStick(int k, double eps, double d, double epsPrime) {
        // any first outcome (mass delta under P, 0 under Q) counts in full; the last outcome (0 under P) never does
        double h = -Math.expm1(k * Math.log1p(-d));
        double logNorm = k * Math.log1p(-d) - k * Math.log1p(Math.exp(eps));
        double s = 0;
        for (int i = 0; i <= k; i++) {
            double logC = LogBinomialCoefficient.value(k, i);
            double lp = logC + logNorm + eps * i;
            double lq = logC + logNorm + eps * (k - i) + epsPrime;
            if (lp > lq) {
                s += Math.exp(lp) * -Math.expm1(lq - lp);
            }
        }
        return h + s;
    }

    /** Basic composition of k (eps, delta) mechanisms through the one composition module. */
    private static Guarantee simple(long k, double eps, double delta) {
        return Composition.basic(Guarantee.of(eps, delta, "test", 0), k);
    }

    /** General composition (Theorem 2.3) through the one composition module. */
    private static Guarantee general(long k, double eps, double delta, double deltaPrime) {
        return Composition.general(Guarantee.of(eps, delta, "test", 0), k, deltaPrime);
    }
}
