package org.privacybounds.pufferfish;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;
import org.privacybounds.validation.Require;

/** From Renyi Pufferfish privacy to (eps, delta)-Pufferfish privacy (Propositions 2.2, 4.1, C.1). */
public final class Conversions {
    private Conversions() {
    }

    /** An (eps, delta) guarantee and the Renyi order it came from. */
    public record Pp(double epsilon, double delta, double alpha) {
    }

    /** Proposition 2.2: (alpha, eps)-RPP gives {@code (eps + log(1/delta)/(alpha - 1), delta)}-PP. */
    public static Pp fromRenyi(double alpha, double epsilon, double delta) {
        Require.renyiOrder(Parameter.ALPHA, alpha);
        Require.openUnitInterval(Parameter.DELTA, delta);
        double e = alpha == Double.POSITIVE_INFINITY ? epsilon : epsilon - Math.log(delta) / (alpha - 1);
        return new Pp(e, alpha == Double.POSITIVE_INFINITY ? 0 : delta, alpha);
    }

    /**
     * From (alpha, eps, delta)-approximate RPP to {@code (eps + log(1/delta')/(alpha - 1), delta + (1 - delta) delta')}-PP, for
     * any {@code delta'} in (0, 1). Derivation (the proof of Proposition 4.1, with its two deltas kept apart): on the events of
     * probability {@code 1 - delta}, Proposition 2.2 at {@code delta'} bounds the conditional laws; outside them at most
     * {@code delta} of mass is left. Proposition 4.1 as printed is the case {@code delta' = delta} (then {@code 2 delta - delta^2},
     * stated as {@code 2 delta}). For {@code alpha = inf}: {@code (eps, delta)}-PP (Proposition C.1) and {@code delta'} is unused.
     *
     * @param approximationDelta the delta of the approximate RPP guarantee (the mechanism's own, e.g. GAWM's)
     * @param conversionDelta    the delta' of the Renyi-to-PP step
     */
    public static Pp fromApproximateRenyi(double alpha, double epsilon, double approximationDelta, double conversionDelta) {
        Require.renyiOrder(Parameter.ALPHA, alpha);
        Require.openUnitInterval(Parameter.APPROXIMATION_DELTA, approximationDelta);
        if (alpha == Double.POSITIVE_INFINITY) {
            return new Pp(epsilon, approximationDelta, alpha);
        }
        Require.openUnitInterval(Parameter.CONVERSION_DELTA, conversionDelta);
        return new Pp(epsilon - Math.log(conversionDelta) / (alpha - 1), approximationDelta + (1 - approximationDelta) * conversionDelta, alpha);
    }

    /** The best conversion over a curve eps(alpha): the smallest {@code eps(alpha) + log(1/delta)/(alpha-1)}. */
    public static Pp bestFromRenyi(double[] alphas, double[] epsilons, double delta) {
        if (alphas.length == 0 || alphas.length != epsilons.length) {
            throw new BadInputException(Parameter.ALPHAS, alphas.length, "need one epsilon per alpha, at least one");
        }
        Pp best = null;
        for (int i = 0; i < alphas.length; i++) {
            Pp p = fromRenyi(alphas[i], epsilons[i], delta);
            if (best == null || p.epsilon() < best.epsilon()) {
                best = p;
            }
        }
        return best;
    }
}
