package org.privacybounds.numeric;

import org.apache.commons.numbers.gamma.LogGamma;

/**
 * Loader's saddle-point log-pmfs (C. Loader, "Fast and accurate computation of binomial probabilities", 2000) for counts
 * held in a {@code long}: what Commons Statistics evaluates for counts up to 2^31 - 1, for populations past it (the
 * world's population, 8e9, is past it). The big terms of the Stirling series cancel analytically, so a log-pmf is the
 * sum of a few small terms (the deviance {@link #bd0} and the Stirling remainders {@link #stirlingError}), each within a
 * few ulps of its own size, where a difference of log-gamma values (each about 2e11 at n = 1e10) would be off by about
 * 3e-5. The deviations x - n p come from exact integer products, not from a rounded n p (which alone put ln pmf 1e-10
 * off at N = 5.5e10): checked against 50-digit values to 1e-10 + 1e-15 |ln pmf| up to N = 1e11 (SaddlePointTest).
 *
 * <p>{@link CountLaw} uses Commons Statistics wherever every count fits an {@code int} (the same digits as before) and
 * these functions beyond.
 */
public final class SaddlePoint {
    private static final double HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);
    private static final double S0 = 1.0 / 12;
    private static final double S1 = 1.0 / 360;
    private static final double S2 = 1.0 / 1260;
    private static final double S3 = 1.0 / 1680;
    private static final double S4 = 1.0 / 1188;

    private SaddlePoint() {
    }

    /**
     * The remainder of Stirling's formula, {@code ln k! - [(k + 1/2) ln k - k + ln sqrt(2 pi)]}: the series
     * 1/(12k) - 1/(360k^3) + ... beyond k = 15 (its first omitted term is below 1e-17 of it there), the log-gamma
     * difference below (a value under 0.09, within about 4e-15). For k >= 1.
     */
    public static double stirlingError(double k) {
        if (k <= 15) {
            return LogGamma.value(k + 1) - (k + 0.5) * Math.log(k) + k - HALF_LOG_TWO_PI;
        }
        double kk = k * k;
        if (k > 500) {
            return (S0 - S1 / kk) / k;
        }
        if (k > 80) {
            return (S0 - (S1 - S2 / kk) / kk) / k;
        }
        if (k > 35) {
            return (S0 - (S1 - (S2 - S3 / kk) / kk) / kk) / k;
        }
        return (S0 - (S1 - (S2 - (S3 - S4 / kk) / kk) / kk) / kk) / k;
    }

    /**
     * The deviance term {@code x ln(x / m) + m - x} (>= 0), by the series in v = (x - m) / (x + m) where x is near m (the
     * direct form would cancel there).
     */
    public static double bd0(double x, double m) {
        return bd0(x, m, x - m);
    }

    /**
     * {@link #bd0(double, double)} with {@code d = x - m} given: near the mode d is what the value is made of, and m (a
     * product like n p of about 1e10) is rounded by far more than d computed from exact integers.
     */
    static double bd0(double x, double m, double d) {
        if (Math.abs(d) < 0.1 * (x + m)) {
            double v = d / (x + m);
            double s = d * v;
            double ej = 2 * x * v;
            double v2 = v * v;
            for (int j = 1; j < 1000; j++) {
                ej *= v2;
                double s1 = s + ej / (2 * j + 1);
                if (s1 == s) {
                    return s1;
                }
                s = s1;
            }
            return s;
        }
        return x * Math.log(x / m) - d;
    }

    /**
     * ln Pr[X = x] for X ~ Binomial(trials, p), q = 1 - p given separately (it may be known more exactly than 1 - p). The
     * deviations x - trials p and (trials - x) - trials q come from fused multiply-adds: one rounding each.
     */
    public static double logBinomial(long x, long trials, double p, double q) {
        if (x < 0 || x > trials) {
            return Double.NEGATIVE_INFINITY;
        }
        double n = trials;
        return core(x, trials, n * p, n * q, Math.fma(-n, p, x), Math.fma(-n, q, (double) (trials - x)));
    }

    /**
     * ln Bin(x; n, p) from m = n p, mq = n q and the deviations d = x - m, dq = (n - x) - mq: Stirling remainders, two deviance
     * terms and the Gaussian factor.
     */
    private static double core(long x, long trials, double m, double mq, double d, double dq) {
        double n = trials;
        if (x == 0) {
            return m < 0.1 * n ? -bd0(n, mq, n - mq) - m : n * Math.log(mq / n);
        }
        if (x == trials) {
            return mq < 0.1 * n ? -bd0(n, m, n - m) - mq : n * Math.log(m / n);
        }
        double k = x;
        double nk = trials - x;
        double lc = stirlingError(n) - stirlingError(k) - stirlingError(nk) - bd0(k, m, d) - bd0(nk, mq, dq);
        return lc - 0.5 * Math.log(2 * Math.PI * k * (nk / n));
    }

    /**
     * ln Pr[K = k] for K ~ Hypergeometric(population, marked, draws): the number of marked items among {@code draws} drawn
     * without replacement. The identity pmf = Bin(k; marked, f) Bin(draws - k; population - marked, f) / Bin(draws;
     * population, f) holds for every f; f = draws / population puts every binomial near its mode, and then every deviation
     * is +-D with D = (k population - marked draws) / population, computed from the two exact products (each a double and
     * its fused-multiply-add remainder): about 1e-16 relative, where k - marked f from a rounded f is off by about ulp(k).
     */
    public static double logHypergeometric(long k, long population, long marked, long draws) {
        long lo = Math.max(0, draws - (population - marked));
        long hi = Math.min(marked, draws);
        if (k < lo || k > hi) {
            return Double.NEGATIVE_INFINITY;
        }
        if (lo == hi) {
            return 0;
        }
        double bigN = population;
        double f = draws / bigN;
        double g = (population - draws) / bigN;
        double kn = k * bigN;
        double knLo = Math.fma(k, bigN, -kn);
        double md = (double) marked * draws;
        double mdLo = Math.fma(marked, draws, -md);
        double dev = ((kn - md) + (knLo - mdLo)) / bigN;
        double rest = population - marked;
        return core(k, marked, marked * f, marked * g, dev, -dev)
                + core(draws - k, population - marked, rest * f, rest * g, -dev, dev)
                - core(draws, population, draws, population - draws, 0, 0);
    }

    /**
     * ln C(n, k), from ln Bin(k; n, p) - k ln p - (n - k) ln(1 - p) with p = min(k, n - k) / n: the first term small, the
     * two others within a few ulps of their own size (ln(1 - p) by log1p), so the result is within a few ulps of the sum of
     * their sizes.
     */
    public static double logBinomialCoefficient(long n, long k) {
        if (k < 0 || k > n) {
            return Double.NEGATIVE_INFINITY;
        }
        if (k == 0 || k == n) {
            return 0;
        }
        long m = Math.min(k, n - k);
        double p = (double) m / n;
        double q = (double) (n - m) / n;
        return logBinomial(m, n, p, q) - m * Math.log(p) - (n - m) * Math.log1p(-p);
    }
}
