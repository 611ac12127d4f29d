package org.privacybounds.bayes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.math3.analysis.integration.IterativeLegendreGaussIntegrator;
import org.apache.commons.math3.distribution.BetaDistribution;
import org.apfloat.Apfloat;
import org.apfloat.ApfloatMath;
import org.junit.jupiter.api.Test;
import org.privacybounds.bayes.ChainAudit.Config;
import org.privacybounds.bayes.ChainAudit.Part;
import org.privacybounds.bayes.Mechanism.SmoothBeta;
import org.privacybounds.numeric.CountLaw;

class BayesAuditTest {
    static final long DIGITS = 60;

    // ---- Hellinger -------------------------------------------------------------------------

    @Test
    void hellingerClosedFormMatchesQuadratureAndTheSpec() {
        assertEquals(0.46325137517610424, BetaHellinger.of(1, 2, 2, 1), 1e-15); // sqrt(1 - pi/4)
        double[][] pairs = {{1, 2, 2, 1}, {3, 5, 4, 4}, {5, 7, 6, 6}, {2.5, 9, 7, 3.5}, {30, 20, 25, 25}};
        IterativeLegendreGaussIntegrator quad = new IterativeLegendreGaussIntegrator(16, 1e-13, 1e-14);
        for (double[] p : pairs) {
            BetaDistribution a = new BetaDistribution(p[0], p[1]);
            BetaDistribution b = new BetaDistribution(p[2], p[3]);
            // x = sin^2(t) removes the square-root behaviour at the ends
            double bc = quad.integrate(1_000_000, t -> {
                double x = Math.sin(t) * Math.sin(t);
                return Math.sqrt(a.density(x) * b.density(x)) * 2 * Math.sin(t) * Math.cos(t);
            }, 0, Math.PI / 2);
            assertEquals(Math.sqrt(1 - bc), BetaHellinger.of(p[0], p[1], p[2], p[3]), 1e-10, Arrays.toString(p));
        }
        // n = 10, the two central neighbouring pairs (k = 4, 5 and 5, 6): equal by symmetry, computed independently
        assertEquals(0.211510444838211, BetaHellinger.posteriors(10, 4, 5), 1e-14);
        assertEquals(0.211510444838211, BetaHellinger.posteriors(10, 5, 6), 1e-14);
        assertEquals(0.218701666601182, BetaHellinger.posteriors(10, 3, 4), 1e-14);
    }

    /** H(B_k, B_r) in 60-digit apfloat from Gamma functions directly: an independent path. */
    static Apfloat exactHellinger(int n, int k, int r) {
        // Gamma at (k+r)/2 + 1 and n - (k+r)/2 + 1, as twice-the-argument integers
        Apfloat num = halfGamma(k + r + 2).multiply(halfGamma(2 * n - k - r + 2));
        Apfloat den = ApfloatMath.sqrt(gamma(k + 1).multiply(gamma(n - k + 1)).multiply(gamma(r + 1)).multiply(gamma(n - r + 1)));
        Apfloat h2 = Apfloat.ONE.subtract(num.divide(den));
        return h2.signum() <= 0 ? new Apfloat(0, DIGITS) : ApfloatMath.sqrt(h2);
    }

    static final Map<Integer, Apfloat> GAMMA_OF_HALF = new ConcurrentHashMap<>();

    /** Gamma(twice / 2), memoised. */
    static Apfloat halfGamma(int twice) {
        return GAMMA_OF_HALF.computeIfAbsent(twice, t -> ApfloatMath.gamma(new Apfloat(t, DIGITS).divide(new Apfloat(2, DIGITS))));
    }

    static Apfloat gamma(int x) {
        return halfGamma(2 * x);
    }

