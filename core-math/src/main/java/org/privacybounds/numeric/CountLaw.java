package org.privacybounds.numeric;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.apache.commons.statistics.distribution.HypergeometricDistribution;

import java.util.function.LongToDoubleFunction;

/**
 * A log-concave law on a contiguous range of integers, given by its log-pmf. Log-concavity is what
 * makes {@link LogConcaveSum}'s truncation certificate rigorous; both laws here are log-concave.
 *
 * <p>The log-pmfs come from Apache Commons Statistics, which evaluates them with Loader's saddle
 * point expansion: a few ulps relative in the pmf even for populations near 2^31, where a
 * difference of log-gamma values (each about 3e9) would lose about 1e-6. Counts are {@code long}:
 * past 2^31 - 1 (where Commons Statistics stops) the same expansion comes from {@link SaddlePoint}.
 *
 * <p>Example:
 * <pre>{@code
 * CountLaw h = CountLaw.hypergeometric(1000, 600, 100);   // marked draws among 100 of 1,000, 600 marked
 * double lp = h.logProbability(60);                       // ln Pr[K = 60], no underflow far in the tails
 * }</pre>
 */
public interface CountLaw {
    /** Smallest value with positive probability. */
    long lower();

    /** Largest value with positive probability. */
    long upper();

    /** A value at which the pmf is maximal. */
    long mode();

    /** log Pr[K = k]; {@code -Infinity} outside the support. */
    double logProbability(long k);

    /**
     * log(Pr[K = k + 1] / Pr[K = k]) for k and k + 1 in the support. The default is the difference
     * of two {@link #logProbability} values; the laws here override it with the closed-form ratio of
     * integers (a few ulps, about a tenth of the cost), which {@link LogConcaveSum} uses between
     * exact anchors.
     */
    default double logRatioUp(long k) {
        return logProbability(k + 1) - logProbability(k);
    }

    /** Pr[K = k + 1] / Pr[K = k] itself: the laws here give the ratio of integers without a logarithm. */
    default double ratioUp(long k) {
        return Math.exp(logRatioUp(k));
    }

    /**
     * Hypergeometric: number of marked items among {@code draws} drawn without replacement from
     * {@code population} items of which {@code marked} are marked.
     * {@code Pr[k] = C(marked, k) C(population - marked, draws - k) / C(population, draws)}.
     */
    static CountLaw hypergeometric(long population, long marked, long draws) {
        if (population == 0 || marked == 0 || draws == 0) {
            return degenerate(0);
        }
        if (marked == population) {
            return degenerate(draws);
        }
        if (draws == population) {
            return degenerate(marked);
        }
        long lo = Math.max(0, draws - (population - marked));
        long hi = Math.min(marked, draws);
        LongToDoubleFunction logPmf;
        if (population <= Integer.MAX_VALUE) {
            HypergeometricDistribution d = HypergeometricDistribution.of((int) population, (int) marked, (int) draws);
            logPmf = k -> d.logProbability((int) k);
        } else {
            logPmf = k -> SaddlePoint.logHypergeometric(k, population, marked, draws);
        }
        // mode = floor((marked + 1)(draws + 1) / (population + 2)), in exact long arithmetic
        long guess = ((long) marked + 1) * ((long) draws + 1) / ((long) population + 2);
        // Pr[k + 1] / Pr[k] = (marked - k)(draws - k) / ((k + 1)(population - marked - draws + k + 1))
        final double rest = (double) population - marked - draws;
        LongToDoubleFunction ratio = k -> ((double) (marked - k) * (draws - k)) / ((k + 1.0) * (rest + k + 1));
        // the formula is the mode (Pr[k + 1] >= Pr[k] exactly while k + 1 <= (marked + 1)(draws + 1) / (population + 2)), in
        // exact integer arithmetic: no log-pmf values are needed to find it
        return new Wrapped(lo, hi, Math.max(lo, Math.min(hi, guess)), logPmf, k -> Math.log(ratio.applyAsDouble(k)), ratio);
    }

