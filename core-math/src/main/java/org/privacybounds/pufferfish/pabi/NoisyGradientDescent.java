package org.privacybounds.pufferfish.pabi;

import java.io.Serializable;

import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.CholeskyDecomposition;
import org.apache.commons.math3.linear.RealMatrix;
import org.privacybounds.pufferfish.Applications;
import org.privacybounds.pufferfish.Noise;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;
import org.privacybounds.validation.Require;

/**
 * Noisy projected gradient descent on correlated data (section 6.4, Appendix F.5): one data point
 * X_t per step, secret on X_i ({@code X_i = a} vs {@code X_i = b}), Gaussian noise N(0, sigma^2 I) added to the
 * iterate, step size eta (contractive for eta <= 2/beta). The data shift of step t is
 * {@code s_t = eta min(2L, C W_t)} with {@code W_t = W_inf(X_t | a, X_t | b)}; for a Gaussian prior,
 * {@code W_t = |rho_t| ||a - b||} with {@code rho_t = Cov(X_t, X_i) / Var(X_i)} (Proposition 6.4, m = 1),
 * and {@code rho_i = 1}.
 */
public final class NoisyGradientDescent {
    private NoisyGradientDescent() {
    }

    /** The loss and step: L (Lipschitz in w), C (sup_v C_v, Lipschitz of the gradient in the data), sigma, eta, alpha. */
    public record Setting(double lipschitz, double dataLipschitz, double sigma, double stepSize, double alpha, double secretDistance)
            implements Serializable {
        private static final long serialVersionUID = 1L;

        public Setting {
            Require.positiveFinite(Parameter.LIPSCHITZ, lipschitz);
            Require.finiteNonNegative(Parameter.DATA_LIPSCHITZ, dataLipschitz);
            Require.positiveFinite(Parameter.SIGMA, sigma);
            Require.positiveFinite(Parameter.STEP_SIZE, stepSize);
            Require.renyiOrder(Parameter.ALPHA, alpha);
            if (alpha == Double.POSITIVE_INFINITY) {
                throw new BadInputException(Parameter.ALPHA, "inf", "Gaussian noise has no pure guarantee; give a finite alpha > 1");
            }
            Require.finiteNonNegative(Parameter.SECRET_DISTANCE, secretDistance);
        }

        /** {@code s_t = eta min(2L, C |rho_t| D)}. */
        public double[] shifts(double[] rho) {
            double[] s = new double[rho.length];
            for (int t = 0; t < rho.length; t++) {
                s[t] = stepSize * Math.min(2 * lipschitz, dataLipschitz * Math.abs(rho[t]) * secretDistance);
            }
            return s;
        }

        /** The bound for T = 1..rho.length (Theorem 5.2 with the given strategy). */
        public double[] curve(double[] rho, Pabi.Strategy strategy) {
            return Pabi.curve(shifts(rho), new Noise.Gaussian(sigma), alpha, strategy);
        }
    }

    /** A correlation profile rho_t = Cov(X_t, X_i)/Var(X_i) of the data with the secret record i (1-based). */
    public sealed interface Correlation extends Serializable permits Constant, Inverse, InverseSquare, Matrix {
        /** rho_1..rho_T, after {@link #check}. */
        default double[] rho(int steps, int secretIndex) {
            check(steps, secretIndex);
            return profile(steps, secretIndex);
        }

        /** Checks that the profile exists for T steps and the secret record i: 1 <= i <= T (and what the profile itself needs). */
        default void check(int steps, int secretIndex) {
            if (steps < 1) {
                throw new BadInputException(Parameter.SAMPLE_SIZE, steps, "must be >= 1");
            }
            if (secretIndex < 1 || secretIndex > steps) {
                throw new BadInputException(Parameter.SECRET_INDEX, secretIndex, "must be in 1..T = " + steps);
            }
        }

        /** rho_1..rho_T for arguments {@link #check} accepts. */
        double[] profile(int steps, int secretIndex);

        String label();

        }

    /** rho_t = rho for t != i (rho = 0: independent data, DP; rho = 1: fully correlated, group DP). */
    public record Constant(double value) implements Correlation {
        private static final long serialVersionUID = 1L;

        public Constant {
            if (!(value >= -1 && value <= 1)) {
                throw new BadInputException(Parameter.RHO, "const:" + value, "rho must be in [-1, 1]");
            }
        }

        @Override
        public double[] profile(int steps, int secretIndex) {
            double[] r = new double[steps];
            for (int t = 1; t <= steps; t++) {
                r[t - 1] = t == secretIndex ? 1 : value;
            }
            return r;
        }

        @Override
        public String label() {
            return "const:" + value;
        }
    }

    /** rho_t = 1/(|t - i| + 1) (the paper's 1/t for i = 1). */
    public record Inverse() implements Correlation {
        private static final long serialVersionUID = 1L;

