package org.privacybounds.pufferfish;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.CholeskyDecomposition;
import org.apache.commons.math3.linear.NonPositiveDefiniteMatrixException;
import org.apache.commons.math3.linear.NonSymmetricMatrixException;
import org.apache.commons.math3.linear.RealMatrix;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;
import org.privacybounds.validation.Require;

/** Sensitivity bounds of the paper's applications (Pierquin, Bellet, Tommasi and Boussard, "Renyi Pufferfish Privacy", Propositions 6.1-6.3), each as a formula of its inputs. */
public final class Applications {
    /** Relative asymmetry tolerated in a covariance read from a file (decimal rounding). */
    private static final double SYMMETRY_TOLERANCE = 1e-12;

    private Applications() {
    }

    /** Proposition 6.1 (weakly dependent data): {@code Delta_G <= 2 lambda + Delta}, lambda = sup_s W_inf(mu_s^theta, mu_s^{product of marginals}). */
    public static double weaklyDependent(double lambda, double dpSensitivity) {
        return 2 * Require.finiteNonNegative(Parameter.LAMBDA, lambda) + Require.finiteNonNegative(Parameter.MECHANISM_DELTA, dpSensitivity);
    }

    /**
     * Proposition 6.2 (attribute privacy, records iid N(mu, Sigma)): protect attribute i, release attribute j:
     * {@code Delta_G = |Sigma_ij / Sigma_ii| diam(K)} (exact: the conditional laws are translates).
     */
    public static double attributeGaussian(double[][] sigma, int i, int j, double diameter) {
        RealMatrix s = covariance("covariance", sigma);
        return Math.abs(s.getEntry(i, j) / s.getEntry(i, i)) * Require.finiteNonNegative(Parameter.DIAMETER, diameter);
    }

    /**
     * Proposition F.1 (linear queries and secrets of a Gaussian record): the largest
     * {@code ||M Sigma N^T (N Sigma N^T)^{-1} v||_2} over the given secret differences v = a - b
     * (for a box or polytope K, its vertex differences).
     */
    public static double linearGaussian(double[][] m, double[][] sigma, double[][] n, double[][] differences) {
        RealMatrix s = covariance("covariance", sigma);
        RealMatrix mm = new Array2DRowRealMatrix(m);
        RealMatrix nn = new Array2DRowRealMatrix(n);
        RealMatrix nsn = nn.multiply(s).multiply(nn.transpose());
        RealMatrix gain;
        try {
            gain = mm.multiply(s).multiply(nn.transpose()).multiply(new CholeskyDecomposition(nsn).getSolver().getInverse());
        } catch (NonPositiveDefiniteMatrixException | NonSymmetricMatrixException e) {
            throw new BadInputException(Parameter.PROJECTED_COVARIANCE, "singular", "must be invertible (N of full row rank)");
        }
        double best = 0;
        for (double[] v : differences) {
            best = Math.max(best, gain.operate(new ArrayRealVector(v)).getNorm());
        }
        return best;
    }

    /**
     * Proposition 6.3 (Langevin diffusion with strongly convex potential, constant C; release of an
     * L-Lipschitz function of the states at times t_i): corrected form {@code L diam_2(K) sum_i exp(-C t_i)}
     * (synchronous coupling, Proposition 6.3); {@code paperForm} gives the printed {@code exp(-2 C t_i)}, which the
     * proof does not support and is reported for comparison only.
     */
    public static double langevin(double lipschitz, double diameter, double c, double[] times, boolean paperForm) {
        Require.finiteNonNegative(Parameter.LIPSCHITZ, lipschitz);
        Require.finiteNonNegative(Parameter.DIAMETER, diameter);
        Require.positiveFinite(Parameter.CLIP, c);
        double s = 0;
        for (double t : times) {
            s += Math.exp(-(paperForm ? 2 : 1) * c * Require.finiteNonNegative(Parameter.T_I, t));
        }
        return lipschitz * diameter * s;
    }

    /**
     * Checks a covariance matrix: square, symmetric, positive definite (Cholesky); names the failure, with {@code source}
     * (" file:cov.csv", or "") after the parameter's name.
     */
    public static RealMatrix covariance(String source, double[][] sigma) {
        int d = sigma.length;
        for (double[] row : sigma) {
            if (row.length != d) {
                throw new BadInputException(Parameter.COVARIANCE, source, d + " rows, a row of " + row.length, "must be a square matrix");
            }
            for (double x : row) {
                if (!Double.isFinite(x)) {
                    throw new BadInputException(Parameter.COVARIANCE, source, x, "entries must be finite numbers");
                }
            }
        }
        RealMatrix s = new Array2DRowRealMatrix(sigma);
        try {
            new CholeskyDecomposition(s, SYMMETRY_TOLERANCE, 0);
        } catch (NonSymmetricMatrixException e) {
            throw new BadInputException(Parameter.COVARIANCE, source, "not symmetric", "must be a symmetric positive definite matrix");
        } catch (NonPositiveDefiniteMatrixException e) {
            throw new BadInputException(Parameter.COVARIANCE, source, "not positive definite", "must be a symmetric positive definite matrix (Cholesky failed)");
        }
        return s;
    }
}
