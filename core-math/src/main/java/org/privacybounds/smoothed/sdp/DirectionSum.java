package org.privacybounds.smoothed.sdp;

import java.util.stream.IntStream;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.privacybounds.numeric.LogSumExp;

/**
 * A certified lower bound on {@code E[d_eps(H, H - e_a + e_b)]}, the expectation of one direction of a pair's divergence when
 * every record is drawn from one distribution p (H ~ Multinomial(n, p)) and T of the n records are released by sampling without
 * replacement. It is at most that assignment's value E[delta(H)], so at most delta_SDP.
 *
 * <p><b>Released and lost counts are independent.</b> With H multinomial and the released set a uniform subset of size T, the
 * released histogram K ~ Multinomial(T, p) and the lost one J = H - K ~ Multinomial(n - T, p) are independent. The likelihood
 * ratio of the neighbour at a released k is {@code rho = (j_a / h_a) (h_b + 1) / (j_b + 1)} with h = k + j, so
 * {@code E_H[d_eps] = sum over j of P(J = j) Phi(j)}, {@code Phi(j) = E_K[(1 - c R)_+]}, {@code c = e^eps j_a / (j_b + 1)} and
 * {@code R = (K_b + j_b + 1) / (K_a + j_a)} (only the counts of a and b enter).
 *
 * <p><b>Each Phi(j) from below.</b> By Jensen, {@code Phi(j) >= (1 - c E_K[R])_+}, where E_K[R] is a sum over K_a alone (given K_a,
 * K_b is Binomial(T - K_a, p_b / (1 - p_a))), taken from above. Where c E_K[R] lies near 1 (the kink, where most of the value
 * is), Phi(j) is summed exactly instead: for each K_a in a window of 12 standard deviations the sum over K_b is two binomial
 * CDFs, {@code F(t) (1 - (j_b + 1) / u) - (N q / u) F_{N-1}(t - 1)} with {@code u = (K_a + j_a) / c} and t the largest K_b with
 * {@code K_b + j_b + 1 < u} (each CDF moved by 1e-12 relative on the side that lowers the row). What is left out (other j,
 * K_a outside the window, K_a = 0 where h_a may be 0) is non-negative and dropped.
 *
 * <p>At n = 1e6 with 0.2 % lost (the vertex (0.40, 0.52, 0.08), a record moved from category 3 to 1, eps 0.5) it is 10^-8.4805993
 * in 12 s on 2 cores, where the cells' lower bound ({@link VertexLowerBound}) was 10^-8.48075. The work is the CDF pairs of the
 * kink: about 2e7 there, growing about as n^1.5; beyond {@code maxRows} it is not done.
 */
final class DirectionSum {
    private static final double CDF_MARGIN = 1e-12;
    /**
     * Half-width of the windows (of K_a and of J_b) in standard deviations: the rest is dropped (a lower bound). Past the kink's
     * middle a lost histogram's value comes from released counts far out in K_a's tail, as far as the kink reaches (8 standard
     * deviations), and its chance grows about 7-fold per lost record at n = 1e6 and eps = 2: 7 left out 5e-4 of that value, 8 left
     * out 1e-5, 10 and 12 nothing to 1e-9.
     */
    private static final double WINDOW = 12;
    /** Half-width of the kink in standard deviations of ln R. */
    private static final double KINK = 8;

    private DirectionSum() {
    }

