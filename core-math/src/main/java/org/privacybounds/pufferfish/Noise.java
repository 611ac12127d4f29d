package org.privacybounds.pufferfish;

import java.io.Serializable;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;

import org.apache.commons.numbers.gamma.LogGamma;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.TDistribution;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;
import org.privacybounds.validation.Require;

/**
 * An additive noise law on R, symmetric about 0, with the two quantities the Wasserstein mechanisms
 * need (Pierquin, Bellet, Tommasi and Boussard, "Renyi Pufferfish Privacy", Section 3):
 * <ul>
 * <li>{@link #renyi}: {@code R_alpha(zeta, z) = sup_{|x| <= z} D_alpha(zeta_{-x} || zeta)}; for these
 * three families the divergence increases with |x|, so it is the divergence at shift z;</li>
 * <li>{@link #logShiftFactor}: {@code log phi(v) = (alpha' - 1) D_alpha'(zeta || zeta_{-v})}, the per-shift
 * factor of the distribution-aware mechanism (Theorem 4.5).</li>
 * </ul>
 * Gaussian noise is paired with l2 shifts, Laplace with l1 (Lemma B.1); in one dimension both are |x|.
 */
public sealed interface Noise extends Serializable permits Noise.Gaussian, Noise.Laplace, Noise.Cauchy {

    /** {@code gaussian}, {@code laplace} or {@code cauchy}. */
    String family();

    /** The scale: standard deviation (Gaussian), b of e^{-|x|/b}/(2b) (Laplace), s of (1+(x/s)^2)^{-k/2} (Cauchy). */
    double scale();

    /** The same family at another scale. */
    Noise withScale(double scale);

    /**
     * {@code R_alpha(zeta, z) = log phi_alpha(z) / (alpha - 1)} for {@code alpha > 1} (the divergence at shift z, as
     * {@link #logShiftFactor} with alpha' = alpha: the laws are symmetric); {@code alpha = +inf} gives {@link #renyiInfinity}.
     */
    default double renyi(double alpha, double z) {
        return renyi(alpha).applyAsDouble(z);
    }

    /** {@code R_alpha(zeta, .)} as a function of the shift z, the order alpha checked once (for a curve of many shifts). */
    default DoubleUnaryOperator renyi(double alpha) {
        Require.renyiOrder(Parameter.ALPHA, alpha);
        if (alpha == Double.POSITIVE_INFINITY) {
            return this::renyiInfinity;
        }
        return z -> logShiftFactor(alpha, z) / (alpha - 1);
    }

    /** {@code R_inf(zeta, z) = log sup_y zeta(y - z) / zeta(y)}. */
    double renyiInfinity(double z);

    /** True when {@link #renyi} is the exact divergence, false when it is an upper bound. */
    boolean renyiExact();

    /** {@code log phi(v) = (alphaPrime - 1) D_alphaPrime(zeta || zeta_{-v})}, exact or an upper bound as {@link #renyiExact}. */
    double logShiftFactor(double alphaPrime, double v);

    double logDensity(double x);

    /** One draw of the noise. */
    double sample(SplittableRandom random);

    /** N(0, sigma^2): {@code R_alpha = alpha z^2 / (2 sigma^2)}, {@code R_inf = inf}. */
    record Gaussian(double scale) implements Noise {
        private static final long serialVersionUID = 1L;

        public Gaussian {
            Require.positiveFinite(Parameter.SIGMA, scale);
        }

        @Override
        public String family() {
            return "gaussian";
        }

        @Override
        public Noise withScale(double s) {
            return new Gaussian(s);
        }

        @Override
        public double renyiInfinity(double z) {
            return z == 0 ? 0 : Double.POSITIVE_INFINITY;
        }

        @Override
        public boolean renyiExact() {
            return true;
        }

        @Override
        public double logShiftFactor(double alphaPrime, double v) {
            return (alphaPrime - 1) * alphaPrime * v * v / (2 * scale * scale);
        }

        @Override
        public double logDensity(double x) {
            double u = x / scale;
            return -0.5 * u * u - Math.log(scale) - 0.5 * Math.log(2 * Math.PI);
        }

        @Override
        public double sample(SplittableRandom random) {
            return scale * random.nextGaussian();
        }
    }

