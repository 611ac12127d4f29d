package org.privacybounds.pufferfish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.apache.commons.math3.optim.MaxIter;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.numbers.gamma.LogGamma;
import org.junit.jupiter.api.Test;
import org.privacybounds.validation.BadInputException;

/** Reference values of the Renyi Pufferfish paper (recomputed), its Table 1 and property tests of its Sections 2-4. */
class PufferfishTest {
    private static final double TOL = 1e-6;

    /** The per-group counts behind Table 1 (a test resource, computed from the UCI files). */
    static Map<String, Map<String, DiscreteLaw>> table1() throws IOException {
        String text;
        try (InputStream in = PufferfishTest.class.getResourceAsStream("/pufferfish/table1-counts.txt")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, Map<String, TreeMap<Double, Long>>> raw = new LinkedHashMap<>();
        TreeMap<Double, Long> current = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String body = line.trim();
            int colon = body.indexOf(": ");
            if (body.matches("^[a-z]+ [a-z]+=[a-z0-9]+ ?:.*")) {
                String head = body.substring(0, colon).trim();
                String dataset = head.substring(0, head.indexOf(' '));
                String secret = head.substring(head.indexOf('=') + 1).trim();
                current = new TreeMap<>();
                raw.computeIfAbsent(dataset, k -> new LinkedHashMap<>()).put(secret, current);
                body = body.substring(colon + 1);
            }
            for (String tok : body.trim().split("\\s+")) {
                String[] vc = tok.split(":");
                current.put(Double.parseDouble(vc[0]), Long.parseLong(vc[1]));
            }
        }
        Map<String, Map<String, DiscreteLaw>> out = new LinkedHashMap<>();
        raw.forEach((d, m) -> {
            Map<String, DiscreteLaw> laws = new LinkedHashMap<>();
            m.forEach((s, c) -> laws.put(s, DiscreteLaw.of(c)));
            out.put(d, laws);
        });
        return out;
    }

