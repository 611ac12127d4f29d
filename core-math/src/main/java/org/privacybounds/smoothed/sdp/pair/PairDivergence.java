package org.privacybounds.smoothed.sdp.pair;

import java.io.Serializable;

import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

/**
 * The largest divergence of one pair of categories {a, b}: the four hockey-stick divergences between h and its neighbours
 * {@code h - e_a + e_b} and {@code h - e_b + e_a}, both orders. delta_eps(h) is the largest of these over all pairs.
 *
 * <p>The pair's divergences depend on h only through {@code (h_a, h_b)} and n (the likelihood ratio depends on the sample
 * only through {@code (k_a, k_b)}), so they are evaluated on the three-category histogram {@code (h_a, h_b, n - h_a - h_b)}.
 *
 * <p><b>Monotonicity.</b> Moving one record from any third category c into a (or into b) cannot raise any of the four.
 * Take the database of h and one c-record z in it; relabelling z to a gives the database of {@code h + e_a - e_c}. Its
 * sample is the old sample with z relabelled if z was drawn. Given only the sampled histogram k, z was drawn with
 * probability {@code k_c / h_c} (without replacement, by exchangeability of the c-records), and with replacement the number
 * of draws of z among the k_c draws of category c is Binomial(k_c, 1/h_c). This Markov kernel depends on h_c alone, which
 * the neighbour {@code h - e_a + e_b} shares, so the same kernel maps both laws of the pair, and the hockey-stick
 * divergence cannot grow (data processing). Hence, with every count at least 1,
 * <ul>
 *   <li>{@code pair(h) <= pair(t_a, t_b, n - t_a - t_b)} whenever {@code h_a >= t_a} and {@code h_b >= t_b};</li>
 *   <li>{@code pair(h) >= pair(u_a, u_b, n - u_a - u_b)} whenever {@code h_a <= u_a} and {@code h_b <= u_b}.</li>
 * </ul>
 * This is what lets the bounds for three or more categories ({@code multicategory.MonotoneBounds}) bound delta over whole regions of histograms from a few evaluations.
 */
public record PairDivergence(SamplingHistogramMechanism mechanism, long n) implements Serializable {
    /**
     * ln of the largest of the pair's four divergences at {@code (ha, hb, n - ha - hb)}, its relative error bound and the terms
     * summed for it (its work): {@code {ln value, relative error, terms}}. Needs {@code ha, hb >= 1} and {@code ha + hb <= n}.
     */
    public double[] log(long ha, long hb, double eps) {
        if (ha < 1 || hb < 1 || ha + hb > n) {
            throw new IllegalArgumentException("pair counts out of range: " + ha + ", " + hb + " of n = " + n);
        }
        // the mechanism skips the sums whose mass bound lies below the largest found (at large n two of the four)
        ProfileValue v = mechanism.pairProfile(new long[] {ha, hb, n - ha - hb}, 0, 1, eps);
        return new double[] {v.logDelta(), v.relativeErrorBound(), v.terms()};
    }
}