        @Override
        public double[] profile(int steps, int secretIndex) {
            double[] r = new double[steps];
            for (int t = 1; t <= steps; t++) {
                r[t - 1] = 1.0 / (Math.abs(t - secretIndex) + 1);
            }
            return r;
        }

        @Override
        public String label() {
            return "inv";
        }
    }

    /** rho_t = 1/(|t - i| + 1)^2 (the paper's 1/t^2 for i = 1). */
    public record InverseSquare() implements Correlation {
        private static final long serialVersionUID = 1L;

        @Override
        public double[] profile(int steps, int secretIndex) {
            double[] r = new double[steps];
            for (int t = 1; t <= steps; t++) {
                double d = Math.abs(t - secretIndex) + 1.0;
                r[t - 1] = 1 / (d * d);
            }
            return r;
        }

        @Override
        public String label() {
            return "invsq";
        }
    }

    /**
     * A Gaussian prior given by the covariance of (X_1..X_n), scalar records (Proposition 6.4, m = 1):
     * {@code rho_t = Sigma_ti / Sigma_ii}. The matrix must be symmetric positive definite.
     */
    public record Matrix(String label, double[][] covariance) implements Correlation {
        private static final long serialVersionUID = 1L;

        public Matrix {
            Applications.covariance(" " + label, covariance);
        }

        @Override
        public void check(int steps, int secretIndex) {
            int n = covariance.length;
            if (steps > n) {
                throw new BadInputException(Parameter.SAMPLE_SIZE, steps, "the covariance in " + label + " has " + n + " variables; at most " + n + " steps");
            }
            Correlation.super.check(steps, secretIndex);
        }

        @Override
        public double[] profile(int steps, int secretIndex) {
            int n = covariance.length;
            double[] r = new double[steps];
            double v = covariance[secretIndex - 1][secretIndex - 1];
            for (int t = 1; t <= steps; t++) {
                r[t - 1] = t == secretIndex ? 1 : covariance[t - 1][secretIndex - 1] / v;
            }
            return r;
        }
    }

    /**
     * Proposition 6.4 for records in R^m: {@code W_t = ||Cov(X_t, X_i) Cov(X_i)^{-1} (a - b)||_2} for every t
     * (t = i: {@code ||a - b||}), from the (nm x nm) covariance of (X_1..X_n); i is 1-based.
     */
    public static double[] conditionalShifts(double[][] covariance, int m, int secretIndex, double[] aMinusB) {
        RealMatrix s = Applications.covariance("", covariance);
        if (m < 1 || covariance.length % m != 0 || aMinusB.length != m) {
            throw new BadInputException(Parameter.BLOCK_SIZE, m, "must divide the covariance size " + covariance.length + " and equal the length of a - b");
        }
        int n = covariance.length / m;
        if (secretIndex < 1 || secretIndex > n) {
            throw new BadInputException(Parameter.SECRET_INDEX, secretIndex, "must be in 1.." + n);
        }
        int i0 = (secretIndex - 1) * m;
        RealMatrix sii = s.getSubMatrix(i0, i0 + m - 1, i0, i0 + m - 1);
        double[] solved = new CholeskyDecomposition(sii).getSolver().solve(new ArrayRealVector(aMinusB)).toArray();
        double[] w = new double[n];
        for (int t = 0; t < n; t++) {
            RealMatrix sti = s.getSubMatrix(t * m, t * m + m - 1, i0, i0 + m - 1);
            w[t] = t == secretIndex - 1 ? norm(aMinusB) : norm(sti.operate(solved));
        }
        return w;
    }

    /**
     * Proposition 6.4 (a_t = s_t): {@code alpha eta^2 / (2 sigma^2) sum_t min(2L, C W_t)^2} with W from
     * {@link #conditionalShifts}.
     */
    public static double proposition64(Setting setting, double[] conditionalShifts) {
        double sum = 0;
        for (double w : conditionalShifts) {
            double x = Math.min(2 * setting.lipschitz(), setting.dataLipschitz() * w);
            sum += x * x;
        }
        return setting.alpha() * setting.stepSize() * setting.stepSize() / (2 * setting.sigma() * setting.sigma()) * sum;
    }

    /**
     * Lemma F.1 (Feldman et al. 2018, Theorem 23; independent data, noise N(0, sigma^2 eta^2 I)):
     * {@code D_alpha(W_T || W'_T) <= 2 alpha L^2 / (sigma^2 (T - i + 1))}.
     */
    public static double feldman(double alpha, double lipschitz, double sigma, int steps, int secretIndex) {
        Require.renyiOrder(Parameter.ALPHA, alpha);
        if (secretIndex < 1 || secretIndex > steps) {
            throw new BadInputException(Parameter.SECRET_INDEX, secretIndex, "must be in 1.." + steps);
        }
        return 2 * alpha * lipschitz * lipschitz / (sigma * sigma * (steps - secretIndex + 1));
    }

    private static double norm(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return Math.sqrt(s);
    }
}
