package org.privacybounds.smoothed.sdp.twocategory;

import java.util.Arrays;

import org.apache.commons.numbers.combinatorics.LogBinomialCoefficient;
import org.privacybounds.numeric.SaddlePoint;

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
    /** The terms stop early where the next one is below this fraction of the sum so far. */
    static final double NEGLIGIBLE = 1e-17;

    private final long n;
    private final long lost;
    private final double eps;
    private final double expEps;
    private final double logDp;
    private final ChernoffBound chernoff;
    /** ln C(n, L), the same in every pmf value. */
    private final double logChooseNL;

    public HypergeometricBound(long n, long sampleSize, double eps) {
        this.n = n;
        this.lost = n - sampleSize;
        this.eps = eps;
        this.expEps = Math.exp(eps);
        this.logDp = Math.log((double) sampleSize / n);
        this.chernoff = new ChernoffBound(n, sampleSize, eps);
        this.logChooseNL = logChoose(n, lost);
    }

    /**
     * {@link #logUpper(long)} for every h in [lo, hi] (within [0, n]), the same values: each pair (g, g + 1) of neighbours is
     * bounded once, not once for each of its two histograms.
     */
    public double[] logUpperRange(long lo, long hi) {
        double[] out = new double[Math.toIntExact(hi - lo + 1)];
        long g0 = Math.max(0, lo - 1);
        double[] pair = new double[(int) Math.max(0, Math.min(n - 1, hi) - g0 + 1)];
        Arrays.fill(pair, Double.NaN);
        // consecutive pairs: each tail's pmf moves from the last one's by a step or two (one logarithm each, not four
        // log-binomials)
        Walker up = new Walker();
        Walker down = new Walker();
        for (long h = lo; h <= hi; h++) {
            double c = chernoff.logUpper(h);
            if (lost == 0 || c == Double.NEGATIVE_INFINITY) {
                out[(int) (h - lo)] = c;
                continue;
            }
            double b = Double.NEGATIVE_INFINITY;
            if (h < n) {
                b = Math.max(b, pairBound(pair, h, g0, up, down));
            }
            if (h > 0) {
                b = Math.max(b, pairBound(pair, h - 1, g0, up, down));
            }
            out[(int) (h - lo)] = Math.min(Math.min(b, c), logDp);
        }
        return out;
    }

    /** max(plus(g), minus(g)), computed on first use (NaN marks "not yet"). */
    private double pairBound(double[] pair, long g, long g0, Walker up, Walker down) {
        int i = (int) (g - g0);
        if (Double.isNaN(pair[i])) {
            pair[i] = Math.max(plus(g, up), minus(g, down));
        }
        return pair[i];
    }

    /** ln of an upper bound on delta(h): the smaller of this bound and {@link ChernoffBound#logUpper(long)}. */
    public double logUpper(long h) {
        return logUpperRange(h, h)[0];
    }

    /** ln pmf of Hypergeometric(n, k1 marked, L drawn) at j, rounded up by a margin covering the log binomials' error. */
    private double logPmfUp(long k1, long j) {
        Walker w = new Walker();
        w.anchor(k1, j);
        return w.up();
    }

    /** The walked upper bound on ln pmf(k1, j) at each point of a path, one walker along it (as in {@link #logUpperRange}); for tests. */
    double[] logPmfUpAlong(long[][] path) {
        Walker w = new Walker();
        double[] out = new double[path.length];
        for (int i = 0; i < path.length; i++) {
            out[i] = w.at(path[i][0], path[i][1]);
        }
        return out;
    }

    /** Steps a walker takes from its anchor before it anchors again. */
    static final int MAX_STEPS = 512;
    /** A walker farther than this from its target anchors there instead of stepping. */
    static final int MAX_MOVE = 16;

    /**
     * ln pmf(k1, j) of Hypergeometric(n, k1 marked, L drawn), carried from an exact anchor (log-binomials, with their
     * margin) by unit steps in k1 and j, each the logarithm of a ratio of integers:
     * pmf(k1 + 1, j) / pmf(k1, j) = ((k1 + 1) / (k1 + 1 - j)) ((n - k1 - L + j) / (n - k1)) and
     * pmf(k1, j + 1) / pmf(k1, j) = rho(k1, j). Each step adds to {@code err} a bound on its rounding: the ratio of two
     * products of integers is within 3.5 ulps of 1 relative (4e-16 in its logarithm), the logarithm within one ulp of its
     * value, the sum within one ulp of its own. So {@link #up} is an upper bound like the anchor's, never an estimate.
     */
    private final class Walker {
        long k1 = -1;
        long j;
        double value;
        double err;
        int steps;

        void anchor(long k1, long j) {
            double a = logChoose(k1, j);
            double b = logChoose(n - k1, lost - j);
            this.k1 = k1;
            this.j = j;
            this.value = a + b - logChooseNL;
            this.err = 1e-12 * (Math.abs(a) + Math.abs(b) + Math.abs(logChooseNL));
            this.steps = 0;
        }

        /** ln pmf(k1, j) rounded up: the value, its error bound, and 1e-9. */
        double up() {
            return value + err + 1e-9;
        }

        /** ln pmf(k1, j) rounded up, stepped to from the last point where that is short, else anchored there. */
        double at(long k1t, long jt) {
            long move = Math.abs((long) k1t - k1) + Math.abs((long) jt - j);
            if (k1 < 0 || move > MAX_MOVE || steps + move > MAX_STEPS || !walk(k1t, jt)) {
                anchor(k1t, jt);
            }
            return up();
        }

        /** Steps to (k1t, jt): j first, then k1; false (the state then is not used) where a step leaves the support. */
        private boolean walk(long k1t, long jt) {
            while (j != jt) {
                long from = j < jt ? j : j - 1; // the ratio pmf(from + 1) / pmf(from)
                double r = rho(k1, from);
                if (!(r > 0) || Double.isInfinite(r)) {
                    return false;
                }
                add(j < jt ? Math.log(r) : -Math.log(r));
                j += j < jt ? 1 : -1;
            }
            while (k1 != k1t) {
                long from = k1 < k1t ? k1 : k1 - 1; // pmf(from + 1, j) / pmf(from, j)
                double r = ((from + 1.0) * ((double) n - from - lost + j)) / (((double) from + 1 - j) * ((double) n - from));
                if (!(r > 0) || Double.isInfinite(r)) {
                    return false;
                }
                add(k1 < k1t ? Math.log(r) : -Math.log(r));
                k1 += k1 < k1t ? 1 : -1;
            }
            return true;
        }

        private void add(double logRatio) {
            value += logRatio;
            err += 4e-16 + Math.ulp(logRatio) + Math.ulp(value);
            steps++;
        }
    }

    /** rho(j) = pmf(j+1) / pmf(j) for k1 marked records. */
    private double rho(long k1, long j) {
        return ((double) (k1 - j) * (lost - j)) / ((j + 1.0) * ((double) n - k1 - lost + j + 1));
    }

    /** ln of a bound on d(g, g+1) = E_g[(1 - e^eps R(j))_+] over j >= the threshold. */
    double plus(long g) {
        return plus(g, new Walker());
    }

    private double plus(long g, Walker walker) {
        long jMax = Math.min(g, lost);
        long jMin = Math.max(0, lost - (n - g));
        // (1 - e^eps R(j))_+ > 0 iff R(j) < e^-eps; start one below the outward-rounded threshold (a zero weight costs nothing)
        double num = (g + 1.0) * lost - (n - g) / expEps;
        double den = (g + 1.0) + (n - g) / expEps;
        long start = Math.max(jMin, (long) Math.floor(num / den) - 1);
        if (start > jMax) {
            return Double.NEGATIVE_INFINITY;
        }
        long k = start;
        if (rho(g, k) >= 1) {
            return 0; // the threshold is below the mode: no tail bound better than 1
        }
        double base = walker.at(g, k);
        double sum = 0; // sum of pmf(j) w(j) / pmf(k)
        double rel = 1; // pmf(j) / pmf(k)
        long j = k;
        double c = (g + 1.0) / ((double) n - g);
        double rest = (double) n - g - lost;
        // R(j) = c (L - j) / (j + 1) and rho(g, j) = (g - j)(L - j) / ((j + 1)(rest + j + 1)) share one division; the terms
        // stop early once the next is below 1e-17 of the sum (the geometric bound below then covers the rest)
        // an int counter and j as a double (exact below 2^53) in the loop: the same values, and the loop stays a counted one
        int terms = (int) Math.min(TERMS, jMax - j + 1);
        double jd = j;
        double lostD = lost;
        double gD = g;
        int t = 0;
        for (; t < terms && !(rel < NEGLIGIBLE * sum); t++, jd++) {
            double d = rest + jd + 1;
            double q = (lostD - jd) / ((jd + 1.0) * d);
            double w = Math.max(0, 1 - expEps * (c * q * d));
            sum += rel * Math.min(1, w + 1e-12);
            rel *= (gD - jd) * q;
        }
        j += t;
        if (j <= jMax) {
            double q = rho(g, j);
            sum += q < 1 ? rel / (1 - q) : Double.POSITIVE_INFINITY;
        }
        // relative rounding of the products and sums above: at most (TERMS + 2) * 6 ulps, far below 1e-9; each weight is within
        // 6 ulps of e^eps R < 1, below its 1e-12
        return base + Math.log(sum) + 1e-9;
    }

    /** ln of a bound on d(g+1, g) = E_{g+1}[(1 - e^eps / R)_+] over j' <= the threshold (j' lost category-1 records under g+1). */
    double minus(long g) {
        return minus(g, new Walker());
    }

    private double minus(long g, Walker walker) {
        long k1 = g + 1;
        long jMin = Math.max(0, lost - (n - k1));
        long jMax = Math.min(k1, lost);
        // under g+1, R as a function of j' is ((g+1)/j') ((L - j' + 1)/(n - g)) (j' >= 1), decreasing; weight (1 - e^eps / R)_+ > 0 iff R > e^eps
        double x2 = (g + 1.0) * (lost + 1.0) / ((n - g) * expEps + (g + 1.0));
        long start = Math.min(jMax, (long) Math.ceil(x2) + 1);
        if (start < jMin) {
            return Double.NEGATIVE_INFINITY;
        }
        long k = start;
        if (k == 0 || rho(k1, k - 1) <= 1) {
            return k == 0 ? logPmfUp(k1, 0) + 1e-9 : 0; // only j' = 0 (weight <= 1), or the threshold is above the mode
        }
        double base = walker.at(k1, k);
        double sum = 0;
        double rel = 1; // pmf(j) / pmf(k), j going down
        long j = k;
        double c = ((double) n - g) / (g + 1.0);
        double rest = (double) n - k1 - lost;
        // 1/R(j') = c j' / (L - j' + 1) (0 at j' = 0, where R is infinite) and 1/rho(k1, j' - 1) = j' (rest + j') / ((k1 - j' + 1)
        // (L - j' + 1)) share one division; early stop as in plus
        // as in plus: an int counter, j as a double
        int terms = (int) Math.min(TERMS, j - jMin + 1);
        double jd = j;
        double k1D = k1;
        double lostD = lost;
        double jMinD = jMin;
        int t = 0;
        for (; t < terms && !(rel < NEGLIGIBLE * sum); t++, jd--) {
            double e = k1D - jd + 1.0;
            double q = jd / ((lostD - jd + 1.0) * e);
            double w = Math.max(0, 1 - expEps * (c * q * e));
            sum += rel * Math.min(1, w + 1e-12);
            if (jd - 1 >= jMinD) {
                rel *= q * (rest + jd);
            }
        }
        j -= t;
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

    /**
     * ln C(a, b): Commons Numbers' where a fits an int (the digits of every n up to 2^31 - 1), {@link SaddlePoint}'s beyond;
     * both within a few ulps of the sizes of their terms, inside the anchor's margin of 1e-12 of them.
     */
    private static double logChoose(long a, long b) {
        return a <= Integer.MAX_VALUE ? LogBinomialCoefficient.value((int) a, (int) b) : SaddlePoint.logBinomialCoefficient(a, b);
    }

    /** The eps of this bound. */
    public double epsilon() {
        return eps;
    }
}
