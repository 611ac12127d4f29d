package org.privacybounds.pufferfish;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

import org.apache.commons.math3.analysis.integration.IterativeLegendreGaussIntegrator;
import org.privacybounds.validation.Parameter;
import org.privacybounds.validation.Require;

/**
 * Renyi divergences of shifted 1-D noise by quadrature, for noise laws without a closed form (
 * "any other 1-D symmetric noise density") and as the independent check of every closed form:
 * {@code D_alpha(zeta_{-z} || zeta) = 1/(alpha-1) log int zeta(y - z)^alpha zeta(y)^{1-alpha} dy}.
 *
 * <p>The real line is mapped onto (-pi/2, pi/2) by {@code y = z/2 + s tan u} (s the noise scale), which
 * keeps heavy (Cauchy) tails integrable, split at the images of 0 and z (where Laplace-type densities
 * have kinks) and in 16 equal pieces, each integrated by iterated 32-point Gauss-Legendre to relative
 * 1e-12. The integrand is scaled by its largest sampled value, so large divergences do not overflow.
 */
public final class NumericDivergence {
    private NumericDivergence() {
    }

    /** {@code D_alpha(zeta_{-z} || zeta)} for a log-density, a scale of the right order, alpha > 1 (finite), shift z. */
    public static double shifted(DoubleUnaryOperator logDensity, double scale, double alpha, double z) {
        Require.positiveFinite(Parameter.SCALE, scale);
        Require.renyiOrder(Parameter.ALPHA, alpha);
        double center = z / 2;
        DoubleUnaryOperator logIntegrand = u -> {
            double c = Math.cos(u);
            double y = center + scale * Math.tan(u);
            return alpha * logDensity.applyAsDouble(y - z) + (1 - alpha) * logDensity.applyAsDouble(y) + Math.log(scale) - 2 * Math.log(c);
        };
        double[] cuts = new double[19];
        for (int k = 0; k <= 16; k++) {
            cuts[k] = -Math.PI / 2 + Math.PI * k / 16;
        }
        cuts[17] = Math.atan((0 - center) / scale);
        cuts[18] = Math.atan((z - center) / scale);
        Arrays.sort(cuts);
        double peak = Double.NEGATIVE_INFINITY;
        for (int k = 1; k < 2000; k++) {
            double v = logIntegrand.applyAsDouble(-Math.PI / 2 + Math.PI * k / 2000);
            if (Double.isFinite(v)) {
                peak = Math.max(peak, v);
            }
        }
        double shift = peak;
        IterativeLegendreGaussIntegrator integrator = new IterativeLegendreGaussIntegrator(32, 1e-12, 1e-300);
        double total = 0;
        for (int k = 0; k + 1 < cuts.length; k++) {
            double a = cuts[k];
            double b = cuts[k + 1];
            if (b - a < 1e-15) {
                continue;
            }
            total += integrator.integrate(Integer.MAX_VALUE, u -> {
                double v = logIntegrand.applyAsDouble(u);
                return Double.isFinite(v) ? Math.exp(v - shift) : 0;
            }, a, b);
        }
        return (shift + Math.log(total)) / (alpha - 1);
    }

    /**
     * {@code R_alpha(zeta, z) = sup_{0 <= t <= z} D_alpha(zeta_{-t} || zeta)} on a grid of {@code points} shifts
     * (no monotonicity assumed; a grid maximum is a lower estimate of the supremum between grid points).
     */
    public static double supremum(DoubleUnaryOperator logDensity, double scale, double alpha, double z, int points) {
        double best = 0;
        for (int k = 1; k <= points; k++) {
            best = Math.max(best, shifted(logDensity, scale, alpha, z * k / points));
        }
        return best;
    }
}
