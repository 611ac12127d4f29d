package org.privacybounds.rdp;

import org.apache.commons.numbers.combinatorics.LogBinomialCoefficient;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * RDP of one step of the Poisson-subsampled Gaussian mechanism (each record is in the batch independently with
 * probability q; the clipped sum gets Gaussian noise of standard deviation sigma times the clip norm), for neighbouring
 * datasets that differ by adding or removing one record (Mironov, Talwar and Zhang 2019, "Renyi Differential Privacy of
 * the Sampled Gaussian Mechanism").
 *
 * <p>With mu_0 = N(0, sigma^2), mu_1 = N(1, sigma^2) and mu = (1 - q) mu_0 + q mu_1, the RDP at order alpha is
 * log(A_alpha) / (alpha - 1) with A_alpha = E_{mu_0}[(mu / mu_0)^alpha] (their Section 3.3 shows that the other direction,
 * B_alpha, is never larger). For integer alpha the binomial expansion is exact:
 * <pre>
 *   A_alpha = sum_{k=0}^{alpha} C(alpha, k) (1 - q)^(alpha - k) q^k exp((k^2 - k) / (2 sigma^2)),
 * </pre>
 * evaluated here as log1p(A_alpha - 1), where A_alpha - 1 keeps only the terms k >= 2 with expm1 of the exponent: a sum of
 * positive terms in log space (no underflow, no cancellation, about 1e-15 relative even when q is small and A_alpha is
 * close to 1).
 * For fractional alpha this class returns a certified upper bound instead of a series: log A_alpha is convex in alpha
 * (Hoelder's inequality), so between the integers k < alpha < k + 1 it lies below the chord
 * (k + 1 - alpha) log A_k + (alpha - k) log A_{k+1}, with log A_1 = 0.
 *
 * <pre>{@code
 * double rdp = SubsampledGaussianRdp.rdp(0.01, 1.1, 8.0); // one step at order 8
 * }</pre>
 */
public final class SubsampledGaussianRdp {
    /** Largest order accepted (the expansion has alpha + 1 terms). */
    public static final double MAX_ORDER = 100_000;

    private SubsampledGaussianRdp() {
    }

    /** How a value of {@link #rdp} was obtained. */
    public static String method(double alpha) {
        return alpha == Math.rint(alpha) ? "exact binomial expansion (integer order)"
                : "upper bound: chord of log A between the integer orders around alpha (log A is convex)";
    }

    /** ln A_alpha for an integer order alpha >= 1 (exact expansion, log space). */
    public static double logMoment(double q, double sigma, int alpha) {
        check(q, sigma, alpha);
        if (alpha == 1 || q == 0) {
            return 0;
        }
        // A - 1 = sum_{k >= 2} C(alpha, k) (1 - q)^(alpha - k) q^k expm1((k^2 - k) / (2 sigma^2)): the terms k = 0, 1 and the
        // binomial total 1 cancel exactly, so A - 1 is a sum of positive terms and ln A = log1p(A - 1) keeps its relative
        // accuracy when A is close to 1 (small q)
        double logQ = Math.log(q);
        double log1mQ = Math.log1p(-q);
        double twoVar = 2 * sigma * sigma;
        double max = Double.NEGATIVE_INFINITY;
        double[] terms = new double[alpha + 1];
        for (int k = 2; k <= alpha; k++) {
            double t = ((double) k * k - k) / twoVar;
            double logExpm1 = t > 1 ? t + Math.log(-Math.expm1(-t)) : Math.log(Math.expm1(t));
            terms[k] = LogBinomialCoefficient.value(alpha, k) + k * logQ + (k == alpha ? 0 : (alpha - k) * log1mQ) + logExpm1;
            max = Math.max(max, terms[k]);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return 0;
        }
        double s = 0;
        for (int k = 2; k <= alpha; k++) {
            s += Math.exp(terms[k] - max);
        }
        return LogMath.log1pexp(max + Math.log(s));
    }

    /**
     * The RDP epsilon of one step at order alpha > 1: exact at integer orders, a certified upper bound between them
     * ({@link #method}).
     */
    public static double rdp(double q, double sigma, double alpha) {
        if (!(alpha > 1) || alpha > MAX_ORDER || Double.isNaN(alpha)) {
            throw new BadInputException(Parameter.ALPHA, alpha, "RDP orders must be in (1, " + (long) MAX_ORDER + "]");
        }
        int k = (int) Math.floor(alpha);
        if (alpha == k) {
            return logMoment(q, sigma, k) / (alpha - 1);
        }
        double lo = k == 1 ? 0 : logMoment(q, sigma, k);
        double hi = logMoment(q, sigma, k + 1);
        double t = alpha - k;
        return ((1 - t) * lo + t * hi) / (alpha - 1);
    }

    private static void check(double q, double sigma, int alpha) {
        if (!(q >= 0 && q <= 1)) {
            throw new BadInputException(Parameter.SAMPLING_RATE, q, "the sampling rate must be in [0, 1]");
        }
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new BadInputException(Parameter.SIGMA, sigma, "the noise multiplier must be a finite number > 0");
        }
        if (alpha < 1 || alpha > MAX_ORDER) {
            throw new BadInputException(Parameter.ALPHA, alpha, "RDP orders must be in [1, " + (long) MAX_ORDER + "]");
        }
    }
}
