package org.privacybounds.numeric;

import org.apache.commons.numbers.combinatorics.LogBinomialCoefficient;
import org.apache.commons.numbers.gamma.LogGamma;

/**
 * Log-pmfs of the laws of sampled histograms. The univariate laws and the three-category marginal
 * go through {@link CountLaw} (Commons Statistics' saddle-point pmfs, accurate at any n); the
 * full multivariate pmfs use Commons Numbers' log-binomial coefficients and are meant for the
 * small-n enumerations (their absolute log error grows like ulp(log n!)).
 */
public final class LogPmf {
    private LogPmf() {
    }

    /** log Pr[K = k], K ~ Binomial(trials, num/den). */
    public static double binomial(int k, int trials, long num, long den) {
        return CountLaw.binomial(trials, num, den).logProbability(k);
    }

    /** log Pr[K = k], K ~ Hypergeometric(population, marked, draws). */
    public static double hypergeometric(int k, int population, int marked, int draws) {
        return CountLaw.hypergeometric(population, marked, draws).logProbability(k);
    }

    /**
     * log Pr[(k_a, k_b)] of the three-category marginal (a, b, rest) of the multivariate
     * hypergeometric: T draws without replacement from counts (ga, gb, n - ga - gb).
     * Equals Hyp(k_a; n, g_a, T) * Hyp(k_b; n - g_a, g_b, T - k_a).
     */
    public static double hypergeometric3(int ka, int kb, int n, int ga, int gb, int draws) {
        double first = CountLaw.hypergeometric(n, ga, draws).logProbability(ka);
        if (first == Double.NEGATIVE_INFINITY || ka > draws) {
            return Double.NEGATIVE_INFINITY;
        }
        return first + CountLaw.hypergeometric(n - ga, gb, draws - ka).logProbability(kb);
    }

    /** log of the multivariate hypergeometric pmf {@code prod_i C(H_i, k_i) / C(n, T)}. */
    public static double multivariateHypergeometric(int[] k, int[] counts) {
        int n = 0;
        int t = 0;
        double s = 0;
        for (int i = 0; i < k.length; i++) {
            if (k[i] < 0 || k[i] > counts[i]) {
                return Double.NEGATIVE_INFINITY;
            }
            s += LogBinomialCoefficient.value(counts[i], k[i]);
            n += counts[i];
            t += k[i];
        }
        return s - LogBinomialCoefficient.value(n, t);
    }

    /** log of the multinomial pmf {@code T!/prod k_i! prod (H_i/n)^{k_i}}. */
    public static double multinomial(int[] k, int[] counts) {
        long n = 0;
        for (int c : counts) {
            n += c;
        }
        int t = 0;
        double s = 0;
        for (int i = 0; i < k.length; i++) {
            if (k[i] < 0) {
                return Double.NEGATIVE_INFINITY;
            }
            if (k[i] > 0) {
                if (counts[i] == 0) {
                    return Double.NEGATIVE_INFINITY;
                }
                s += k[i] * Math.log((double) counts[i] / n) - LogGamma.value(k[i] + 1.0);
            }
            t += k[i];
        }
        return s + LogGamma.value(t + 1.0);
    }
}