    /** Binomial(trials, p); {@code p} given as the exact ratio {@code num/den} of integers. */
    static CountLaw binomial(long trials, long num, long den) {
        if (trials == 0 || num == 0) {
            return degenerate(0);
        }
        if (num == den) {
            return degenerate(trials);
        }
        double p = (double) num / den;
        LongToDoubleFunction logPmf = binomialLogPmf(trials, p, (double) (den - num) / den);
        // mode = floor((trials + 1) p)
        long guess = (long) Math.floor((trials + 1.0) * p);
        // Pr[k + 1] / Pr[k] = ((trials - k) num) / ((k + 1)(den - num))
        final double q = (double) den - num;
        LongToDoubleFunction ratio = k -> ((double) (trials - k) * num) / ((k + 1.0) * q);
        return new Wrapped(0, trials, climb(logPmf, Math.max(0, Math.min(trials, guess)), 0, trials),
                logPmf, k -> Math.log(ratio.applyAsDouble(k)), ratio);
    }

    /** Binomial(trials, p) for a probability given as a double. */
    static CountLaw binomial(long trials, double p) {
        if (trials == 0 || p == 0) {
            return degenerate(0);
        }
        if (p == 1) {
            return degenerate(trials);
        }
        LongToDoubleFunction logPmf = binomialLogPmf(trials, p, 1 - p);
        long guess = (long) Math.floor((trials + 1.0) * p);
        // Pr[k + 1] / Pr[k] = ((trials - k) / (k + 1)) (p / (1 - p))
        final double logOdds = Math.log(p) - Math.log1p(-p);
        final double odds = p / (1 - p);
        return new Wrapped(0, trials, climb(logPmf, Math.max(0, Math.min(trials, guess)), 0, trials),
                logPmf, k -> Math.log((double) (trials - k) / (k + 1.0)) + logOdds, k -> (double) (trials - k) / (k + 1.0) * odds);
    }

    /** Commons Statistics' log-pmf where the trials fit an int, {@link SaddlePoint}'s beyond (q: 1 - p, as exact as known). */
    private static LongToDoubleFunction binomialLogPmf(long trials, double p, double q) {
        if (trials <= Integer.MAX_VALUE) {
            BinomialDistribution d = BinomialDistribution.of((int) trials, p);
            return k -> d.logProbability((int) k);
        }
        return k -> SaddlePoint.logBinomial(k, trials, p, q);
    }

    /** The point mass at {@code k}. */
    static CountLaw degenerate(long k) {
        return new Wrapped(k, k, k, x -> x == k ? 0.0 : Double.NEGATIVE_INFINITY, null, null);
    }

    /** Moves from a starting guess uphill to the mode of a unimodal pmf. */
    private static long climb(LongToDoubleFunction logP, long start, long lo, long hi) {
        long k = start;
        double v = logP.applyAsDouble(k);
        while (k < hi) {
            double w = logP.applyAsDouble(k + 1);
            if (w <= v) {
                break;
            }
            k++;
            v = w;
        }
        while (k > lo) {
            double w = logP.applyAsDouble(k - 1);
            if (w <= v) {
                break;
            }
            k--;
            v = w;
        }
        return k;
    }

    /** Implementation holder; {@code logRatio} (log Pr[k + 1]/Pr[k]) and {@code ratio} (the ratio itself) may be null. */
    record Wrapped(long lower, long upper, long mode, LongToDoubleFunction logPmf, LongToDoubleFunction logRatio, LongToDoubleFunction ratio)
            implements CountLaw {
        @Override
        public double logProbability(long k) {
            if (k < lower || k > upper) {
                return Double.NEGATIVE_INFINITY;
            }
            return logPmf.applyAsDouble(k);
        }

        @Override
        public double logRatioUp(long k) {
            if (logRatio == null || k < lower || k >= upper) {
                return CountLaw.super.logRatioUp(k);
            }
            return logRatio.applyAsDouble(k);
        }

        @Override
        public double ratioUp(long k) {
            if (ratio == null || k < lower || k >= upper) {
                return CountLaw.super.ratioUp(k);
            }
            return ratio.applyAsDouble(k);
        }
    }
}