    @Test
    void table1StudentAndHeartAsRecomputed() throws IOException {
        Map<String, Map<String, DiscreteLaw>> t = table1();
        Map<String, DiscreteLaw> student = t.get("student");
        assertEquals(214, student.get("no").total());
        assertEquals(181, student.get("yes").total());
        DiscreteLaw no = student.get("no");
        DiscreteLaw yes = student.get("yes");
        assertEquals(8, Couplings.wInfinity(no, yes));
        BigDecimal w22 = Couplings.wPowerExact(no, yes, 2);
        assertEquals(0, w22.round(new MathContext(30)).compareTo(new BigDecimal(200643).divide(new BigDecimal(38734), new MathContext(30))));
        assertEquals(2.275966, Couplings.wP(no, yes, 2), TOL);
        assertEquals(1.166908, Couplings.wP(no, yes, 1), TOL);
        assertTrue(Math.abs(Couplings.wP(no, yes, 2) - 2.76) > 0.4, "the paper's 2.76 is a misprint of 2.276");

        Map<String, DiscreteLaw> heart = t.get("heart");
        assertEquals(List.of(164L, 55L, 36L, 35L, 13L), heart.values().stream().map(DiscreteLaw::total).toList());
        Sensitivities.Result r = Sensitivities.of(heart, 2, Double.NaN);
        assertEquals(Math.sqrt(1583.0 / 26), r.wP(), TOL);
        assertEquals(7.802859, r.wP(), TOL);
        assertEquals("0", r.wPPair().s());
        assertEquals("4", r.wPPair().t());
        assertEquals(13, r.wInfinity());
        assertEquals(List.of("0", "2"), List.of(r.wInfinityPair().s(), r.wInfinityPair().t()));
        // the pairwise table (W_inf, W_2), computed independently and rounded to 4 decimals
        double[][] expected = {{7, 3.9936}, {13, 6.5118}, {10, 4.2038}, {13, 7.8029}, {8, 3.1433}, {5, 1.6934}, {12, 5.1384}, {5, 2.6318},
                {10, 3.5231}, {10, 4.4844}};
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k][0], r.pairs().get(k).wInfinity(), 0, r.pairs().get(k).toString());
            assertEquals(expected[k][1], r.pairs().get(k).wP(), 5e-5, r.pairs().get(k).toString());
        }
    }

    @Test
    void bernoulliLawsGiveSqrtOfRateDifference() {
        // Adult-style Bernoulli laws: W_inf = 1 when the rates differ, W_2 = sqrt(|p - p'|)
        DiscreteLaw a = DiscreteLaw.of(Map.of(0.0, 763L, 1.0, 276L));
        DiscreteLaw b = DiscreteLaw.of(Map.of(0.0, 246L, 1.0, 25L));
        assertEquals(1, Couplings.wInfinity(a, b));
        assertEquals(Math.sqrt(276.0 / 1039 - 25.0 / 271), Couplings.wP(a, b, 2), 1e-12);
        assertEquals(0.416400, Couplings.wP(a, b, 2), TOL);
    }

    @Test
    void example1CorrelatedCounts() {
        // p = 0.3, rho = 0.5: f | X1=0 ~ Bern(0.15), f | X1=1 ~ 1 + Bern(0.65)
        DiscreteLaw f0 = DiscreteLaw.of(Map.of(0.0, 85L, 1.0, 15L));
        DiscreteLaw f1 = DiscreteLaw.of(Map.of(1.0, 35L, 2.0, 65L));
        Map<String, DiscreteLaw> laws = new LinkedHashMap<>();
        laws.put("X1=0", f0);
        laws.put("X1=1", f1);
        Sensitivities.Result r = Sensitivities.of(laws, 2, Double.NaN);
        assertEquals(2, r.wInfinity());
        assertEquals(2, r.range(), "Delta_GROUP of the sum of two 0/1 records");
        assertEquals(1 + 3 * 0.5, r.wP() * r.wP(), 1e-12);
        Noise.Cauchy c = new Noise.Cauchy(1, 2);
        assertEquals(1.252763, Mechanisms.cauchyCorollary41(r.wP(), c, 1, 2, 1, true), TOL);
        assertEquals(0.810930, Mechanisms.cauchyCorollary41(r.wP(), c, 1, 2, 1, false), TOL);
        assertEquals(1.609438, Mechanisms.cauchyCorollary41(r.wInfinity(), c, 1, 2, 1, true), TOL);
        assertEquals(1.098612, Mechanisms.gwm(c, r.wInfinity(), 2), TOL);
        // direct 1-D DAGWM equals Corollary 4.1 at n = 1
        assertEquals(0.810930, Mechanisms.dagwm(Sensitivities.logDistributionAware(laws, c, 1, 2), 1, 2), TOL);
    }

    @Test
    void example2TranslatesGainNothingFromApproximation() {
        // X_i iid P(1) = .5, P(2) = .499, P(100) = .001; f = (X1 + X2)/2; secrets X1 = a
        Map<String, DiscreteLaw> laws = new LinkedHashMap<>();
        for (double a : new double[] {1, 2, 100}) {
            laws.put("X1=" + (int) a, DiscreteLaw.of(Map.of((a + 1) / 2, 500L, (a + 2) / 2, 499L, (a + 100) / 2, 1L)));
        }
        Sensitivities.Result r = Sensitivities.of(laws, 2, 3e-3);
        assertEquals(49.5, r.wInfinity());
        assertEquals(49.5, r.nearRadius(), "the paper's Delta_{G,delta} = 1 does not reproduce");
    }

    @Test
    void nearRadiusIsNotTheQuantileCoupling() {
        DiscreteLaw mu = DiscreteLaw.of(0, 10);
        DiscreteLaw nu = DiscreteLaw.of(10, 20);
        assertEquals(10, Couplings.wInfinity(mu, nu));
        assertEquals(0, Couplings.nearRadius(mu, nu, 0.6));
        assertEquals(10, Couplings.nearRadius(mu, nu, 0.4));
        assertEquals(Couplings.wInfinity(mu, nu), Couplings.nearRadius(mu, nu, 0));
    }

    @Test
    void greedyNearMassAndWassersteinMatchLinearProgramsOnRandomLaws() {
        SplittableRandom rnd = new SplittableRandom(20261122);
        for (int trial = 0; trial < 60; trial++) {
            DiscreteLaw mu = randomLaw(rnd);
            DiscreteLaw nu = randomLaw(rnd);
            double z = rnd.nextInt(0, 6);
            double lp = lpNearMass(mu, nu, z);
            assertEquals(lp, Couplings.nearMass(mu, nu, z) / (double) Couplings.denominator(mu, nu), 1e-9, mu + " " + nu + " z=" + z);
            for (int p = 1; p <= 2; p++) {
                double t = lpTransport(mu, nu, p);
                assertEquals(t, Math.pow(Couplings.wP(mu, nu, p), p), 1e-9, mu + " " + nu + " p=" + p);
            }
            // properties: W_1 <= W_2 <= W_inf <= range; Delta_{G,delta} <= Delta_G; DAGWM (q=1) <= GWM
            double w1 = Couplings.wP(mu, nu, 1);
            double w2 = Couplings.wP(mu, nu, 2);
            double wi = Couplings.wInfinity(mu, nu);
            assertTrue(w1 <= w2 + 1e-12 && w2 <= wi + 1e-12);
            Map<String, DiscreteLaw> laws = Map.of("a", mu, "b", nu);
            Sensitivities.Result r = Sensitivities.of(new TreeMap<>(laws), 2, 0.1);
            assertTrue(r.wInfinity() <= r.range());
            assertTrue(r.nearRadius() <= r.wInfinity());
            for (Noise n : List.of(new Noise.Gaussian(1.5), new Noise.Laplace(2), new Noise.Cauchy(1, 2))) {
                double alpha = 2.5;
                double dagwm = Mechanisms.dagwm(Sensitivities.logDistributionAware(laws, n, 1, alpha), 1, alpha);
                assertTrue(dagwm <= Mechanisms.gwm(n, r.wInfinity(), alpha) + 1e-12, n.toString());
            }
        }
    }

    private static DiscreteLaw randomLaw(SplittableRandom rnd) {
        int k = rnd.nextInt(1, 6);
        double[] v = new double[k];
        Map<Double, Long> m = new TreeMap<>();
        for (int i = 0; i < k; i++) {
            v[i] = rnd.nextInt(0, 12);
            m.merge(v[i], (long) rnd.nextInt(1, 9), Long::sum);
        }
        return DiscreteLaw.of(m);
    }

    private static double lpNearMass(DiscreteLaw mu, DiscreteLaw nu, double z) {
        int n = mu.size();
        int m = nu.size();
        double[] obj = new double[n * m];
        List<LinearConstraint> cons = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                obj[i * m + j] = Math.abs(mu.atoms()[i] - nu.atoms()[j]) <= z ? 1 : 0;
            }
        }
        addMarginals(mu, nu, cons, Relationship.LEQ);
        return new SimplexSolver().optimize(new MaxIter(10000), new LinearObjectiveFunction(obj, 0), new LinearConstraintSet(cons), GoalType.MAXIMIZE,
                new NonNegativeConstraint(true)).getValue();
    }

    private static double lpTransport(DiscreteLaw mu, DiscreteLaw nu, int p) {
        int n = mu.size();
        int m = nu.size();
        double[] obj = new double[n * m];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                obj[i * m + j] = Math.pow(Math.abs(mu.atoms()[i] - nu.atoms()[j]), p);
            }
        }
        List<LinearConstraint> cons = new ArrayList<>();
        addMarginals(mu, nu, cons, Relationship.EQ);
        return new SimplexSolver().optimize(new MaxIter(10000), new LinearObjectiveFunction(obj, 0), new LinearConstraintSet(cons), GoalType.MINIMIZE,
                new NonNegativeConstraint(true)).getValue();
    }

    private static void addMarginals(DiscreteLaw mu, DiscreteLaw nu, List<LinearConstraint> cons, Relationship rel) {
        int n = mu.size();
        int m = nu.size();
        for (int i = 0; i < n; i++) {
            double[] c = new double[n * m];
            for (int j = 0; j < m; j++) {
                c[i * m + j] = 1;
            }
            cons.add(new LinearConstraint(c, rel, mu.counts()[i] / (double) mu.total()));
        }
        for (int j = 0; j < m; j++) {
            double[] c = new double[n * m];
            for (int i = 0; i < n; i++) {
                c[i * m + j] = 1;
            }
            cons.add(new LinearConstraint(c, rel, nu.counts()[j] / (double) nu.total()));
        }
    }

    @Test
    void closedFormsOfSectionNine() {
        assertEquals(0.619124, new Noise.Laplace(1).renyi(2, 1), TOL);
        assertEquals(0.271226, new Noise.Laplace(2).renyi(3, 1), TOL);
        assertEquals(64, Math.pow(Mechanisms.gwmScale(new Noise.Gaussian(1), 8, 2, 1), 2), 1e-9);
        assertEquals(12.512925, Conversions.fromRenyi(2, 1, 1e-5).epsilon(), TOL);
        assertEquals(1 / 0.979899, Mechanisms.gawmGaussianVariance(1, 2, 1, 0.01), 1e-6);
        assertEquals(2.033333, CloseAdversary.gaussianFactor(2, 3, 3, 3, 0.5), TOL);
        Noise.Cauchy c = new Noise.Cauchy(1, 2);
        assertEquals(0.405465, c.renyi(2, 1), TOL);
        assertEquals(0.693147, Mechanisms.cauchyCorollary41(1, c, 1, 2, 1, true), TOL);
        assertEquals(0.962424, c.renyiInfinity(1), TOL);
        assertEquals(5.5, Legendre.p(2, 2), 1e-12);
        assertEquals(3.243940, Legendre.p(1.5, 2), TOL);
        assertEquals(Legendre.p(7, 3.5), Math.exp(Legendre.logLaplaceIntegral(7, 3.5)), 1e-11 * Legendre.p(7, 3.5));
        // Qbar: 2.5 y^3 and (35 y^4 + 3)/8
        assertEquals(2.5 * 27, Math.exp(Legendre.logPositivePart(3, 3)), 1e-10);
        assertEquals((35 * 16 + 3) / 8.0, Math.exp(Legendre.logPositivePart(4, 2)), 1e-10);
        // generalised Cauchy k = 4, scale 1, alpha 3, z 2: corrected bound 3.232294 >= exact 3.108303; the paper's form 4.286030
        Noise.Cauchy c4 = new Noise.Cauchy(1, 4);
        assertEquals(3.232294, c4.renyi(3, 2), TOL);
        assertEquals(3.108303, NumericDivergence.shifted(c4::logDensity, 1, 3, 2), TOL);
        assertEquals(4.286030, (c4.logK() + Legendre.logP(4, 1 + 4)) / 2, TOL);
        // Laplace GWM pure: R_inf = Delta/b; Gaussian has none
        assertEquals(0.5, new Noise.Laplace(2).renyiInfinity(1), 0);
        assertEquals(Double.POSITIVE_INFINITY, new Noise.Gaussian(1).renyi(Double.POSITIVE_INFINITY, 1));
    }

    @Test
    void everyClosedFormMatchesNumericalIntegration() {
        double[][] cases = {{1.5, 0.3, 1}, {2, 1, 1}, {3, 2, 0.7}, {8, 0.5, 2}, {2, 5, 1}};
        for (double[] k : cases) {
            double alpha = k[0];
            double z = k[1];
            double s = k[2];
            for (Noise n : List.of(new Noise.Gaussian(s), new Noise.Laplace(s), new Noise.Cauchy(s, 2))) {
                double closed = n.renyi(alpha, z);
                double numeric = NumericDivergence.shifted(n::logDensity, s, alpha, z);
                assertEquals(closed, numeric, 1e-8 * Math.max(1, closed), n + " alpha=" + alpha + " z=" + z);
            }
            Noise.Cauchy g = new Noise.Cauchy(s, 5);
            assertTrue(NumericDivergence.shifted(g::logDensity, s, alpha, z) <= g.renyi(alpha, z) + 1e-9, "Lemma D.1 bound, k = 5");
        }
        // the supremum recipe on a symmetric law with a monotone divergence equals the value at z
        Noise l = new Noise.Laplace(1);
        assertEquals(l.renyi(2, 1), NumericDivergence.supremum(l::logDensity, 1, 2, 1, 8), 1e-8);
    }

    /** Laplace's integral converges for every degree and argument the mechanisms reach (it once looped at nu = 1.5, x = 4.07). */
    @Test
    void legendreFunctionsConvergeEverywhere() {
        assertEquals(Legendre.logP(2, 4.070084018689929), Math.log((3 * 4.070084018689929 * 4.070084018689929 - 1) / 2), 1e-13);
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 2000; i++) {
            double nu = 0.25 + 20 * r.nextDouble();
            double x = 1 + Math.pow(10, -20 + 328 * r.nextDouble());
            double v = Legendre.logP(nu, x);
            assertTrue(Double.isFinite(v) && v >= 0, nu + " " + x + " " + v);
            if (x > 1e12) {
                // P_nu(x) ~ Gamma(nu + 1/2) / (sqrt(pi) Gamma(nu + 1)) (2x)^nu, relative error O(x^-2) + O(x^(-2nu-1))
                double lead = LogGamma.value(nu + 0.5) - 0.5 * Math.log(Math.PI) - LogGamma.value(nu + 1) + nu * (Math.log(2) + Math.log(x));
                assertEquals(lead, v, 1e-11 * Math.max(1, Math.abs(lead)), nu + " " + x);
            }
        }
        assertEquals(1.5 * Math.log(2 * 1e300) + LogGamma.value(2) - 0.5 * Math.log(Math.PI) - LogGamma.value(2.5), Legendre.logP(1.5, 1e300), 1e-12);
    }

    @Test
    void calibrationRoundTrips() {
        for (Noise n : List.of(new Noise.Gaussian(1), new Noise.Laplace(1), new Noise.Cauchy(1, 2), new Noise.Cauchy(1, 3))) {
            for (double alpha : new double[] {1.5, 2, 3, 10, Double.POSITIVE_INFINITY}) {
                if (n instanceof Noise.Gaussian && alpha == Double.POSITIVE_INFINITY) {
                    assertThrows(BadInputException.class, () -> Mechanisms.gwmScale(n, 8, Double.POSITIVE_INFINITY, 1));
                    continue;
                }
                for (double eps : new double[] {0.1, 1, 5}) {
                    if (n instanceof Noise.Cauchy c && c.k() > 2 && alpha < Double.POSITIVE_INFINITY && eps <= c.logK() / (alpha - 1)) {
                        // the Lemma D.1 bound never falls below log(K_k)/(alpha - 1): a clear error, not a loop
                        assertThrows(BadInputException.class, () -> Mechanisms.gwmScale(n, 8, alpha, eps));
                        continue;
                    }
                    double s = Mechanisms.gwmScale(n, 8, alpha, eps);
                    double back = Mechanisms.gwm(n.withScale(s), 8, alpha);
                    assertTrue(back <= eps * (1 + 1e-12), n + " " + alpha + " " + eps + " -> " + back);
                    assertEquals(eps, back, 1e-9 * eps, n + " alpha=" + alpha);
                }
            }
        }
    }

    @Test
    void noiseSamplesFollowTheirLaws() {
        SplittableRandom r = new SplittableRandom(7);
        int n = 200_000;
        double sumSq = 0;
        double sumAbs = 0;
        int inside = 0;
        int insideT = 0;
        Noise g = new Noise.Gaussian(2);
        Noise l = new Noise.Laplace(3);
        Noise c = new Noise.Cauchy(1.5, 2);
        Noise c3 = new Noise.Cauchy(1, 3);
        for (int i = 0; i < n; i++) {
            double x = g.sample(r);
            sumSq += x * x;
            sumAbs += Math.abs(l.sample(r));
            inside += Math.abs(c.sample(r)) <= 1.5 ? 1 : 0;
            insideT += Math.abs(c3.sample(r)) <= 1 ? 1 : 0;
        }
        assertEquals(4, sumSq / n, 0.05);
        assertEquals(3, sumAbs / n, 0.04);
        assertEquals(0.5, inside / (double) n, 0.005);
        // k = 3: X = T_2 / sqrt(2); P(|X| <= 1) = P(|T_2| <= sqrt 2) = sqrt2 / sqrt(2 + 2) = 1/sqrt 2
        assertEquals(1 / Math.sqrt(2), insideT / (double) n, 0.005);
    }

    @Test
    void conversionsAndCloseAdversaries() {
        Conversions.Pp best = Conversions.bestFromRenyi(new double[] {2, 5, 20}, new double[] {1 * 2 / 2.0, 5 / 2.0, 20 / 2.0}, 1e-5);
        assertEquals(5, best.alpha());
        assertEquals(2.5 + Math.log(1e5) / 4, best.epsilon(), 1e-12);
        // Proposition 4.1 is the case delta' = delta: 2 delta - delta^2 (printed as 2 delta)
        Conversions.Pp approx = Conversions.fromApproximateRenyi(2, 1, 1e-5, 1e-5);
        assertEquals(2e-5 - 1e-10, approx.delta(), 1e-20);
        assertEquals(12.512925, approx.epsilon(), TOL);
        // the approximation's delta always stays in the PP delta, whatever delta' the conversion uses
        Conversions.Pp split = Conversions.fromApproximateRenyi(2, 0.1, 0.05, 1e-5);
        assertEquals(0.05 + 0.95e-5, split.delta(), 1e-18);
        assertEquals(0.05, Conversions.fromApproximateRenyi(Double.POSITIVE_INFINITY, 0.1, 0.05, 1e-5).delta());
        assertEquals(1 + 2 * 0.1, CloseAdversary.pure(1, new double[] {0.3, 0.1}), 1e-15);
        // A.5 with Gaussian noise equals Corollary A.1 (sigma^2 = q(alpha - 1/p) Delta_G^2 / (2 eps))
        double alpha = 2;
        double eps = 0.7;
        double deltaG = 3;
        double sigma = Math.sqrt(3 * (alpha - 1.0 / 3) * deltaG * deltaG / (2 * eps));
        double a5 = CloseAdversary.additive(alpha, eps, 3, 3, 3, new Noise.Gaussian(sigma), 0.5 * deltaG);
        assertEquals(CloseAdversary.gaussianFactor(alpha, 3, 3, 3, 0.5) * eps, a5, 1e-12);
        // A.4 takes both divergences at the same prior: min over priors of the sum, not the sum of the minima
        double same = CloseAdversary.renyi(2, 1, 3, 3, 3, new double[] {0, 5}, new double[] {5, 0});
        assertEquals((1 + 1 / 3.0) + Math.min((1 + 2 / 3.0) * 0 + 5, (1 + 2 / 3.0) * 5), same, 1e-12);
        assertThrows(BadInputException.class, () -> CloseAdversary.renyi(2, 1, 2, 2, 2, new double[] {0}, new double[] {0}));
        assertThrows(BadInputException.class, () -> new Noise.Gaussian(-1));
        assertThrows(BadInputException.class, () -> new Noise.Laplace(1).renyi(1, 1));
    }

    @Test
    void applications() {
        double[][] cov = {{4, 1.2}, {1.2, 1}};
        assertEquals(1.2 / 4 * 3, Applications.attributeGaussian(cov, 0, 1, 3), 1e-15);
        double[][] diffs = {{3}, {-3}};
        assertEquals(1.2 / 4 * 3, Applications.linearGaussian(new double[][] {{0, 1}}, cov, new double[][] {{1, 0}}, diffs), 1e-12);
        assertEquals(2 * 1.5 * (Math.exp(-0.5) + Math.exp(-1)), Applications.langevin(2, 1.5, 0.5, new double[] {1, 2}, false), 1e-12);
        assertEquals(2 * 1.5 * (Math.exp(-1) + Math.exp(-2)), Applications.langevin(2, 1.5, 0.5, new double[] {1, 2}, true), 1e-12);
        assertEquals(2 * 0.25 + 1, Applications.weaklyDependent(0.25, 1), 0);
        BadInputException e = assertThrows(BadInputException.class, () -> Applications.covariance(" file:cov.csv", new double[][] {{1, 2}, {2, 1}}));
        assertEquals("covariance file:cov.csv", e.parameter());
        assertTrue(e.getMessage().contains("positive definite"), e.getMessage());
    }
}
