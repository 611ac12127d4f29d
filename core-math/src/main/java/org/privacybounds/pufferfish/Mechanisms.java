package org.privacybounds.pufferfish;

import java.util.function.DoubleUnaryOperator;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;
import org.privacybounds.validation.Require;

/**
 * The additive Wasserstein mechanisms {@code M(X) = f(X) + N} (Pierquin, Bellet, Tommasi and Boussard, "Renyi Pufferfish Privacy", Sections 3-4): their Renyi
 * Pufferfish epsilon for a given noise, and the inverse calibration (the noise scale for a target
 * epsilon). Sensitivities come from {@link Sensitivities}; {@code alpha = +inf} means pure PP.
 */
public final class Mechanisms {
    private static final double CALIBRATION_TOLERANCE = 1e-13;

    private Mechanisms() {
    }

    /** GWM (Theorem 3.3): {@code (alpha, R_alpha(zeta, Delta_G))}-RPP; R_inf for pure PP. */
    public static double gwm(Noise noise, double deltaG, double alpha) {
        Require.finiteNonNegative(Parameter.SENSITIVITY, deltaG);
        return noise.renyi(alpha, deltaG);
    }

    /**
     * GAWM (Theorem 4.3): {@code (alpha, R_alpha(zeta, Delta_{G,delta}) + alpha/(alpha-1) log(1/(1-delta)), delta)}-approximate
     * RPP; for {@code alpha = inf}, {@code (R_inf + log(1/(1-delta)), delta)}-PP.
     */
    public static double gawm(Noise noise, double deltaGDelta, double alpha, double delta) {
        Require.openUnitInterval(Parameter.DELTA, delta);
        double loss = -Math.log1p(-delta);
        double factor = alpha == Double.POSITIVE_INFINITY ? 1 : alpha / (alpha - 1);
        return gwm(noise, deltaGDelta, alpha) + factor * loss;
    }

    /** DAGWM (Theorem 4.5): {@code log(Delta_G^{zeta,q,alpha}) / (q (alpha - 1))}. */
    public static double dagwm(double logDistributionAware, double q, double alpha) {
        Require.renyiOrder(Parameter.ALPHA, alpha);
        if (!(q >= 1)) {
            throw new BadInputException(Parameter.SAMPLING_RATE, q, "must be >= 1");
        }
        return logDistributionAware / (q * (alpha - 1));
    }

    /**
     * The Cauchy mechanism of Corollary 4.1 in d dimensions (generalised Cauchy, exponent k, scale s):
     * {@code eps = d log(K_k Qbar_n(1 + c W^2 / d)) / (q(alpha-1))} with {@code n = k q (alpha-1)/2} an integer,
     * {@code W = Delta_G^(p*)}, {@code p* = d k q (alpha-1)}. Corrected form (the derivation of Lemma D.1 gives {@code 1 + z^2/(2 s^2)} for scale s, and the concavity step {@code |x|^2/d}, not {@code /d^2}): {@code c = 1/(2 s^2)};
     * {@code paperForm}: the printed {@code 1 + (W/(d s))^2} (valid, looser for d = 1, not justified for d > 1).
     */
    public static double cauchyCorollary41(double wpStar, Noise.Cauchy noise, double q, double alpha, int d, boolean paperForm) {
        Require.renyiOrder(Parameter.ALPHA, alpha);
        Require.positive(Parameter.DIMENSION, d);
        double n = noise.k() * q * (alpha - 1) / 2;
        if (n != Math.rint(n) || Double.isInfinite(n)) {
            throw new BadInputException(Parameter.ALPHA, alpha, "Corollary 4.1 needs k q (alpha - 1) / 2 to be an integer (here " + n + ")");
        }
        double s = noise.scale();
        double y = paperForm ? 1 + Math.pow(wpStar / (d * s), 2) : 1 + wpStar * wpStar / (2 * s * s * d);
        double logK = noise.k() == 2 ? 0 : noise.logK();
        return d * (logK + Legendre.logPositivePart((int) n, y)) / (q * (alpha - 1));
    }

