package org.privacybounds.pufferfish.pabi;

import java.util.function.DoubleUnaryOperator;

import org.privacybounds.pufferfish.Noise;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * Dataset-dependent privacy amplification by iteration (Theorem 5.2): for a contractive noisy
 * iteration with per-step data shifts {@code s_t = sup_w W_inf(psi_t(w, X_t), psi_t(w, X'_t))} and any
 * shift budgets a_t whose prefix sums never exceed those of s_t ({@code z_t = S(t) - A(t) >= 0}) and
 * end equal ({@code z_T = 0}), {@code D_alpha(W_T || W'_T) <= sum_t R_alpha(zeta, a_t)}.
 *
 * <p>{@link #curve} returns that bound for every horizon T = 1..n at once, for one of three budget
 * choices: {@link Strategy#PER_STEP} (a_t = s_t, composition-like), {@link Strategy#AVERAGE}
 * (a_t = S(T)/T, Proposition F.2: valid only when every prefix average S(t)/t is at least S(T)/T,
 * which holds when s_t is non-increasing) and {@link Strategy#MINORANT} (A = the greatest convex
 * minorant of S through (0,0) and (T,S(T)); feasible for every s, optimal for Gaussian noise,
 * equal to AVERAGE when S is concave and to PER_STEP when S is convex).
 *
 * <p>Example:
 * <pre>{@code
 * double[] s = new double[50];
 * java.util.Arrays.fill(s, 0.1);                            // shift 0.1 per step (a contraction's drift)
 * double[] eps = Pabi.curve(s, new Noise.Gaussian(1), 2, Pabi.validStrategy(s, Pabi.Strategy.AVERAGE));
 * double afterFifty = eps[49];                              // Renyi divergence of order 2 after T = 50 steps
 * }</pre>
 */
public final class Pabi {
    private Pabi() {
    }

    /** How the shift budget a_t is spread over the steps. */
    public enum Strategy {
        PER_STEP("per-step"), AVERAGE("average"), MINORANT("minorant");

        private final String label;

        Strategy(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

    }

    /**
     * The first horizon T (1-based) at which {@link Strategy#AVERAGE} is not valid for these shifts (some prefix average
     * S(t)/t, t < T, is below S(T)/T), or 0 when it is valid at every horizon.
     */
    public static int firstInvalidAverageHorizon(double[] s) {
        double prefix = 0;
        double minAverage = Double.POSITIVE_INFINITY;
        for (int t = 0; t < s.length; t++) {
            prefix += s[t];
            double avg = prefix / (t + 1);
            // tolerance: rounding of the sums
            if (avg > minAverage * (1 + 1e-12)) {
                return t + 1;
            }
            minAverage = Math.min(minAverage, avg);
        }
        return 0;
    }

    /**
     * The strategy to use for these shifts when {@code wanted} is asked for: {@code wanted} itself, except AVERAGE where it
     * is not valid at every horizon, which becomes MINORANT (always valid, and equal to AVERAGE wherever AVERAGE is valid
     * with a concave S). The rule the commands use for reference curves (rho = 0 and rho = 1).
     */
    public static Strategy validStrategy(double[] s, Strategy wanted) {
        return wanted == Strategy.AVERAGE && firstInvalidAverageHorizon(s) > 0 ? Strategy.MINORANT : wanted;
    }

    /**
     * {@code eps[T-1]} = the bound on {@code D_alpha(W_T || W'_T)} for T = 1..s.length, with the same noise
     * at every step. For AVERAGE a horizon whose prefix condition fails is an error naming T.
     */
    public static double[] curve(double[] s, Noise noise, double alpha, Strategy strategy) {
        return curve(s, noise.renyi(alpha), strategy);
    }

    /** The same with the divergence as a function of the shift ({@link Noise#renyi(double)}: its order checked once). */
    static double[] curve(double[] s, DoubleUnaryOperator renyi, Strategy strategy) {
        for (int t = 0; t < s.length; t++) {
            if (!(s[t] >= 0) || Double.isInfinite(s[t])) {
                throw new BadInputException(Parameter.STEP_SIZES, "[" + (t + 1) + "]", s[t], "data shifts must be finite numbers >= 0");
            }
        }
        double[] eps = new double[s.length];
        switch (strategy) {
            case PER_STEP -> {
                double sum = 0;
                for (int t = 0; t < s.length; t++) {
                    sum += renyi.applyAsDouble(s[t]);
                    eps[t] = sum;
                }
            }
            case AVERAGE -> {
                int bad = firstInvalidAverageHorizon(s);
                if (bad > 0) {
                    throw new BadInputException(Parameter.STRATEGY, "average", "needs every prefix average S(t)/t >= S(T)/T; it fails at T = " + bad
                            + " (the data shifts grow); use the minorant or per-step strategy");
                }
                double prefix = 0;
                for (int t = 0; t < s.length; t++) {
                    prefix += s[t];
                    eps[t] = (t + 1) * renyi.applyAsDouble(prefix / (t + 1));
                }
            }
            case MINORANT -> minorant(s, renyi, eps);
            default -> throw new IllegalStateException();
        }
        return eps;
    }

    /**
     * Lower convex hull of (t, S(t)), t = 0..T, kept on a stack as T grows (monotone chain); each hull
     * segment of length dt and rise dS costs dt R_alpha(dS/dt); the stack also holds the running sum of
     * the costs up to each hull point, so a pop never subtracts.
     */
    private static void minorant(double[] s, DoubleUnaryOperator renyi, double[] eps) {
        int n = s.length;
        long[] ht = new long[n + 1];
        double[] hs = new double[n + 1];
        double[] cum = new double[n + 1];
        int size = 1;
        ht[0] = 0;
        hs[0] = 0;
        double prefix = 0;
        for (int t = 1; t <= n; t++) {
            prefix += s[t - 1];
            while (size >= 2) {
                double dx1 = ht[size - 1] - ht[size - 2];
                double dy1 = hs[size - 1] - hs[size - 2];
                double dx2 = t - ht[size - 2];
                double dy2 = prefix - hs[size - 2];
                // keep the last hull point only if it lies strictly below the chord to the new point
                if (dy1 * dx2 < dy2 * dx1) {
                    break;
                }
                size--;
            }
            double dt = t - ht[size - 1];
            double cost = dt * renyi.applyAsDouble((prefix - hs[size - 1]) / dt);
            ht[size] = t;
            hs[size] = prefix;
            cum[size] = cum[size - 1] + cost;
            eps[t - 1] = cum[size];
            size++;
        }
    }
}
