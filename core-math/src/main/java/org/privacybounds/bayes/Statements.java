package org.privacybounds.bayes;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Statements I-III of the notes "DP Bayesian inference" (section 2.1) for one n, checked on the exact sequences
 * D(k) = H(B_k, B_{k+1}) and local(k):
 * <ul>
 * <li>I, corrected form: D strictly decreasing on 0..floor((n-1)/2) and strictly increasing on
 * ceil((n-1)/2)..n-1 (D(k) = D(n-1-k));</li>
 * <li>I as printed: D(k) < D(k+1) for all k >= x0, and D(k) > D(k+1) for all k <= x0; the k where
 * the printed form fails are listed;</li>
 * <li>II: local(k) = D(k) (the step to k+1) for k >= x0, local(k) = D(k-1) for k <= x0, with local(k)
 * computed by enumerating every neighbour and every output when n <= {@link #ENUMERATION_MAX_N};</li>
 * <li>III: local(k) > local(x0) for every k outside x0.</li>
 * </ul>
 * Strict comparisons are certified when their relative gap exceeds {@link #CERTIFIED_GAP}, a
 * thousand times the Hellinger evaluation's relative error; the smallest gap is reported.
 *
 * <p>Example:
 * <pre>{@code
 * Statements.Result r = Statements.check(50);
 * boolean corrected = r.statementI();            // the corrected statement I holds at n = 50
 * List<Integer> printed = r.printedFailures();   // the k where statement I as printed fails
 * }</pre>
 */
public final class Statements {
    /** Up to this n, local sensitivity is recomputed by enumeration (O(n^2) per n). */
    public static final int ENUMERATION_MAX_N = 400;
    /** Relative gap above which a strict comparison of two computed distances is certain. */
    public static final double CERTIFIED_GAP = 1e-10;

    private Statements() {
    }

    /** The verdicts for one n; failures list the k where a statement fails. */
    public record Result(int n, boolean statementI, boolean statementIAsPrinted, List<Integer> printedFailures, boolean statementII,
            boolean statementIII, double smallestRelativeGap, boolean certified, boolean enumerated) implements Serializable {
    }

    public static Result check(int n) {
        PosteriorFamily f = new PosteriorFamily(n);
        double[] d = f.adjacentDistances();
        boolean enumerate = n <= ENUMERATION_MAX_N;
        double[] local = f.localSensitivity();
        if (enumerate) {
            for (int k = 0; k <= n; k++) {
                local[k] = f.localSensitivityByEnumeration(k);
            }
        }
        int[] x0 = f.centre();
        int lo = x0[0];
        int hi = x0[x0.length - 1];
        double[] gap = {Double.POSITIVE_INFINITY};
        // I, corrected
        boolean one = true;
        for (int k = 0; k + 1 <= (n - 1) / 2; k++) {
            one &= less(d[k + 1], d[k], gap);
        }
        for (int k = n / 2; k + 1 <= n - 1; k++) { // n / 2 = ceil((n-1)/2)
            one &= less(d[k], d[k + 1], gap);
        }
        // I as printed
        List<Integer> fails = new ArrayList<>();
        for (int k = hi; k + 1 <= n - 1; k++) {
            if (!less(d[k], d[k + 1], null)) {
                fails.add(k);
            }
        }
        for (int k = 0; k <= lo && k + 1 <= n - 1; k++) {
            if (!less(d[k + 1], d[k], null)) {
                fails.add(k);
            }
        }
        // II
        boolean two = true;
        for (int k = 0; k <= n; k++) {
            if (k >= hi && k <= n - 1) {
                two &= same(local[k], d[k]);
            }
            if (k <= lo && k >= 1) {
                two &= same(local[k], d[k - 1]);
            }
        }
        // III
        boolean three = true;
        double centre = local[lo];
        for (int k = 0; k <= n; k++) {
            if (k < lo || k > hi) {
                three &= less(centre, local[k], gap);
            }
        }
        if (x0.length == 2) {
            two &= same(local[lo], local[hi]);
        }
        boolean certified = gap[0] > CERTIFIED_GAP;
        return new Result(n, one, fails.isEmpty(), List.copyOf(fails), two, three, gap[0], certified, enumerate);
    }

    private static boolean less(double a, double b, double[] gap) {
        if (!(a < b)) {
            return false;
        }
        if (gap != null) {
            gap[0] = Math.min(gap[0], (b - a) / b);
        }
        return true;
    }

    private static boolean same(double a, double b) {
        return Math.abs(a - b) <= 1e-13 * Math.max(a, b);
    }
}