    /**
     * Laplace, density e^{-|x|/b}/(2b):
     * {@code R_alpha = 1/(alpha-1) log(alpha/(2alpha-1) e^{(alpha-1)z/b} + (alpha-1)/(2alpha-1) e^{-alpha z/b})},
     * {@code R_inf = z/b}.
     */
    record Laplace(double scale) implements Noise {
        private static final long serialVersionUID = 1L;

        public Laplace {
            Require.positiveFinite(Parameter.LAPLACE_SCALE, scale);
        }

        @Override
        public String family() {
            return "laplace";
        }

        @Override
        public Noise withScale(double s) {
            return new Laplace(s);
        }

        @Override
        public double renyiInfinity(double z) {
            return Math.abs(z) / scale;
        }

        @Override
        public boolean renyiExact() {
            return true;
        }

        @Override
        public double logShiftFactor(double a, double v) {
            double u = Math.abs(v) / scale;
            // log(A e^{(a-1)u} + B e^{-a u}) = (a-1)u + log A + log1p(B/A e^{-(2a-1)u}); B/A = (a-1)/a
            return (a - 1) * u + Math.log(a / (2 * a - 1)) + Math.log1p((a - 1) / a * Math.exp(-(2 * a - 1) * u));
        }

        @Override
        public double logDensity(double x) {
            return -Math.abs(x) / scale - Math.log(2 * scale);
        }

        @Override
        public double sample(SplittableRandom random) {
            double u = random.nextDouble() - 0.5;
            return -scale * Math.signum(u) * Math.log1p(-2 * Math.abs(u));
        }
    }

    /**
     * Generalised Cauchy of Definition 4.6 by its scale s: density {@code beta (1 + (x/s)^2)^{-k/2}}, k >= 2
     * (k = 2: Cauchy). Renyi divergences by Lemma D.1 in the form its own derivation gives (the printed argument {@code 1 + z^2/lambda^2} is not a bound for the inverse scale lambda of Definition 4.6):
     * {@code e^{(alpha-1) D_alpha} <= K_k P_{k(alpha-1)/2}(1 + z^2/(2 s^2))}, with equality for k = 2
     * (Verdu 2023); {@code K_k = sqrt(pi) Gamma(k/2) / Gamma((k-1)/2)}. {@code R_inf = k asinh(z / (2 s))}.
     */
    record Cauchy(double scale, int k) implements Noise {
        private static final long serialVersionUID = 1L;

        public Cauchy {
            Require.positiveFinite(Parameter.SCALE, scale);
            if (k < 2) {
                throw new BadInputException(Parameter.CAUCHY_EXPONENT, k, "the generalised Cauchy exponent must be an integer >= 2");
            }
        }

        @Override
        public String family() {
            return k == 2 ? "cauchy" : "cauchy:" + k;
        }

        @Override
        public Noise withScale(double s) {
            return new Cauchy(s, k);
        }

        /** {@code log K_k}. */
        public double logK() {
            return 0.5 * Math.log(Math.PI) + LogGamma.value(k / 2.0) - LogGamma.value((k - 1) / 2.0);
        }

        @Override
        public double renyiInfinity(double z) {
            return k * asinh(Math.abs(z) / (2 * scale));
        }

        @Override
        public boolean renyiExact() {
            return k == 2;
        }

        @Override
        public double logShiftFactor(double a, double v) {
            double u = v / scale;
            return (k == 2 ? 0 : logK()) + Legendre.logP(k * (a - 1) / 2, 1 + u * u / 2);
        }

        @Override
        public double logDensity(double x) {
            double u = x / scale;
            return logK() - Math.log(Math.PI * scale) - k / 2.0 * Math.log1p(u * u);
        }

        @Override
        public double sample(SplittableRandom random) {
            if (k == 2) {
                return scale * Math.tan(Math.PI * (random.nextDouble() - 0.5));
            }
            UniformRandomProvider rng = random::nextLong;
            double t = TDistribution.of(k - 1).createSampler(rng).sample();
            return scale * t / Math.sqrt(k - 1);
        }

        private static double asinh(double x) {
            return Math.log(x + Math.sqrt(x * x + 1));
        }
    }
}
