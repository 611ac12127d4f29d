package org.privacybounds.smoothed.sdp.pair;

import org.privacybounds.numeric.ChernoffTail;
import org.privacybounds.numeric.LogMath;

/**
 * Where one direction of a pair is its own largest neighbour, shown over a whole box of histograms at once, without
 * evaluating it: {@code A(u + 1, v - 1) <= A(u, v) + tau} for every source count u and destination count v of the box, A
 * moving a record from the source to the destination (sampling without replacement, L of the n records lost), tau a
 * Chernoff-small excess. {@link ShiftBoxes} shows the same from evaluations, one source count wide.
 *
 * <p><b>Two Jensen gaps.</b> A depends on the lost counts alone: {@code A(u, v) = E[phi(e^eps (J_a / u) (v + 1) / (J_b + 1))]},
 * {@code phi(y) = (1 - y)_+}. Take the histogram {@code (u + 1, v, r - 1)} (r = n - u - v) and its lost counts
 * {@code J+ ~ MvHypergeometric(L; u + 1, v, r - 1)}. Relabelling one of its source records as a third-category record gives
 * (u, v, r); the record was lost with chance {@code j / (u + 1)} given {@code J+_a = j}, so {@code J_a / u} is a two-point
 * spread of {@code j / (u + 1)} and {@code A(u, v) - A(u + 1, v) = E[S(J+)]}, S the convex phi's Jensen gap over that spread.
 * Relabelling one of its destination records instead gives (u + 1, v - 1, r), and {@code v / (J_b + 1)} is a two-point spread
 * of {@code (v + 1) / (J+_b + 1)} (lost with chance {@code J+_b / v}), so {@code A(u + 1, v - 1) - A(u + 1, v) = E[D(J+)]}.
 * Hence {@code A(u + 1, v - 1) - A(u, v) = sum over j of P(J+_a = j) (D_j - S_j)}, the rows' gaps given {@code J+_a = j}.
 *
 * <p><b>One row.</b> Given j, with {@code s = e^eps j / (u + 1)} and f the law of {@code J+_b} given j (hypergeometric), D is
 * non-zero at the one destination count beta with {@code beta < s v < beta + 1}, where it is at most
 * {@code s (1 - beta / v) / (beta + 1) <= 1 / v}: {@code D_j <= f(beta) / v}. S is a tent in the kink's position; on its rising
 * side it is at least the kink's distance past the lower point, which at {@code J+_b = beta - k} is more than
 * {@code (G - k) / (e^eps (v + 1))}, {@code G = e^eps ((u + 1)(v + 1) - j (u + v + 1)) / (u (u + 1))} (about e^eps v / u), for
 * each {@code 1 <= k < G}. So {@code S_j >= D_j} wherever
 * {@code sum over 1 <= k < G of (f(beta - k) / f(beta)) (G - k) >= e^eps (v + 1) / v}; f's ratios
 * {@code f(t - 1) / f(t) = t (R - N + t) / ((v - t + 1)(N - t + 1))} (N = L - j draws, R = r - 1) rise with t and fall with u
 * and v, and G falls with u (checked per row) and rises with v, so the condition's corners bound it over a box. Where the
 * destination's share is the larger (e^eps v / u above about 2.4) it holds on every row but those of far too few lost
 * source records, whose chance is the excess: {@code tau = P(J+_a in the failing rows) / v}, by Chernoff bounds (which hold
 * for the hypergeometric law: Hoeffding, "Probability inequalities for sums of bounded random variables", 1963, section 6).
 * At the national n (158,528,503, 0.2 % lost) with shares 0.08 and 0.40 each row holds with S at least 20 times D (eps 0.5).
 */
final class RowDomination {
    /** Room for rounding in each row's comparison (relative). */
    private static final double ROUNDING = 1e-9;

    private RowDomination() {
    }

    /**
     * ln of tau over the box of source counts [u0, u1] and destination counts [v0, v1]: for every (u, v) in it,
     * {@code A(u + 1, v - 1) <= A(u, v) + tau}; +infinity where the box is out of range (u0, v0 >= 1 and u1 + v1 <= n - 1
     * needed) or nothing is lost, -infinity where every row holds.
     *
     * @param lost L, the records not released (n minus the sample size)
     */
    static double logExcess(long n, long lost, long u0, long u1, long v0, long v1, double eps) {
        if (u0 < 1 || v0 < 1 || u1 < u0 || v1 < v0 || u1 + v1 > n - 1 || lost < 1 || lost >= n) {
            return Double.POSITIVE_INFINITY;
        }
        double e = Math.exp(eps);
        long rows = Math.min(u1 + 1, lost);
        // the failing rows below and above the least mean of J+_a (ln of their chance bounded by their extreme row)
        double split = lost * (u0 + 1.0) / n;
        long lowest = -1;
        long highest = Long.MAX_VALUE;
        for (long j = 1; j <= rows; j++) {
            if (!holds(n, lost, u0, u1, v0, v1, e, j)) {
                if (j <= split) {
                    lowest = j;
                } else if (highest == Long.MAX_VALUE) {
                    highest = j;
                }
            }
        }
        double below = lowest < 0 ? Double.NEGATIVE_INFINITY : ChernoffTail.logBinomialTail(lost, (u0 + 1.0) / n, lowest, false);
        double above = highest == Long.MAX_VALUE ? Double.NEGATIVE_INFINITY : ChernoffTail.logBinomialTail(lost, (u1 + 1.0) / n, highest, true);
        double tail = LogMath.logAdd(below, above);
        return tail == Double.NEGATIVE_INFINITY ? tail : tail - Math.log(v0) + 1e-12;
    }

    /** Whether row j's source gap is at least its destination gap at every (u, v) of the box. */
    private static boolean holds(long n, long lost, long u0, long u1, long v0, long v1, double e, long j) {
        if (j > u0) {
            return false;
        }
        // G falls with u on the box where u^2 (v + 1 - j) >= 2 u (v + 1)(j - 1) + (v + 1)(j - 1) at its least u, taken with the
        // box's least v on the left and largest on the right
        double c1 = v0 + 1.0 - j;
        double c0 = (v1 + 1.0) * (j - 1);
        if (!(c1 > 0 && (double) u0 * u0 * c1 >= 2.0 * u0 * c0 + c0)) {
            return false;
        }
        double gMin = e * ((u1 + 1.0) * (v0 + 1.0) - j * (u1 + v0 + 1.0)) / (u1 * (u1 + 1.0));
        // beta at least the largest integer below s v's least value
        long betaMin = (long) Math.ceil(e * j * v0 / (u1 + 1.0)) - 1;
        long terms = Math.min((long) Math.ceil(gMin) - 1, betaMin);
        if (terms < 1) {
            return false;
        }
        // f's ratio at the lowest destination count used, at the box's largest counts (its least there)
        long t = betaMin - terms + 1;
        long draws = lost - j;
        if (t > draws || t > v1) {
            // beta >= t lies past the destination counts the row can lose: f(beta) = 0, D_j = 0
            return true;
        }
        double others = n - u1 - v1 - 1.0;
        // t <= draws and t <= v1: the denominator is at least 1
        double m = Math.min(1, Math.max(0, t * (others - draws + t) / ((v1 - t + 1.0) * (draws - t + 1.0))));
        double target = e * (v0 + 1.0) / v0;
        double sum = 0;
        double power = 1;
        for (long k = 1; k <= terms && power > 0; k++) {
            power *= m;
            sum += power * (gMin - k);
            if (sum * (1 - ROUNDING) >= target) {
                return true;
            }
        }
        return false;
    }
}
