package org.privacybounds.pufferfish.pabi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.privacybounds.pufferfish.Noise;
import org.privacybounds.pufferfish.pabi.NoisyGradientDescent.Constant;
import org.privacybounds.pufferfish.pabi.NoisyGradientDescent.Correlation;
import org.privacybounds.pufferfish.pabi.NoisyGradientDescent.Setting;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/** Theorem 5.2 strategies, section 6.4 and the recomputed values of Figures 5 and 6 (Appendix F.5.4). */
class PabiTest {
    /** L = sigma = eta = C = ||a - b|| = 1, alpha = 2 (Appendix F.5.4). */
    private static final Setting PAPER = new Setting(1, 1, 1, 1, 2, 1);

    private static double at(Correlation c, int steps) {
        return PAPER.curve(c.rho(steps, 1), Pabi.Strategy.AVERAGE)[steps - 1];
    }

    @Test
    void averageValidityIsAnExplicitRule() {
        // non-increasing shifts: AVERAGE holds at every horizon; a growing shift breaks it at the first T where S(T)/T rises
        assertEquals(0, Pabi.firstInvalidAverageHorizon(new double[] {3, 2, 2, 1}));
        assertEquals(3, Pabi.firstInvalidAverageHorizon(new double[] {1, 1, 4, 0}));
        assertEquals(Pabi.Strategy.AVERAGE, Pabi.validStrategy(new double[] {3, 2, 2, 1}, Pabi.Strategy.AVERAGE));
        assertEquals(Pabi.Strategy.MINORANT, Pabi.validStrategy(new double[] {1, 1, 4, 0}, Pabi.Strategy.AVERAGE));
        assertEquals(Pabi.Strategy.PER_STEP, Pabi.validStrategy(new double[] {1, 1, 4, 0}, Pabi.Strategy.PER_STEP));
        // the rule agrees with what curve accepts
        assertThrows(BadInputException.class, () -> Pabi.curve(new double[] {1, 1, 4, 0}, new Noise.Gaussian(1), 2, Pabi.Strategy.AVERAGE));
    }

    @Test
    void figuresFiveAndSixRecomputedValues() {
        double[] rhos = {0, 0.1, 0.2, 0.8, 1};
        double[] t10 = {0.1, 0.361, 0.784, 6.724, 10};
        double[] t100 = {0.01, 1.1881, 4.3264, 64.3204, 100};
        for (int k = 0; k < rhos.length; k++) {
            assertEquals(t10[k], at(new Constant(rhos[k]), 10), 1e-6, "rho " + rhos[k]);
            assertEquals(t100[k], at(new Constant(rhos[k]), 100), 1e-6, "rho " + rhos[k]);
            assertEquals(1, at(new Constant(rhos[k]), 1), 1e-15);
        }
        assertEquals(0.857886, at(new NoisyGradientDescent.Inverse(), 10), 1e-6);
        assertEquals(0.269089, at(new NoisyGradientDescent.Inverse(), 100), 1e-6);
        assertEquals(0.240178, at(new NoisyGradientDescent.InverseSquare(), 10), 1e-6);
        assertEquals(0.0267317, at(new NoisyGradientDescent.InverseSquare(), 100), 1e-7);
        // closed form (1 + (T-1) rho)^2 / T for every T
        double[] curve = PAPER.curve(new Constant(0.2).rho(300, 1), Pabi.Strategy.AVERAGE);
        for (int t = 1; t <= 300; t++) {
            assertEquals(Math.pow(1 + (t - 1) * 0.2, 2) / t, curve[t - 1], 1e-12 * curve[t - 1]);
        }
    }

    @Test
    void perStepIsCompositionAndGroupPrivacy() {
        // a_t = s_t: alpha eta^2/(2 sigma^2) sum min(2L, C W_t)^2; fully correlated = T times DP
        double[] group = PAPER.curve(new Constant(1).rho(50, 1), Pabi.Strategy.PER_STEP);
        double[] dp = PAPER.curve(new Constant(0).rho(50, 1), Pabi.Strategy.PER_STEP);
        for (int t = 1; t <= 50; t++) {
            assertEquals(t, group[t - 1], 1e-12);
            assertEquals(1, dp[t - 1], 0);
        }
        // the 2L cap: C ||a - b|| = 5 > 2L = 2 gives s = 2 eta
        Setting capped = new Setting(1, 5, 1, 0.5, 2, 1);
        assertArrayEquals(new double[] {1, 0.5 * Math.min(2, 5 * 0.3)}, capped.shifts(new double[] {1, 0.3}), 1e-15);
    }