    /**
     * ln of the lower bound for shares {@code pa, pb} of the pair's categories, n records of which T are released, or
     * -infinity where nothing is lost, a share is 0, or the kink's CDF pairs would pass {@code maxRows}.
     */
    static double logLower(long n, long sampleSize, double pa, double pb, double eps, double maxRows) {
        long lost = n - sampleSize;
        if (lost < 1 || pa <= 0 || pb <= 0 || pa + pb > 1 || n > Integer.MAX_VALUE) {
            return Double.NEGATIVE_INFINITY;
        }
        int t = (int) sampleSize;
        int l = (int) lost;
        double q = pb / (1 - pa);
        // K_a's window (K_a >= 1: h_a >= 1, so that the neighbour exists)
        double sa = Math.sqrt(t * pa * (1 - pa));
        int lo = (int) Math.max(1, Math.floor(t * pa - WINDOW * sa - 1));
        int hi = (int) Math.min(t, Math.ceil(t * pa + WINDOW * sa + 1));
        BinomialDistribution ka = BinomialDistribution.of(t, pa);
        int size = hi - lo + 1;
        double[] pk = new double[size];
        for (int i = 0; i < size; i++) {
            pk[i] = Math.exp(ka.logProbability(lo + i));
        }
        double outside = Math.min(1, (ka.cumulativeProbability(lo - 1) + ka.survivalProbability(hi)) * (1 + CDF_MARGIN) + 1e-300);
        // the kink's width: ln R spreads by about sqrt(1/E[K_a] + 1/E[K_b]) over K
        double kink = KINK * Math.sqrt(1 / (t * pa) + 1 / (t * pb));
        double ce = Math.exp(eps);
        // work: j_b values times the kink's j_a per j_b times the window
        BinomialDistribution jb = BinomialDistribution.of(l, pb);
        double sb = Math.sqrt(l * pb * (1 - pb));
        int bLo = (int) Math.max(0, Math.floor(l * pb - WINDOW * sb - 1));
        int bHi = (int) Math.min(l, Math.ceil(l * pb + WINDOW * sb + 1));
        double ratio = (t * pb) / (t * pa);
        double rows = 0;
        for (int b = bLo; b <= bHi; b++) {
            rows += (2 * kink * (b + 1) / (ce * ratio) + 3) * size;
        }
        if (rows > maxRows) {
            return Double.NEGATIVE_INFINITY;
        }
        double[][] moments = new double[l + 1][]; // per j_a: {sum p_k (T - k) q / (k + j_a), sum p_k / (k + j_a)}, from above
        LogSumExp[] parts = new LogSumExp[bHi - bLo + 1];
        IntStream.rangeClosed(bLo, bHi).parallel().forEach(b -> {
            LogSumExp s = new LogSumExp();
            double logPb = jb.logProbability(b);
            BinomialDistribution jaGivenB = l - b > 0 ? BinomialDistribution.of(l - b, pa / (1 - pb)) : null;
            double d = b + 1.0;
            for (int a = 0; a <= l - b; a++) {
                double logP = logPb + (jaGivenB == null ? 0 : jaGivenB.logProbability(a));
                if (a == 0) {
                    // rho = 0: every released k counts in full (K_a >= 1)
                    s.add(logP + Math.log(Math.max(0, 1 - outside)));
                    continue;
                }
                double c = ce * a / d;
                double[] m = moments(moments, a, lo, pk, t, q);
                double er = (m[0] + d * m[1]) * (1 + 1e-12) + outside * (t + d) / a;
                double x = c * er;
                if (x >= Math.exp(kink)) {
                    break; // c E[R] grows with j_a: every larger j_a lies beyond the kink too
                }
                double phi = Math.max(0, 1 - x);
                if (x > Math.exp(-kink)) {
                    phi = Math.max(phi, rows(a, d, c, lo, pk, t, q));
                }
                if (phi > 0) {
                    s.add(logP + Math.log(phi));
                }
            }
            parts[b - bLo] = s;
        });
        LogSumExp total = new LogSumExp();
        for (LogSumExp p : parts) {
            total.addAll(p);
        }
        // each term's log-pmf and the sums' rounding: 1e-9 relative, far above either
        return total.log() - 1e-9;
    }

    /** The sums over K_a's window for E[R] at this j_a, kept per j_a (the same for every j_b). */
    private static double[] moments(double[][] cache, int a, int lo, double[] pk, int t, double q) {
        synchronized (cache) {
            if (cache[a] == null) {
                double m0 = 0;
                double m1 = 0;
                for (int i = 0; i < pk.length; i++) {
                    int k = lo + i;
                    m0 += pk[i] * (t - k) * q / (k + a);
                    m1 += pk[i] / (k + a);
                }
                cache[a] = new double[] {m0, m1};
            }
            return cache[a];
        }
    }

    /** Phi(j) summed over K_a's window, each row from two binomial CDFs lowered for their rounding. */
    private static double rows(int a, double d, double c, int lo, double[] pk, int t, double q) {
        double sum = 0;
        for (int i = 0; i < pk.length; i++) {
            int k = lo + i;
            double u = (k + a) / c;
            long top = (long) Math.ceil(u - d) - 1; // the largest K_b with K_b + d < u
            if (top < 0) {
                continue;
            }
            int trials = t - k;
            double row;
            if (top >= trials) {
                row = 1 - d / u - trials * q / u; // every K_b: E[1 - (K_b + d) / u]
                row -= 1e-15 * (1 + d / u + trials * q / u);
            } else {
                double f = BinomialDistribution.of(trials, q).cumulativeProbability((int) top) * (1 - CDF_MARGIN);
                // sum over K_b <= top of K_b P(K_b) = N q F_{N-1}(top - 1); top < trials, so N - 1 >= top >= 1 where it is not 0
                double f1 = top >= 1 ? Math.min(1, BinomialDistribution.of(trials - 1, q).cumulativeProbability((int) top - 1) * (1 + CDF_MARGIN)) : 0;
                row = f * (1 - d / u) - trials * q * f1 / u;
                row -= 1e-15 * (f + trials * q * f1 / u);
            }
            if (row > 0) {
                sum += pk[i] * row;
            }
        }
        return sum * (1 - 1e-12);
    }
}
