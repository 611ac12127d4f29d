package org.privacybounds.bayes;

import org.apache.commons.numbers.gamma.LogGamma;
import org.privacybounds.validation.Parameter;
import org.privacybounds.validation.Require;

/**
 * The candidates of the notes "DP Bayesian inference" for one n: the posteriors B_k = Beta(k+1, n-k+1), k = 0..n, of a
 * Beta(1,1) prior after k ones in n records, with the utility u(k, r) = -H(B_k, B_r) and its
 * sensitivities (the notes, section 1). Neighbouring databases change one record: k to k +/- 1.
 *
 * <p>Shortcuts, each also computed by enumeration for checking: by the triangle inequality for the
 * Hellinger metric, max_r |H(B_k, r) - H(B_k', r)| = H(B_k, B_k'), attained at r = B_k'. So with
 * D(k) = H(B_k, B_{k+1}): local sensitivity = max(D(k-1), D(k)) (existing terms), global = max_k D(k)
 * = D(0), and the smooth sensitivity S_beta(k) = max_k' local(k') e^(-beta |k - k'|).
 *
 * <p>Example:
 * <pre>{@code
 * PosteriorFamily f = new PosteriorFamily(20);     // Beta(1 + k, 1 + 20 - k), k = 0..20
 * double h = f.hellinger(3, 4);                   // Hellinger distance of the posteriors of k = 3 and r = 4
 * double[] local = f.localSensitivity();          // local sensitivity of the utility -H at each k
 * }</pre>
 */
public final class PosteriorFamily implements ChainAudit.Utility {
    private final int n;
    private final double[] adjacent;

    public PosteriorFamily(int n) {
        Require.positive(Parameter.N, n);
        this.n = n;
        this.adjacent = new double[n];
        for (int k = 0; k < n; k++) {
            adjacent[k] = BetaHellinger.posteriors(n, k, k + 1);
        }
    }

    public int n() {
        return n;
    }

    @Override
    public int databases() {
        return n + 1;
    }

    @Override
    public int outputs() {
        return n + 1;
    }

    /** u(k, r) = -H(B_k, B_r) for r = 0..n. */
    @Override
    public void row(int k, double[] u) {
        for (int r = 0; r <= n; r++) {
            u[r] = -hellinger(k, r);
        }
    }

    /** H(B_k, B_r). */
    public double hellinger(int k, int r) {
        if (Math.abs(k - r) == 1) {
            return adjacent[Math.min(k, r)];
        }
        return BetaHellinger.posteriors(n, k, r);
    }

    /** D(k) = H(B_k, B_{k+1}), k = 0..n-1 (a copy). */
    public double[] adjacentDistances() {
        return adjacent.clone();
    }

    /** Local sensitivity of every database, k = 0..n: max(D(k-1), D(k)) over the terms that exist. */
    public double[] localSensitivity() {
        double[] l = new double[n + 1];
        for (int k = 0; k <= n; k++) {
            l[k] = Math.max(k > 0 ? adjacent[k - 1] : 0, k < n ? adjacent[k] : 0);
        }
        return l;
    }

    /** Local sensitivity of database k by enumeration: max over neighbours y and all outputs r of |u(k,r) - u(y,r)|. */
    public double localSensitivityByEnumeration(int k) {
        double best = 0;
        for (int y = k - 1; y <= k + 1; y += 2) {
            if (y < 0 || y > n) {
                continue;
            }
            for (int r = 0; r <= n; r++) {
                best = Math.max(best, Math.abs(hellinger(k, r) - hellinger(y, r)));
            }
        }
        return best;
    }

    /** Global sensitivity: max_k D(k). */
    public double globalSensitivity() {
        double g = 0;
        for (double d : adjacent) {
            g = Math.max(g, d);
        }
        return g;
    }

    /** Global sensitivity by enumeration of every neighbouring pair and every output: {value, k, k+1, r}. */
    public double[] globalSensitivityByEnumeration() {
        double[] best = {0, -1, -1, -1};
        double[] a = new double[n + 1];
        double[] b = new double[n + 1];
        row(0, a);
        for (int k = 0; k < n; k++) {
            row(k + 1, b);
            for (int r = 0; r <= n; r++) {
                double d = Math.abs(a[r] - b[r]);
                if (d > best[0]) {
                    best = new double[] {d, k, k + 1, r};
                }
            }
            double[] t = a;
            a = b;
            b = t;
        }
        return best;
    }

    /** The closed form of the global sensitivity: H(Beta(1,n+1), Beta(2,n)) = sqrt(1 - Gamma(3/2) Gamma(n+1/2) sqrt(n) / Gamma(n+1)). */
    public static double globalSensitivityClosedForm(int n) {
        double logRatio = LogGamma.value(1.5) + LogGamma.value(n + 0.5) + 0.5 * Math.log(n) - LogGamma.value(n + 1.0);
        return Math.sqrt(Math.max(0, -Math.expm1(logRatio)));
    }

    /** S_beta(k) = max_k' local(k') e^(-beta |k - k'|), k = 0..n, in O(n) by two running maxima. */
    public double[] smoothSensitivity(double beta) {
        if (!(beta >= 0) || Double.isInfinite(beta)) {
            throw new IllegalArgumentException("beta must be finite and >= 0: " + beta);
        }
        double[] l = localSensitivity();
        double decay = Math.exp(-beta);
        double[] s = new double[n + 1];
        double run = 0;
        for (int k = 0; k <= n; k++) {
            run = Math.max(l[k], run * decay);
            s[k] = run;
        }
        run = 0;
        for (int k = n; k >= 0; k--) {
            run = Math.max(l[k], run * decay);
            s[k] = Math.max(s[k], run);
        }
        return s;
    }

    /** The x0 of the notes (the centre): {n/2} for even n, {(n-1)/2, (n+1)/2} for odd n. */
    public int[] centre() {
        return n % 2 == 0 ? new int[] {n / 2} : new int[] {(n - 1) / 2, (n + 1) / 2};
    }
}
