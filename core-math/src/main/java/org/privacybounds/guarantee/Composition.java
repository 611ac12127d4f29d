package org.privacybounds.guarantee;

import java.util.List;

import org.privacybounds.numeric.LogMath;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * Composition of mechanisms with independent randomness, for every subject:
 * <ul>
 *   <li>{@link #basic}: (sum eps_i, min(1, sum delta_i)) (Dwork and Roth, Theorem 3.16). It holds for smoothed DP too (the
 *   Smoothed DP paper's Proposition 5; its printed proof has reversed inequalities, the statement follows from the pointwise
 *   basic composition of hockey-stick divergences). Deltas are added in log space.</li>
 *   <li>{@link #general}: k-fold (eps, delta) by Kairouz, Oh and Viswanath's Theorem 3.4 in the DaRRM paper's form (its
 *   Theorem 2.3): eps' = min(k eps, t + eps sqrt(2k ln(e + sqrt(k eps^2)/delta')), t + eps sqrt(2k ln(1/delta'))) with
 *   t = k eps (e^eps - 1)/(e^eps + 1), and delta_tot = 1 - (1 - delta)^k (1 - delta') (delta' always counted).</li>
 * </ul>
 *
 * <p>Example:
 * <pre>{@code
 * Guarantee one = Guarantee.of(0.5, 1e-6, "one release", 0);
 * Guarantee ten = Composition.basic(one, 10);              // (5, 1e-5)
 * Guarantee many = Composition.general(one, 1000, 1e-5);   // Kairouz et al.: eps grows as sqrt(k) for large k
 * }</pre>
 */
public final class Composition {
    private Composition() {
    }

    /** k runs of one mechanism: (k eps, min(1, k delta)). */
    public static Guarantee basic(Guarantee g, long k) {
        if (k < 1) {
            throw new BadInputException(Parameter.COMPOSITIONS, k, "the number of compositions must be >= 1");
        }
        return new Guarantee(k * g.epsilon(), Math.min(0, Math.log(k) + g.logDelta()),
                k == 1 ? g.method() : "basic composition of " + k + " runs of: " + g.method(), g.relativeError());
    }

    /** Several mechanisms: (sum eps_i, min(1, sum delta_i)). */
    public static Guarantee basic(List<Guarantee> gs) {
        if (gs.isEmpty()) {
            throw new BadInputException(Parameter.MECHANISMS, "(none)", "give at least one guarantee to compose");
        }
        double e = 0;
        double d = Double.NEGATIVE_INFINITY;
        double err = 0;
        for (Guarantee g : gs) {
            e += g.epsilon();
            d = LogMath.logAdd(d, g.logDelta());
            err = Math.max(err, g.relativeError());
        }
        return new Guarantee(e, Math.min(0, d), "basic composition of " + gs.size() + " mechanisms", err);
    }

    /** The branch of {@link #general}'s minimum that gives its eps. */
    public static String generalBranch(long k, double epsilon, double deltaPrime) {
        return branch(generalCandidates(k, epsilon, deltaPrime));
    }

    private static String branch(double[] v) {
        if (v[0] <= v[1] && v[0] <= v[2]) {
            return "k eps";
        }
        return v[1] <= v[2] ? "ln(e + sqrt(k eps^2)/delta')" : "ln(1/delta')";
    }

    /** k-fold composition of g by Theorem 2.3 of the DaRRM paper (Kairouz et al. Theorem 3.4) with slack delta'. */
    public static Guarantee general(Guarantee g, long k, double deltaPrime) {
        if (k < 1) {
            throw new BadInputException(Parameter.COMPOSITIONS, k, "the number of compositions must be >= 1");
        }
        if (!(deltaPrime > 0 && deltaPrime <= 1)) {
            throw new BadInputException(Parameter.DELTA_PRIME, deltaPrime, "must be in (0, 1]");
        }
        double[] v = generalCandidates(k, g.epsilon(), deltaPrime);
        double eps = Math.min(v[0], Math.min(v[1], v[2]));
        double delta = g.delta();
        double dTot = -Math.expm1(k * Math.log1p(-delta) + Math.log1p(-deltaPrime));
        return Guarantee.of(eps, Math.min(1, dTot), "general composition (Kairouz et al. Theorem 3.4) of " + k + " runs, delta' = " + deltaPrime
                + ", branch " + branch(v) + ", of: " + g.method(), g.relativeError());
    }

    private static double[] generalCandidates(long k, double epsilon, double deltaPrime) {
        double t = k * epsilon * Math.expm1(epsilon) / (Math.exp(epsilon) + 1);
        double a = k * epsilon;
        double b = t + epsilon * Math.sqrt(2 * k * Math.log(Math.E + Math.sqrt(k * epsilon * epsilon) / deltaPrime));
        double c = t + epsilon * Math.sqrt(2 * k * Math.log(1 / deltaPrime));
        return new double[] {a, b, c};
    }
}