    @Test
    void minorantIsFeasibleNeverWorseAndReducesToBothChoices() {
        Noise g = new Noise.Gaussian(1.3);
        // concave S (non-increasing s): minorant = average; convex S (non-decreasing s): minorant = per-step
        double[] dec = {3, 2, 2, 1, 0.5, 0.1};
        assertArrayEquals(Pabi.curve(dec, g, 2, Pabi.Strategy.AVERAGE), Pabi.curve(dec, g, 2, Pabi.Strategy.MINORANT), 1e-12);
        double[] inc = {0.1, 0.5, 1, 2, 2, 3};
        assertArrayEquals(Pabi.curve(inc, g, 2, Pabi.Strategy.PER_STEP), Pabi.curve(inc, g, 2, Pabi.Strategy.MINORANT), 1e-12);
        assertThrows(BadInputException.class, () -> Pabi.curve(inc, g, 2, Pabi.Strategy.AVERAGE));
        SplittableRandom r = new SplittableRandom(5);
        for (int trial = 0; trial < 200; trial++) {
            int n = r.nextInt(1, 12);
            double[] s = new double[n];
            for (int t = 0; t < n; t++) {
                s[t] = r.nextInt(0, 4) == 0 ? 0 : r.nextDouble(0, 3);
            }
            double[] per = Pabi.curve(s, g, 2, Pabi.Strategy.PER_STEP);
            double[] min = Pabi.curve(s, g, 2, Pabi.Strategy.MINORANT);
            for (int t = 0; t < n; t++) {
                assertTrue(min[t] <= per[t] * (1 + 1e-12) + 1e-15);
                // against every single-breakpoint feasible budget: A linear to (k, S(k)) then linear to (T, S(T))
                double[] prefix = new double[t + 2];
                for (int i = 0; i <= t; i++) {
                    prefix[i + 1] = prefix[i] + s[i];
                }
                for (int k = 1; k <= t + 1; k++) {
                    double cost = feasibleTwoPiece(prefix, k, t + 1, g);
                    assertTrue(min[t] <= cost * (1 + 1e-12) + 1e-15, "T=" + (t + 1) + " k=" + k);
                }
            }
        }
    }

    /** Cost of the budget A(t) = piecewise linear through (0,0), (k, S(k)), (T, S(T)) if it stays below S; +inf otherwise. */
    private static double feasibleTwoPiece(double[] prefix, int k, int steps, Noise g) {
        double a1 = prefix[k] / k;
        double a2 = k == steps ? 0 : (prefix[steps] - prefix[k]) / (steps - k);
        for (int t = 1; t <= steps; t++) {
            double a = t <= k ? a1 * t : prefix[k] + a2 * (t - k);
            if (a > prefix[t] + 1e-12) {
                return Double.POSITIVE_INFINITY;
            }
        }
        return k * g.renyi(2, a1) + (steps - k) * g.renyi(2, a2);
    }

    @Test
    void proposition64AndFeldman() {
        // scalar records, AR(1)-like covariance rho^{|t-s|}: rho_t = 0.6^{t-1}
        int n = 6;
        double[][] cov = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                cov[i][j] = Math.pow(0.6, Math.abs(i - j)) * 2;
            }
        }
        double[] w = NoisyGradientDescent.conditionalShifts(cov, 1, 1, new double[] {1.5});
        for (int t = 0; t < n; t++) {
            assertEquals(Math.pow(0.6, t) * 1.5, w[t], 1e-12);
        }
        Setting s = new Setting(1, 1, 1, 1, 2, 1.5);
        double[] rho = new NoisyGradientDescent.Matrix("ar1", cov).rho(n, 1);
        assertEquals(NoisyGradientDescent.proposition64(s, w), s.curve(rho, Pabi.Strategy.PER_STEP)[n - 1], 1e-12);
        // m = 2: block covariance, X_2 = 0.5 X_1 + noise in both coordinates
        double[][] c2 = {{1, 0, 0.5, 0}, {0, 1, 0, 0.5}, {0.5, 0, 1, 0}, {0, 0.5, 0, 1}};
        double[] w2 = NoisyGradientDescent.conditionalShifts(c2, 2, 1, new double[] {3, 4});
        assertArrayEquals(new double[] {5, 2.5}, w2, 1e-12);
        assertEquals(0.4, NoisyGradientDescent.feldman(2, 1, 1, 10, 1), 1e-15);
        BadInputException e = assertThrows(BadInputException.class,
                () -> new NoisyGradientDescent.Matrix("bad.csv", new double[][] {{1, 2}, {2, 1}}));
        assertTrue(e.getMessage().contains("positive definite"));
        assertThrows(BadInputException.class, () -> new NoisyGradientDescent.Matrix("ar1", cov).rho(7, 1));
        // the secret record must be one of the T steps, for every profile
        for (Correlation c : List.<Correlation>of(new Constant(0.5), new NoisyGradientDescent.Inverse(), new NoisyGradientDescent.InverseSquare(),
                new NoisyGradientDescent.Matrix("ar1", cov))) {
            for (int i : new int[] {0, 6}) {
                BadInputException bad = assertThrows(BadInputException.class, () -> c.rho(5, i), c.label());
                assertEquals(Parameter.SECRET_INDEX, bad.key(), bad.getMessage());
            }
            c.check(5, 5);
        }
        assertThrows(BadInputException.class, () -> new Constant(1.5));
    }
}