    @Test
    void posteriorHellingerIsAccurateAtAnyN() {
        int[][] cases = {{1, 0, 1}, {3, 0, 3}, {10, 4, 5}, {10, 0, 10}, {57, 20, 21}, {200, 100, 101}, {200, 3, 150}, {1000, 500, 501}, {1000, 0, 1}};
        for (int[] c : cases) {
            double exact = exactHellinger(c[0], c[1], c[2]).doubleValue();
            double ours = BetaHellinger.posteriors(c[0], c[1], c[2]);
            assertEquals(exact, ours, 2e-14 * exact, Arrays.toString(c));
        }
        // n = 1e6, adjacent at the centre (ln BC ~ -5e-7 against log-Betas of ~7e5): mpmath, 50 digits
        assertEquals(7.0710633924551086e-4, BetaHellinger.posteriors(1_000_000, 500_000, 500_001), 1e-14 * 7.07e-4);
        assertEquals(0.33730280954299913, BetaHellinger.posteriors(1_000_000, 0, 1), 1e-15);
        // and the naive log-Beta form is visibly worse there (why the posterior form exists)
        double naive = BetaHellinger.of(500_001, 500_001, 500_002, 500_000);
        assertTrue(Math.abs(naive - 7.0710633924551086e-4) > 1e-9, "naive " + naive);
    }

    // ---- sensitivities ---------------------------------------------------------------------

    @Test
    void globalSensitivityByEnumerationClosedFormAndSpecValues() {
        double[] spec = {0.463251375176, 0.408606716899, 0.387016211566, 0.375460728684, 0.368264171338};
        for (int n = 1; n <= 5; n++) {
            PosteriorFamily f = new PosteriorFamily(n);
            assertEquals(spec[n - 1], f.globalSensitivity(), 1e-12);
            assertEquals(f.globalSensitivity(), f.globalSensitivityByEnumeration()[0], 1e-15);
            assertEquals(f.globalSensitivity(), PosteriorFamily.globalSensitivityClosedForm(n), 1e-14);
        }
        assertEquals(0.353238470946704, new PosteriorFamily(10).globalSensitivity(), 1e-14);
        PosteriorFamily f100 = new PosteriorFamily(100);
        assertEquals(0.338939760898315, f100.globalSensitivity(), 1e-14);
        double[] e = f100.globalSensitivityByEnumeration();
        assertEquals(f100.globalSensitivity(), e[0], 1e-15);
        assertTrue(e[1] == 0 || e[2] == 100, "the largest step is at an end: " + Arrays.toString(e));
        assertEquals(0.337302645330928, PosteriorFamily.globalSensitivityClosedForm(1_000_000), 2e-7); // limit sqrt(1 - sqrt(pi)/2)
    }

    @Test
    void localSensitivityShortcutEqualsEnumerationAndSmoothSensitivityItsDefinition() {
        for (int n : new int[] {1, 2, 7, 30}) {
            PosteriorFamily f = new PosteriorFamily(n);
            double[] l = f.localSensitivity();
            for (int k = 0; k <= n; k++) {
                assertEquals(f.localSensitivityByEnumeration(k), l[k], 1e-15, "n = " + n + ", k = " + k);
            }
            for (double beta : new double[] {0, 0.01, 0.3, 5}) {
                double[] s = f.smoothSensitivity(beta);
                for (int k = 0; k <= n; k++) {
                    double direct = 0;
                    for (int j = 0; j <= n; j++) {
                        direct = Math.max(direct, l[j] * Math.exp(-beta * Math.abs(k - j)));
                    }
                    assertEquals(direct, s[k], 1e-15 * direct);
                }
            }
        }
        assertEquals(1 / (2 * Math.log(2 / 1e-6)), SmoothBeta.STATEMENT.beta(1, 1e-6), 1e-16);
        assertEquals(1 / (2 * Math.log(3 / 1e-6)), SmoothBeta.PROOF.beta(1, 1e-6), 1e-16);
    }

