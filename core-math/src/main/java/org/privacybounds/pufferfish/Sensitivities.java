package org.privacybounds.pufferfish;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The Wasserstein sensitivities of a Pufferfish framework whose conditional laws of the query,
 * {@code mu_s = P(f(X) | s, theta)}, are given per secret s (one prior theta; d = 1). Every unordered
 * pair of secrets is a discriminative pair (all couplings used are symmetric, so one order suffices).
 * <ul>
 * <li>{@code Delta_G = max W_inf(mu_s, mu_t)} (Theorem 3.3), {@code Delta_G^(p) = max W_p} (Corollary 4.1),</li>
 * <li>{@code Delta_{G,delta} = max z*(delta)} (Theorem 4.3), optional,</li>
 * <li>{@code Delta_range = max - min} of all atoms: the DP sensitivity of releasing one record's value,
 * which is also {@code Delta_GROUP} when each record is its own group (Proposition B.1).</li>
 * </ul>
 * Each maximum comes with the first pair (in the order of the map) that attains it.
 *
 * <p>Example:
 * <pre>{@code
 * Map<String, DiscreteLaw> laws = Map.of("yes", DiscreteLaw.of(12, 14, 15, 15), "no", DiscreteLaw.of(8, 10, 15));
 * Sensitivities.Result r = Sensitivities.of(laws, 2, Double.NaN);
 * double wInf = r.wInfinity();   // Delta_G = max W_inf over the secret pairs (General Wasserstein Mechanism)
 * double w2 = r.wP();            // Delta_G,2 = max W_2
 * }</pre>
 */
public final class Sensitivities {
    private Sensitivities() {
    }

    /** The values of one pair of secrets. {@code nearRadius} is NaN when no delta was asked for. */
    public record PairValue(String s, String t, double wInfinity, double wP, double nearRadius) {
    }

    /** The maxima over all pairs, with their arguments, and every pair's values. */
    public record Result(double range, double p, double delta, double wInfinity, PairValue wInfinityPair, double wP, PairValue wPPair,
            double nearRadius, PairValue nearRadiusPair, List<PairValue> pairs) {
    }

    /**
     * @param laws  per secret, its conditional law of the query (at least two secrets)
     * @param p     the order of W_p (2 for the Cauchy mechanism of Table 1)
     * @param delta the delta of the approximate radius, or NaN to skip it
     */
    public static Result of(Map<String, DiscreteLaw> laws, double p, double delta) {
        if (laws.size() < 2) {
            throw new BadInputException(Parameter.SECRETS, laws.keySet(), "need at least two secret values with data");
        }
        List<String> names = new ArrayList<>(laws.keySet());
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (DiscreteLaw l : laws.values()) {
            lo = Math.min(lo, l.min());
            hi = Math.max(hi, l.max());
        }
        List<PairValue> pairs = new ArrayList<>();
        PairValue bi = null;
        PairValue bp = null;
        PairValue bn = null;
        for (int i = 0; i < names.size(); i++) {
            for (int j = i + 1; j < names.size(); j++) {
                DiscreteLaw a = laws.get(names.get(i));
                DiscreteLaw b = laws.get(names.get(j));
                double near = Double.isNaN(delta) ? Double.NaN : Couplings.nearRadius(a, b, delta);
                PairValue v = new PairValue(names.get(i), names.get(j), Couplings.wInfinity(a, b), Couplings.wP(a, b, p), near);
                pairs.add(v);
                if (bi == null || v.wInfinity() > bi.wInfinity()) {
                    bi = v;
                }
                if (bp == null || v.wP() > bp.wP()) {
                    bp = v;
                }
                if (bn == null || v.nearRadius() > bn.nearRadius()) {
                    bn = v;
                }
            }
        }
        return new Result(hi - lo, p, delta, bi.wInfinity(), bi, bp.wP(), bp, bn.nearRadius(), Double.isNaN(delta) ? null : bn, List.copyOf(pairs));
    }

    /**
     * {@code log Delta_G^{zeta,q,alpha}} of Theorem 4.5: the largest, over pairs, of
     * {@code log E_pi[phi(X - Y)]}, phi the noise's shift factor at {@code alpha' = q(alpha - 1) + 1},
     * under the quantile coupling (optimal: these phi are convex in |v|).
     */
    public static double logDistributionAware(Map<String, DiscreteLaw> laws, Noise noise, double q, double alpha) {
        double alphaPrime = q * (alpha - 1) + 1;
        List<DiscreteLaw> l = new ArrayList<>(laws.values());
        double m = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < l.size(); i++) {
            for (int j = i + 1; j < l.size(); j++) {
                m = Math.max(m, Couplings.logExpectation(l.get(i), l.get(j), v -> noise.logShiftFactor(alphaPrime, v)));
            }
        }
        return m;
    }
}
