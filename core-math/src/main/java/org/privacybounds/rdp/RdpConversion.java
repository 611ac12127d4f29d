package org.privacybounds.rdp;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * From (alpha, rho)-RDP to (eps, delta)-DP, two proven conversions:
 * <ul>
 *   <li>{@link #CLASSIC}: eps = rho + log(1/delta) / (alpha - 1) (Mironov 2017, "Renyi Differential Privacy",
 *   Proposition 3);</li>
 *   <li>{@link #IMPROVED}: eps = rho + log((alpha - 1)/alpha) - (log delta + log alpha) / (alpha - 1) (Canonne, Kamath and
 *   Steinke 2020, "The Discrete Gaussian for Differential Privacy", Proposition 12; also Asoodeh et al. 2021). It is
 *   never larger than the classic one for alpha > 1, since log(alpha - 1) - alpha log(alpha) / (alpha - 1) < 0.</li>
 * </ul>
 *
 * <p>Example:
 * <pre>{@code
 * double eps = Double.POSITIVE_INFINITY;
 * for (double alpha : new double[] {2, 4, 8, 16, 32}) {
 *     double rho = 1000 * SubsampledGaussianRdp.rdp(0.01, 1.1, alpha);   // 1,000 steps of DP-SGD
 *     eps = Math.min(eps, RdpConversion.IMPROVED.epsilon(alpha, rho, 1e-5));
 * }                                                                      // (eps, 1e-5)-DP at the best order
 * }</pre>
 */
public enum RdpConversion {
    CLASSIC("eps = rdp + log(1/delta)/(alpha - 1) (Mironov 2017, Proposition 3)"),
    IMPROVED("eps = rdp + log((alpha - 1)/alpha) - (log(delta) + log(alpha))/(alpha - 1) (Canonne, Kamath and Steinke 2020, Proposition 12)");

    private final String description;

    RdpConversion(String description) {
        this.description = description;
    }

    /** The formula and where it is proven. */
    public String description() {
        return description;
    }

    /** eps such that (alpha, rho)-RDP implies (eps, delta)-DP (never below 0). */
    public double epsilon(double alpha, double rho, double delta) {
        if (!(alpha > 1)) {
            throw new BadInputException(Parameter.ALPHA, alpha, "the conversion needs an order > 1");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new BadInputException(Parameter.DELTA, delta, "must be in (0, 1)");
        }
        double eps = this == CLASSIC ? rho + Math.log(1 / delta) / (alpha - 1)
                : rho + Math.log1p(-1 / alpha) - (Math.log(delta) + Math.log(alpha)) / (alpha - 1);
        return Math.max(0, eps);
    }
}
