package org.privacybounds.numeric;

/**
 * Chernoff bounds on binomial tails: {@code P(X >= x) <= exp(-trials KL(x / trials || p))} past the mean (and the same for
 * {@code P(X <= x)} below it), X ~ Binomial(trials, p), KL the Kullback-Leibler divergence of two Bernoulli laws.
 *
 * <p>Example:
 * <pre>{@code
 * double ln = ChernoffTail.logBinomialTail(1000, 0.1, 200, true); // ln P(X >= 200) <= -1000 KL(0.2 || 0.1), about -44.4
 * }</pre>
 */
public final class ChernoffTail {
    private ChernoffTail() {
    }

    /** Kullback-Leibler divergence of Bernoulli(a) from Bernoulli(q), at least 0. */
    public static double kl(double a, double q) {
        double s = 0;
        if (a > 0) {
            s += a * Math.log(a / q);
        }
        if (a < 1) {
            s += (1 - a) * Math.log((1 - a) / (1 - q));
        }
        return Math.max(0, s);
    }

    /**
     * ln of an upper bound on P(X <= x) ({@code upper} false) or P(X >= x) ({@code upper} true), X ~ Binomial(trials, p): the
     * Chernoff bound {@code exp(-trials KL(x / trials || p))} past the mean, 1 before it, 0 outside [0, trials]. The exponent
     * is raised by 1e-9 of itself and 1e-12 for its rounding.
     */
    public static double logBinomialTail(long trials, double p, long x, boolean upper) {
        if (upper ? x > trials : x < 0) {
            return Double.NEGATIVE_INFINITY;
        }
        double r = (double) x / trials;
        if (upper ? r <= p : r >= p) {
            return 0;
        }
        double v = -trials * kl(r, p);
        return v + 1e-9 * Math.abs(v) + 1e-12;
    }
}
