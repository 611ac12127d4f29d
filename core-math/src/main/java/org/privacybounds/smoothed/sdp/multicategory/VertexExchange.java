package org.privacybounds.smoothed.sdp.multicategory;

import org.apache.commons.math3.analysis.UnivariateFunction;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.univariate.BrentOptimizer;
import org.apache.commons.math3.optim.univariate.SearchInterval;
import org.apache.commons.math3.optim.univariate.UnivariateObjectiveFunction;
import org.privacybounds.numeric.LogSumExp;

/**
 * Assignments near a vertex v bounded by v's own value, by exchanging records one at a time. Let a, b be v's two smallest
 * categories, and let every vertex w of Pi have {@code w_a >= v_a} and {@code w_b >= v_b} (v has the smallest share of both
 * over Pi). E[delta(H)] is linear in each record's distribution: moving one record from w onto v changes it by
 * {@code E[sum_j (v_j - w_j) delta(R + e_j)]}, R the other n - 1 records. Where a and b hold the two smallest counts of R
 * (every other count at least both), delta(R + e_j) is the same value x = pair(R_a, R_b) for every j outside {a, b} and at
 * most x for j in {a, b} (a count raised, monotonicity), so with {@code sum_j (v_j - w_j) = 0} the change is
 * {@code (w_a - v_a)(x - delta(R + e_a)) + (w_b - v_b)(x - delta(R + e_b)) >= 0}: the move does not lower the value. Elsewhere
 * it lowers it by at most the DP delta (the shares moved sum to at most 1). So an assignment with k <= K records off v is at most v's
 * value plus {@code K DP P_max}, P_max the largest chance, over the steps, that some other count of R falls below R_a or R_b.
 *
 * <p>That chance is bounded at once for every assignment with at most K records off v: for another category k and c in
 * {a, b}, {@code R_k - R_c} is a sum of independent steps +1 (share k), -1 (share c) or 0 per record, so
 * {@code P(R_k - R_c <= -1) <= e^-lambda phi_v(lambda)^(n - 1 - K) M(lambda)^K} (Chernoff, lambda >= 0), phi_w the step's
 * moment generating function at -lambda under vertex w and M the largest over Pi (records off v may sit on whichever
 * vertex is worst); summed over the pairs (k, c).
 */
final class VertexExchange {
    private VertexExchange() {
    }

    /**
     * ln of {@code K DP P_max} (see the class comment) for the assignments with at most {@code k} records off vertex {@code v}
     * of {@code vertices} (their shares), n records in all; +infinity where some vertex has a smaller share than v in one of v's
     * two smallest categories, or where v has a category of share 0 among them.
     */
    static double logSlack(long n, double[][] vertices, int v, long k, double logDp) {
        double[] p = vertices[v];
        int[] ab = MonotoneBounds.twoSmallest(p);
        if (!dominates(vertices, v, ab)) {
            return Double.POSITIVE_INFINITY;
        }
        if (k <= 0) {
            return Double.NEGATIVE_INFINITY;
        }
        long off = Math.min(k, n - 1);
        LogSumExp miss = new LogSumExp();
        for (int other = 0; other < p.length; other++) {
            if (other == ab[0] || other == ab[1]) {
                continue;
            }
            for (int c : ab) {
                miss.add(logBelow(vertices, v, other, c, n - 1 - off, off));
            }
        }
        return Math.min(0, miss.log()) + Math.log(k) + logDp;
    }

    /**
     * The largest K in [0, n] whose {@link #logSlack} is at most {@code logTarget} (the slack grows with K: each record off v
     * may take the worst vertex's step), -1 where v's shares do not dominate (see {@link #logSlack}).
     */
    static long reach(long n, double[][] vertices, int v, double logDp, double logTarget) {
        if (!dominates(vertices, v, MonotoneBounds.twoSmallest(vertices[v]))) {
            return -1;
        }
        long lo = 0;
        long hi = n;
        while (lo < hi) {
            long mid = lo + (hi - lo + 1) / 2;
            if (logSlack(n, vertices, v, mid, logDp) <= logTarget) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** Whether every vertex has at least v's share in both categories of {@code ab}, and v's shares there are above 0. */
    static boolean dominates(double[][] vertices, int v, int[] ab) {
        double[] p = vertices[v];
        if (!(p[ab[0]] > 0 && p[ab[1]] > 0)) {
            return false;
        }
        for (double[] w : vertices) {
            if (w[ab[0]] < p[ab[0]] || w[ab[1]] < p[ab[1]]) {
                return false;
            }
        }
        return true;
    }

    /**
     * ln of a Chernoff bound on P(R_k - R_c <= -1), R the sum of {@code onV} records drawn from vertex v and {@code off} from
     * any vertices: {@code min over lambda >= 0 of -lambda + onV ln phi_v + off ln M}, each ln phi a log moment generating function
     * (convex in lambda, and so is the sum; the minimum found by Brent's method over [0, 60], any lambda giving a bound),
     * moved up by a millionth of its size and 1e-12 for the rounding of the terms.
     */
    static double logBelow(double[][] vertices, int v, int k, int c, long onV, long off) {
        UnivariateFunction f = lambda -> exponent(vertices, v, k, c, onV, off, lambda);
        double at = new BrentOptimizer(1e-10, 1e-12).optimize(new MaxEval(1_000), new UnivariateObjectiveFunction(f), GoalType.MINIMIZE,
                new SearchInterval(0, 60)).getValue();
        double best = Math.min(at, f.value(0));
        return best + 1e-6 * Math.abs(best) + 1e-12;
    }

    /** {@code -lambda + onV ln phi_v(lambda) + off max_w ln phi_w(lambda)}, phi_w = 1 + w_k (e^-lambda - 1) + w_c (e^lambda - 1). */
    private static double exponent(double[][] vertices, int v, int k, int c, long onV, long off, double lambda) {
        double worst = Double.NEGATIVE_INFINITY;
        for (double[] w : vertices) {
            worst = Math.max(worst, logPhi(w, k, c, lambda));
        }
        return -lambda + onV * logPhi(vertices[v], k, c, lambda) + (off == 0 ? 0 : off * worst);
    }

    private static double logPhi(double[] w, int k, int c, double lambda) {
        return Math.log1p(w[k] * Math.expm1(-lambda) + w[c] * Math.expm1(lambda));
    }
}