    @Test
    void statementsOneToThreeForEveryNUpTo200() {
        for (int n = 1; n <= 200; n++) {
            Statements.Result r = Statements.check(n);
            assertTrue(r.statementII(), "II, n = " + n);
            assertTrue(r.enumerated());
            if (n >= 2) {
                assertTrue(r.statementI(), "I (corrected), n = " + n);
            }
            if (n >= 4) {
                assertTrue(r.statementIII(), "III, n = " + n);
                assertTrue(r.certified(), "n = " + n + ": smallest gap " + r.smallestRelativeGap());
            } else if (n > 1) { // n = 1: both databases are the centre, III is vacuous
                assertFalse(r.statementIII(), "III is not strict for n = " + n + " (all local sensitivities equal)");
            }
        }
        // I as printed fails right at the centre: x0 - 1 (D(x0-1) = D(x0)) and x0 (D increases there)
        assertEquals(List.of(4, 5), Statements.check(10).printedFailures());
        assertFalse(Statements.check(10).statementIAsPrinted());
    }

    // ---- the exponential mechanisms --------------------------------------------------------

    static List<Config> configs(PosteriorFamily f, double eps, double delta, double... loss) {
        List<Config> c = new ArrayList<>();
        for (Mechanism m : Mechanism.values()) {
            c.add(new Config(m.label(), eps, m.sensitivity(f, eps, delta, SmoothBeta.STATEMENT), loss));
        }
        return c;
    }

    @Test
    void outputLawsSumToOne() {
        PosteriorFamily f = new PosteriorFamily(500);
        double[] u = new double[501];
        double[] lp = new double[501];
        for (int k : new int[] {0, 17, 250, 500}) {
            f.row(k, u);
            for (double c : new double[] {0.01, 3, 700}) {
                ChainAudit.logLaw(u, c, lp);
                double s = 0;
                for (double v : lp) {
                    s += Math.exp(v);
                }
                assertEquals(1, s, 1e-13);
            }
        }
    }

    @Test
    void globalSensitivityMechanismIsEpsDpForEveryPair() {
        for (int n : new int[] {1, 2, 10, 101, 1000}) {
            PosteriorFamily f = new PosteriorFamily(n);
            for (double eps : new double[] {0.01, 0.5, 1, 10}) {
                Part p = ChainAudit.run(f, configs(f, eps, 1e-6, eps), 0, n + 1);
                double ratio = p.maxLogRatio[0];
                assertTrue(ratio <= eps * (1 + 1e-12), "n = " + n + ", eps = " + eps + ": " + ratio);
                assertTrue(ratio >= 0.4 * eps, "and not trivially: " + ratio);
                assertEquals(Double.NEGATIVE_INFINITY, p.worstLogDelta[0][0], "delta at the nominal eps is 0");
            }
        }
    }

    /** The local-sensitivity mechanism's law and max log-ratio in 60-digit apfloat. */
    static double exactMaxLogRatioLocal(int n, double eps) {
        PosteriorFamily f = new PosteriorFamily(n);
        Apfloat[][] h = new Apfloat[n + 1][n + 1];
        for (int k = 0; k <= n; k++) {
            for (int r = 0; r <= n; r++) {
                h[k][r] = exactHellinger(n, k, r);
            }
        }
        Apfloat[] local = new Apfloat[n + 1];
        for (int k = 0; k <= n; k++) {
            local[k] = new Apfloat(0, DIGITS);
            for (int y : new int[] {k - 1, k + 1}) {
                if (y >= 0 && y <= n && h[k][y].compareTo(local[k]) > 0) {
                    local[k] = h[k][y];
                }
            }
        }
        Apfloat e = new Apfloat(Double.toString(eps), DIGITS);
        Apfloat[][] lp = new Apfloat[n + 1][n + 1];
        for (int k = 0; k <= n; k++) {
            Apfloat c = e.divide(new Apfloat(2, DIGITS).multiply(local[k]));
            Apfloat z = new Apfloat(0, DIGITS);
            for (int r = 0; r <= n; r++) {
                z = z.add(ApfloatMath.exp(c.multiply(h[k][r]).negate()));
            }
            Apfloat logZ = ApfloatMath.log(z);
            for (int r = 0; r <= n; r++) {
                lp[k][r] = c.multiply(h[k][r]).negate().subtract(logZ);
            }
        }
        Apfloat best = new Apfloat(0, DIGITS);
        for (int k = 0; k < n; k++) {
            for (int r = 0; r <= n; r++) {
                Apfloat d = ApfloatMath.abs(lp[k][r].subtract(lp[k + 1][r]));
                if (d.compareTo(best) > 0) {
                    best = d;
                }
            }
        }
        assertTrue(f.n() == n);
        return best.doubleValue();
    }

