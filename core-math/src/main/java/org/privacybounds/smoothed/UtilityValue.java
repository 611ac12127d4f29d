package org.privacybounds.smoothed;

import org.privacybounds.numeric.LogMath;

/**
 * The adversary's adjusted utility at threshold t for one database, with the corrected Lemma 10
 * bounds of the neighbour pair that attains it.
 *
 * <p>Lemma 10 as printed ({@code u < d + d' <= 3u}) has a broken proof (Smoothed DP paper, Appendix C.1: its per-output utility is normalised by 2/(e^eps + 1) instead of Eq. (3)'s e^eps + 1). For two
 * categories the identity {@code u(x, x', t) + u(x', x, t) = d(x, x') + d(x', x)} holds with
 * {@code t = e^eps/(1 + e^eps)}, hence {@code (d + d')/2 <= u(t, x cap x') <= d + d'} where
 * {@code u(t, x cap x') = max(u(x, x', t), u(x', x, t))} is Eq. (3) for the pair.
 *
 * @param threshold          t
 * @param epsilon            eps = ln(t / (1 - t))
 * @param form               which utility
 * @param logUtility         natural log of the utility
 * @param relativeErrorBound certified relative error
 * @param worst              the neighbour attaining the maximum (null if the utility is 0)
 * @param logPairUtility     log of Eq. (3) for the worst pair, {@code max(u(x,x'), u(x',x))}
 * @param logLemma10Lower    log of {@code (d + d')/2} for the worst pair
 * @param logLemma10Upper    log of {@code d + d'} for the worst pair
 */
public record UtilityValue(double threshold, double epsilon, UtilityForm form, double logUtility, double relativeErrorBound,
        Neighbor worst, double logPairUtility, double logLemma10Lower, double logLemma10Upper) {
    public double utility() {
        return Math.exp(logUtility);
    }

    public double log10Utility() {
        return LogMath.toLog10(logUtility);
    }
}
