package org.privacybounds.pufferfish;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;
import org.privacybounds.validation.Require;

/**
 * Guarantees against an adversary whose prior theta' lies outside Theta but close to it (Appendix A.4).
 * Divergence inputs are per theta in Theta ({@code [k]} = the k-th prior), so the infimum over theta is
 * taken with the SAME theta in every term, as the proofs need (Pierquin, Bellet, Tommasi and Boussard, "Renyi Pufferfish Privacy", Appendix A.4).
 */
public final class CloseAdversary {
    private CloseAdversary() {
    }

    /**
     * Theorem A.3 (Song et al. 2017): eps-PP for Theta gives {@code (eps + 2 Delta)}-PP for Theta + theta', with
     * {@code Delta = min_theta sup_s max(D_inf(theta || theta'), D_inf(theta' || theta))}, given per theta.
     */
    public static double pure(double epsilon, double[] maxInfinityDivergencePerTheta) {
        return epsilon + 2 * min(Parameter.MAX_INFINITY_DIVERGENCE, maxInfinityDivergencePerTheta);
    }

    /**
     * Theorem A.4: M is (q(alpha - 1/p), eps)-RPP for Theta; {@code d1[k] = sup_s D_{alpha p}(theta' || theta_k)},
     * {@code d2[k] = sup_s D_{(alpha-1) r + 1}(theta_k || theta')}. Returns the RPP epsilon at alpha for Theta + theta'.
     */
    public static double renyi(double alpha, double epsilon, double p, double q, double r, double[] d1, double[] d2) {
        checkHolder(alpha, p, q, r);
        if (d1.length == 0 || d1.length != d2.length) {
            throw new BadInputException(Parameter.DIVERGENCES, d1.length + ", " + d2.length, "need one value of each per prior, at least one");
        }
        double best = Double.POSITIVE_INFINITY;
        for (int k = 0; k < d1.length; k++) {
            best = Math.min(best, (1 + 1 / (r * (alpha - 1))) * epsilon + (1 + (1 / r + 1 / q) / (alpha - 1)) * d1[k] + d2[k]);
        }
        return best;
    }

    /**
     * Theorem A.5, additive mechanisms: {@code (1 + 1/(r(alpha-1))) eps + (1 + (1/r + 1/q)/(alpha-1)) R_{alpha p}(zeta, W) + R_{(alpha-1)r+1}(zeta, W)}
     * with {@code W = min_theta sup_s W_inf(P(f(X)|s,theta'), P(f(X)|s,theta))}.
     */
    public static double additive(double alpha, double epsilon, double p, double q, double r, Noise noise, double wInfinity) {
        checkHolder(alpha, p, q, r);
        Require.finiteNonNegative(Parameter.W_INF, wInfinity);
        return (1 + 1 / (r * (alpha - 1))) * epsilon + (1 + (1 / r + 1 / q) / (alpha - 1)) * noise.renyi(alpha * p, wInfinity)
                + noise.renyi((alpha - 1) * r + 1, wInfinity);
    }

    /** Corollary A.1 (Gaussian calibrated for Theta at order q(alpha - 1/p)): eps' / eps as a function of {@code ratio = W / Delta_G}. */
    public static double gaussianFactor(double alpha, double p, double q, double r, double ratio) {
        checkHolder(alpha, p, q, r);
        return 1 + 1 / (r * (alpha - 1)) + (alpha * (p + (p - 1) / (alpha - 1)) + (alpha - 1) * r + 1) * ratio * ratio / (q * (alpha - 1 / p));
    }

    private static void checkHolder(double alpha, double p, double q, double r) {
        if (!(alpha > 1) || Double.isInfinite(alpha)) {
            throw new BadInputException(Parameter.ALPHA, alpha, "must be a finite number > 1");
        }
        if (!(p > 0 && q > 0 && r > 0) || Math.abs(1 / p + 1 / q + 1 / r - 1) > 1e-12) {
            throw new BadInputException(Parameter.HOLDER_EXPONENTS, p + ", " + q + ", " + r, "must be > 0 with 1/p + 1/q + 1/r = 1");
        }
        if (!(q * (alpha - 1 / p) > 1)) {
            throw new BadInputException(Parameter.CLOSE_ORDER, q * (alpha - 1 / p), "must be > 1 (a Renyi order)");
        }
    }

    private static double min(Parameter name, double[] v) {
        if (v.length == 0) {
            throw new BadInputException(name, "[]", "needs at least one prior");
        }
        double m = Double.POSITIVE_INFINITY;
        for (double x : v) {
            m = Math.min(m, Require.finiteNonNegative(name, x));
        }
        return m;
    }
}