    @Test
    void localSensitivityMechanismAgainstExactArithmetic() {
        for (int n : new int[] {2, 3, 5, 8, 12}) {
            PosteriorFamily f = new PosteriorFamily(n);
            for (double eps : new double[] {0.1, 1, 5}) {
                Part p = ChainAudit.run(f, configs(f, eps, 1e-6, eps), 0, n + 1);
                double exact = exactMaxLogRatioLocal(n, eps);
                assertEquals(exact, p.maxLogRatio[1], 1e-12 * Math.max(1, exact), "n = " + n + ", eps = " + eps);
            }
        }
        // the local-sensitivity mechanism at n = 10: realised loss / eps is 0.635 (max over eps), an independent computation
        PosteriorFamily f10 = new PosteriorFamily(10);
        double worst = 0;
        for (double eps : new double[] {0.01, 0.1, 0.5, 1, 2, 5, 10}) {
            worst = Math.max(worst, ChainAudit.run(f10, configs(f10, eps, 1e-6, eps), 0, 11).maxLogRatio[1] / eps);
        }
        assertEquals(0.635, worst, 0.0015);
    }

    @Test
    void theGenericCounterexampleViolatesEpsDp() {
        double[][] u = {{0, -1}, {0, -0.9}, {-1, 0}};
        ChainAudit.Utility util = new ChainAudit.Utility() {
            public int databases() {
                return 3;
            }

            public int outputs() {
                return 2;
            }

            public void row(int k, double[] out) {
                System.arraycopy(u[k], 0, out, 0, 2);
            }
        };
        double[] local = {0.1, 1, 1};
        Part p = ChainAudit.run(util, List.of(new Config("local", 1, local, new double[] {1})), 0, 3);
        assertEquals(4.0635, p.maxLogRatio[0], 1e-4);
        assertEquals(new ChainAudit.Witness(1, 0, 1), p.witness[0]); // P_1(r1) = 0.389 against P_0(r1) = 0.0067
        assertTrue(p.worstLogDelta[0][0] > Math.log(0.3), "delta at eps = 1 is large: " + Math.exp(p.worstLogDelta[0][0]));
        Part g = ChainAudit.run(util, List.of(new Config("global", 1, new double[] {1, 1, 1}, new double[] {1})), 0, 3);
        assertTrue(g.maxLogRatio[0] <= 1);
    }

    @Test
    void partsMergeToTheWholeRun() {
        PosteriorFamily f = new PosteriorFamily(301);
        List<Config> cs = configs(f, 2, 1e-5, 2, 0.5);
        Part whole = ChainAudit.run(f, cs, 0, 302);
        Part merged = ChainAudit.run(f, cs, 0, 100).merge(ChainAudit.run(f, cs, 100, 101)).merge(ChainAudit.run(f, cs, 101, 302));
        for (int c = 0; c < cs.size(); c++) {
            assertEquals(whole.maxLogRatio[c], merged.maxLogRatio[c]);
            assertEquals(whole.witness[c], merged.witness[c]);
            assertArrayEquals(whole.pairLogDelta[c][1], merged.pairLogDelta[c][1]);
            assertEquals(whole.meanExpectedLoss(c), merged.meanExpectedLoss(c));
            assertArrayEquals(whole.maxExpectedLoss(c), merged.maxExpectedLoss(c));
            assertEquals(whole.rows(), merged.rows());
        }
        assertEquals(302, merged.rows());
        assertEquals(301, merged.pairLogDelta[0][1].length);
    }

