package org.privacybounds.ensemble;

import java.util.SplittableRandom;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * DaRRM's release (Algorithm 1) and its error (Definition 2.4): the total variation between its output and the true majority,
 * {@code E(gamma; p) = |1/2 sum_{l >= mid} (alpha_l - alpha_{K-l}) (1 - gamma(l))|} for a symmetric gamma, and
 * its mean over p_i drawn iid from a uniform law (the error the DaRRM paper plots, Section 6.1), by seeded Monte Carlo.
 */
public final class ErrorMetric {
    private ErrorMetric() {
    }

    /** One output of Algorithm 1: the label and whether it is the true majority's (the coin came up 1). */
    public record Release(int label, boolean majorityReleased) {
    }

    /**
     * Algorithm 1 for one query with {@code ones} votes of 1 among K = gamma.length - 1: with probability
     * gamma(ones) the majority {@code 1{ones >= (K+1)/2}}, else a fair bit (drawn only then).
     */
    public static Release release(double[] gamma, int ones, SplittableRandom random) {
        int k = gamma.length - 1;
        if (ones < 0 || ones > k) {
            throw new BadInputException(Parameter.ONES, ones, "must be in 0..K = " + k);
        }
        if (random.nextDouble() < gamma[ones]) {
            return new Release(2 * ones > k ? 1 : 0, true);
        }
        return new Release(random.nextBoolean() ? 1 : 0, false);
    }

    /** {@code P(DaRRM_gamma = 1) = sum_l (gamma(l) 1{l >= mid} + (1 - gamma(l))/2) alpha_l}. */
    public static double probabilityOne(double[] gamma, double[] p) {
        double[] a = PoissonBinomial.pmf(p);
        check(gamma, a);
        int mid = (gamma.length) / 2;
        double s = 0;
        for (int l = 0; l < a.length; l++) {
            s += ((l >= mid ? gamma[l] : 0) + 0.5 * (1 - gamma[l])) * a[l];
        }
        return s;
    }

    /** {@code E(gamma; p)}. */
    public static double error(double[] gamma, double[] p) {
        double[] a = PoissonBinomial.pmf(p);
        check(gamma, a);
        int k = gamma.length - 1;
        int mid = (k + 1) / 2;
        double s = 0;
        for (int l = mid; l <= k; l++) {
            s += (a[l] - a[k - l]) * (1 - gamma[l]);
        }
        return Math.abs(0.5 * s);
    }

    /** A mean with its standard error. */
    public record Estimate(double mean, double standardError, int samples) {
    }

    /** The mean of {@code E(gamma; p)} over {@code samples} draws of p_i ~ U[lo, hi] iid (lo = hi: constant). */
    public static Estimate expected(double[] gamma, double lo, double hi, int samples, long seed) {
        if (!(lo >= 0 && hi <= 1 && lo <= hi)) {
            throw new BadInputException(Parameter.ACTUAL_DISTRIBUTION, "U[" + lo + ", " + hi + "]", "needs 0 <= lo <= hi <= 1");
        }
        if (samples < 2) {
            throw new BadInputException(Parameter.SAMPLES, samples, "must be >= 2");
        }
        SplittableRandom r = new SplittableRandom(seed);
        int k = gamma.length - 1;
        double[] p = new double[k];
        double mean = 0;
        double m2 = 0;
        for (int t = 0; t < samples; t++) {
            for (int i = 0; i < k; i++) {
                p[i] = lo == hi ? lo : lo + (hi - lo) * r.nextDouble();
            }
            double e = error(gamma, p);
            double dlt = e - mean;
            mean += dlt / (t + 1);
            m2 += dlt * (e - mean);
        }
        return new Estimate(mean, Math.sqrt(m2 / (samples - 1) / samples), samples);
    }

    private static void check(double[] gamma, double[] alpha) {
        if (gamma.length != alpha.length) {
            throw new BadInputException(Parameter.GAMMA, gamma.length + " values", "needs K + 1 = " + alpha.length + " values for " + (alpha.length - 1) + " mechanisms");
        }
    }
}
