package org.privacybounds.ensemble;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Require;

/**
 * Composition of k (eps, delta)-DP mechanisms (spec darrm.md section 2): simple (Theorem 2.2) and
 * general (Theorem 2.3, Kairouz et al. Theorem 3.4), the latter with the paper's convention that the
 * reported delta always includes delta'.
 */
public final class Composition {
    private Composition() {
    }

    /** A composed guarantee and the branch of the minimum that gave its epsilon. */
    public record Guarantee(double epsilon, double delta, String branch) {
    }

    /** Theorem 2.2: {@code (k eps, k delta)}. */
    public static Guarantee simple(long k, double epsilon, double delta) {
        check(k, epsilon, delta);
        return new Guarantee(k * epsilon, Math.min(1, k * delta), "k eps");
    }

    /**
     * Theorem 2.3: {@code eps' = min(k eps, t + eps sqrt(2k ln(e + sqrt(k eps^2)/delta')), t + eps sqrt(2k ln(1/delta')))} with
     * {@code t = k eps (e^eps - 1)/(e^eps + 1)}, {@code delta_tot = 1 - (1 - delta)^k (1 - delta')}.
     */
    public static Guarantee general(long k, double epsilon, double delta, double deltaPrime) {
        check(k, epsilon, delta);
        if (!(deltaPrime > 0 && deltaPrime <= 1)) {
            throw new BadInputException("delta'", deltaPrime, "must be in (0, 1]");
        }
        double t = k * epsilon * Math.expm1(epsilon) / (Math.exp(epsilon) + 1);
        double a = k * epsilon;
        double b = t + epsilon * Math.sqrt(2 * k * Math.log(Math.E + Math.sqrt(k * epsilon * epsilon) / deltaPrime));
        double c = t + epsilon * Math.sqrt(2 * k * Math.log(1 / deltaPrime));
        double e = Math.min(a, Math.min(b, c));
        String branch = e == a ? "k eps" : e == b ? "ln(e + sqrt(k eps^2)/delta')" : "ln(1/delta')";
        double dTot = -Math.expm1(k * Math.log1p(-delta) + Math.log1p(-deltaPrime));
        return new Guarantee(e, dTot, branch);
    }

    private static void check(long k, double epsilon, double delta) {
        Require.positive("k", k);
        Require.positiveFinite("epsilon", epsilon);
        if (!(delta >= 0 && delta < 1)) {
            throw new BadInputException("delta", delta, "must be in [0, 1)");
        }
    }
}