    // ---- smoothed delta ----------------------------------------------------------------------

    @Test
    void smoothedDeltaEqualsDirectConvolutionOverEveryAssignment() {
        int n = 60;
        double[] logDelta = new double[n + 1];
        for (int k = 0; k <= n; k++) {
            logDelta[k] = -0.3 * Math.abs(k - 7) - 1e-3 * k * k; // any profile
        }
        double pLo = 0.2;
        double pHi = 0.65;
        double best = -1;
        int arg = -1;
        for (int n1 = 0; n1 <= n; n1++) {
            CountLaw a = CountLaw.binomial(n1, pHi);
            CountLaw b = CountLaw.binomial(n - n1, pLo);
            double f = 0;
            for (int i = 0; i <= n1; i++) {
                for (int j = 0; j <= n - n1; j++) {
                    f += Math.exp(a.logProbability(i) + b.logProbability(j) + logDelta[i + j]);
                }
            }
            if (f > best) {
                best = f;
                arg = n1;
            }
        }
        SmoothedBernoulli.Result r = SmoothedBernoulli.maximise(logDelta, pLo, pHi);
        assertEquals(Math.log(best), r.logDelta(), 1e-13);
        assertEquals(arg, r.argmaxHigh());
        // a profile of zeros gives exactly zero
        double[] zero = new double[n + 1];
        Arrays.fill(zero, Double.NEGATIVE_INFINITY);
        assertEquals(Double.NEGATIVE_INFINITY, SmoothedBernoulli.maximise(zero, pLo, pHi).logDelta());
    }

    /**
     * The delta at a fraction of eps is ill-conditioned where an output's log-ratio lies just above eps' (n = 150, local, eps = 1,
     * eps' = 0.5: the smoothed delta moved by 1.2e-10 relative): each reported value carries a bound that covers its distance to
     * the exact value (mpmath, 50 digits, from log-Gamma Hellinger distances: delta 0.020100768658454074689,
     * smoothed 5.6605122631361847909e-7 at n1 = 75 records at p = 0.7).
     */
    @Test
    void deltasAtAFractionCarryErrorBoundsThatCoverTheExactValues() {
        int n = 150;
        PosteriorFamily f = new PosteriorFamily(n);
        ChainAudit.Config cfg = new ChainAudit.Config("local", 1, f.localSensitivity(), new double[] {1, 0.5});
        ChainAudit.Part p = ChainAudit.run(f, List.of(cfg), 0, n + 1);
        double worst = Math.exp(p.worstLogDelta[0][1]);
        double worstBound = p.worstRelativeError(0, 1);
        assertEquals(0.020100768658454074689, worst, worstBound * 0.020100768658454074689);
        assertTrue(worstBound < 1e-9, "bound " + worstBound);
        SmoothedBernoulli.Result sm = SmoothedBernoulli.maximise(new double[][] {p.profileLogDelta(0, 1)}, new double[][] {p.profileLogError(0, 1)}, 0.3,
                0.7)[0];
        double exact = 5.6605122631361847909e-7;
        assertEquals(75, sm.argmaxHigh());
        assertEquals(exact, Math.exp(sm.logDelta()), sm.relativeErrorBound() * exact);
        // the bound is honest about the conditioning, not vacuous: the value is still known to 6 digits
        assertTrue(sm.relativeErrorBound() > Math.abs(Math.exp(sm.logDelta()) - exact) / exact);
        assertTrue(sm.relativeErrorBound() < 1e-5, "bound " + sm.relativeErrorBound());
        // well-conditioned values keep tight bounds: the nominal eps of the global mechanism is exactly 0 with a 0 bound
        ChainAudit.Config global = new ChainAudit.Config("global", 1, Mechanism.GLOBAL.sensitivity(f, 1, 1e-6, Mechanism.SmoothBeta.STATEMENT), new double[] {1});
        assertEquals(0, ChainAudit.run(f, List.of(global), 0, n + 1).worstRelativeError(0, 0));
    }
}
