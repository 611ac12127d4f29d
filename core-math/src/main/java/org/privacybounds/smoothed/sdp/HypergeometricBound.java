package org.privacybounds.smoothed.sdp;

import org.apache.commons.numbers.combinatorics.LogBinomialCoefficient;

/**
 * A tight upper bound on delta_eps(h) for the sampling-histogram mechanism without replacement over two categories (n
 * records, L = n - T lost), for excluding assignments where {@link ChernoffBound} is too loose.
 *
 * <p>For the pair (g, g+1) with j ~ Hypergeometric(n, g, L) the number of lost category-1 records and R(j) = ((g+1)/(j+1))
 * ((L-j)/(n-g)) the likelihood ratio (decreasing in j), d(g, g+1) = E_g[(1 - e^eps R(j))_+] is summed exactly over the first
 * {@link #TERMS} values of j past the threshold, from the exact log pmf (log binomial coefficients) and the pmf ratio
 * rho(j) = (g-j)(L-j) / ((j+1)(n-g-L+j+1)); the rest is at most pmf(k) / (1 - rho(k)) (rho is decreasing, so the tail is below a
 * geometric series) times a weight of at most 1. d(g+1, g) = E_{g+1}[(1 - e^eps / R)_+] alike over the lower tail. Every
 * rounding is covered by an explicit margin, so the result is an upper bound, never an estimate; it is within a small factor
 * of delta(h) where the Chernoff bound is off by about sqrt(L).
 */
public final class HypergeometricBound {
    /** Terms summed exactly past the threshold before the geometric tail bound. */
    static final int TERMS = 48;

    private final int n;
    private final int lost;
    private final double eps;
    private final double expEps;
    private final double logDp;
    private final ChernoffBound chernoff;
    /** ln C(n, L), the same in every pmf value. */
    private final double logChooseNL;

    public HypergeometricBound(int n, int sampleSize, double eps) {
        this.n = n;
        this.lost = n - sampleSize;
        this.eps = eps;
        this.expEps = Math.exp(eps);
        this.logDp = Math.log((double) sampleSize / n);
        this.chernoff = new ChernoffBound(n, sampleSize, eps);
        this.logChooseNL = LogBinomialCoefficient.value(n, lost);
    }

    /**
     * {@link #logUpper(int)} for every h in [lo, hi] (within [0, n]), the same values: each pair (g, g + 1) of neighbours is
     * bounded once, not once for each of its two histograms.
     */
    public double[] logUpperRange(int lo, int hi) {
        double[] out = new double[hi - lo + 1];
        int g0 = Math.max(0, lo - 1);
        double[] pair = new double[Math.max(0, Math.min(n - 1, hi) - g0 + 1)];
        java.util.Arrays.fill(pair, Double.NaN);
        for (int h = lo; h <= hi; h++) {
            double c = chernoff.logUpper(h);
            if (lost == 0 || c == Double.NEGATIVE_INFINITY) {
                out[h - lo] = c;
                continue;
            }
            double b = Double.NEGATIVE_INFINITY;
            if (h < n) {
                b = Math.max(b, pairBound(pair, h, g0));
            }
            if (h > 0) {
                b = Math.max(b, pairBound(pair, h - 1, g0));
            }
            out[h - lo] = Math.min(Math.min(b, c), logDp);
        }
        return out;
    }

    /** max(plus(g), minus(g)), computed on first use (NaN marks "not yet"). */
    private double pairBound(double[] pair, int g, int g0) {
        int i = g - g0;
        if (Double.isNaN(pair[i])) {
            pair[i] = Math.max(plus(g), minus(g));
        }
        return pair[i];
    }

    /** ln of an upper bound on delta(h): the smaller of this bound and {@link ChernoffBound#logUpper(int)}. */
    public double logUpper(int h) {
        return logUpperRange(h, h)[0];
    }

    /** ln pmf of Hypergeometric(n, k1 marked, L drawn) at j, rounded up by a margin covering the log binomials' error. */
    private double logPmfUp(int k1, int j) {
        double a = LogBinomialCoefficient.value(k1, j);
        double b = LogBinomialCoefficient.value(n - k1, lost - j);
        double c = logChooseNL;
        return a + b - c + 1e-12 * (Math.abs(a) + Math.abs(b) + Math.abs(c)) + 1e-9;
    }