    /** The GWM noise scale for a target epsilon: closed form where there is one, else {@link #calibrate}. */
    public static double gwmScale(Noise family, double deltaG, double alpha, double targetEpsilon) {
        Require.positiveFinite(Parameter.TARGET_EPSILON, targetEpsilon);
        Require.renyiOrder(Parameter.ALPHA, alpha);
        Require.positiveFinite(Parameter.SENSITIVITY, deltaG);
        boolean pure = alpha == Double.POSITIVE_INFINITY;
        if (family instanceof Noise.Gaussian) {
            if (pure) {
                throw new BadInputException(Parameter.ALPHA, "inf", "Gaussian noise gives no pure Pufferfish privacy; use a finite alpha");
            }
            return deltaG * Math.sqrt(alpha / (2 * targetEpsilon));
        }
        if (family instanceof Noise.Laplace && pure) {
            return deltaG / targetEpsilon;
        }
        if (family instanceof Noise.Cauchy c && pure) {
            return deltaG / (2 * Math.sinh(targetEpsilon / c.k()));
        }
        return calibrate(s -> gwm(family.withScale(s), deltaG, alpha), targetEpsilon, deltaG);
    }

    /**
     * The smallest scale s (to relative 1e-13, rounded up, so {@code epsilon(s) <= target}) with
     * {@code epsilon(s) <= target}, for an epsilon that decreases in the scale. Bisection on log s.
     *
     * @param hint a scale of the right order (the sensitivity)
     */
    public static double calibrate(DoubleUnaryOperator epsilonOfScale, double target, double hint) {
        Require.positiveFinite(Parameter.TARGET_EPSILON, target);
        double lo = hint > 0 ? hint : 1;
        double hi = lo;
        int guard = 0;
        while (epsilonOfScale.applyAsDouble(hi) > target) {
            hi *= 4;
            if (++guard > 200) {
                throw new BadInputException(Parameter.TARGET_EPSILON, target, "cannot be reached by any noise scale (still " + epsilonOfScale.applyAsDouble(hi)
                        + " at scale " + hi + "; a bound with a floor, such as the generalised Cauchy k > 2, cannot go lower)");
            }
        }
        guard = 0;
        while (epsilonOfScale.applyAsDouble(lo) <= target) {
            lo /= 4;
            if (++guard > 200) {
                return lo;
            }
        }
        while (hi / lo > 1 + CALIBRATION_TOLERANCE) {
            double mid = Math.sqrt(lo * hi);
            if (mid <= lo || mid >= hi) {
                break;
            }
            if (epsilonOfScale.applyAsDouble(mid) <= target) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /** Proposition C.2, Gaussian: the variance giving (alpha, eps, delta)-approximate RPP at radius {@code Delta_{G,delta}}. */
    public static double gawmGaussianVariance(double deltaGDelta, double alpha, double epsilon, double delta) {
        Require.openUnitInterval(Parameter.DELTA, delta);
        double room = epsilon + alpha / (alpha - 1) * Math.log1p(-delta);
        if (!(room > 0)) {
            throw new BadInputException(Parameter.EPSILON, epsilon, "must exceed alpha/(alpha-1) log(1/(1-delta)) = " + (-alpha / (alpha - 1) * Math.log1p(-delta)));
        }
        return alpha * deltaGDelta * deltaGDelta / (2 * room);
    }

    /** Proposition C.2, Laplace PP: the scale {@code Delta / (eps + log(1 - delta))} giving (eps, delta)-PP. */
    public static double gawmLaplacePureScale(double deltaGDelta, double epsilon, double delta) {
        Require.openUnitInterval(Parameter.DELTA, delta);
        double room = epsilon + Math.log1p(-delta);
        if (!(room > 0)) {
            throw new BadInputException(Parameter.EPSILON, epsilon, "must exceed log(1/(1-delta)) = " + (-Math.log1p(-delta)));
        }
        return deltaGDelta / room;
    }
}
