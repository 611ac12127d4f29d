package org.privacybounds.pufferfish;

import org.privacybounds.validation.BadInputException;
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
        Require.renyiOrder("alpha", alpha);
        Require.openUnitInterval("delta", delta);
        double e = alpha == Double.POSITIVE_INFINITY ? epsilon : epsilon - Math.log(delta) / (alpha - 1);
        return new Pp(e, alpha == Double.POSITIVE_INFINITY ? 0 : delta, alpha);
    }

    /** Proposition 4.1: (alpha, eps, delta)-approximate RPP gives {@code (eps + log(1/delta)/(alpha - 1), 2 delta)}-PP; Proposition C.1 for alpha = inf. */
    public static Pp fromApproximateRenyi(double alpha, double epsilon, double delta) {
        Require.renyiOrder("alpha", alpha);
        Require.openUnitInterval("delta", delta);
        if (alpha == Double.POSITIVE_INFINITY) {
            return new Pp(epsilon, delta, alpha);
        }
        return new Pp(epsilon - Math.log(delta) / (alpha - 1), 2 * delta, alpha);
    }

    /** The best conversion over a curve eps(alpha): the smallest {@code eps(alpha) + log(1/delta)/(alpha-1)}. */
    public static Pp bestFromRenyi(double[] alphas, double[] epsilons, double delta) {
        if (alphas.length == 0 || alphas.length != epsilons.length) {
            throw new BadInputException("alphas", alphas.length, "need one epsilon per alpha, at least one");
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