    /** rho(j) = pmf(j+1) / pmf(j) for k1 marked records. */
    private double rho(int k1, int j) {
        return ((double) (k1 - j) * (lost - j)) / ((j + 1.0) * ((double) n - k1 - lost + j + 1));
    }

    /** ln of a bound on d(g, g+1) = E_g[(1 - e^eps R(j))_+] over j >= the threshold. */
    double plus(int g) {
        int jMax = Math.min(g, lost);
        int jMin = Math.max(0, lost - (n - g));
        // (1 - e^eps R(j))_+ > 0 iff R(j) < e^-eps; start one below the outward-rounded threshold (a zero weight costs nothing)
        double num = (g + 1.0) * lost - (n - g) / expEps;
        double den = (g + 1.0) + (n - g) / expEps;
        long start = Math.max(jMin, (long) Math.floor(num / den) - 1);
        if (start > jMax) {
            return Double.NEGATIVE_INFINITY;
        }
        int k = (int) start;
        if (rho(g, k) >= 1) {
            return 0; // the threshold is below the mode: no tail bound better than 1
        }
        double base = logPmfUp(g, k);
        double sum = 0; // sum of pmf(j) w(j) / pmf(k)
        double rel = 1; // pmf(j) / pmf(k)
        int j = k;
        for (int t = 0; t < TERMS && j <= jMax; t++, j++) {
            double r = ((g + 1.0) / (j + 1.0)) * ((double) (lost - j) / (n - g));
            double w = Math.max(0, 1 - expEps * r);
            sum += rel * Math.min(1, w + 1e-12);
            rel *= rho(g, j);
        }
        if (j <= jMax) {
            double q = rho(g, j);
            sum += q < 1 ? rel / (1 - q) : Double.POSITIVE_INFINITY;
        }
        // relative rounding of the products and sums above: at most (TERMS + 2) * 4 ulps, far below 1e-9
        return base + Math.log(sum) + 1e-9;
    }

    /** ln of a bound on d(g+1, g) = E_{g+1}[(1 - e^eps / R)_+] over j' <= the threshold (j' lost category-1 records under g+1). */
    double minus(int g) {
        int k1 = g + 1;
        int jMin = Math.max(0, lost - (n - k1));
        int jMax = Math.min(k1, lost);
        // under g+1, R as a function of j' is ((g+1)/j') ((L - j' + 1)/(n - g)) (j' >= 1), decreasing; weight (1 - e^eps / R)_+ > 0 iff R > e^eps
        double x2 = (g + 1.0) * (lost + 1.0) / ((n - g) * expEps + (g + 1.0));
        long start = Math.min(jMax, (long) Math.ceil(x2) + 1);
        if (start < jMin) {
            return Double.NEGATIVE_INFINITY;
        }
        int k = (int) start;
        if (k == 0 || rho(k1, k - 1) <= 1) {
            return k == 0 ? logPmfUp(k1, 0) + 1e-9 : 0; // only j' = 0 (weight <= 1), or the threshold is above the mode
        }
        double base = logPmfUp(k1, k);
        double sum = 0;
        double rel = 1; // pmf(j) / pmf(k), j going down
        int j = k;
        for (int t = 0; t < TERMS && j >= jMin; t++, j--) {
            double w = 0;
            if (j >= 1) {
                double r = ((g + 1.0) / j) * ((lost - j + 1.0) / (n - g));
                w = Math.max(0, 1 - expEps / r);
            } else {
                w = 1; // j' = 0: R is infinite
            }
            sum += rel * Math.min(1, w + 1e-12);
            if (j - 1 >= jMin) {
                rel /= rho(k1, j - 1);
            }
        }
        if (j >= jMin) {
            if (j - 1 < jMin) {
                sum += rel; // only j itself is left, weight <= 1
            } else {
                // pmf(i - 1) / pmf(i) = 1 / rho(i - 1) <= 1 / rho(j - 1) for i <= j (rho is decreasing): a geometric tail
                double ratio = 1 / rho(k1, j - 1);
                sum += ratio < 1 ? rel / (1 - ratio) : Double.POSITIVE_INFINITY;
            }
        }
        return base + Math.log(sum) + 1e-9;
    }

    /** The eps of this bound. */
    public double epsilon() {
        return eps;
    }
}
