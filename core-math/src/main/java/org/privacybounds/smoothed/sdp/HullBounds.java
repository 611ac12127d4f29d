package org.privacybounds.smoothed.sdp;

import java.util.Arrays;

import org.apache.commons.numbers.gamma.LogGamma;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;

/**
 * Certified two-sided bounds on delta_SDP when evaluating every assignment is beyond reach, from the table of delta over
 * every histogram (which costs far less than the assignments).
 * <ul>
 *   <li><b>Lower:</b> an assignment that puts every record on one vertex v is one of the assignments the maximum runs over,
 *   so E[delta(H)] with H ~ Multinomial(n, p_v), summed exactly over the table, is at most delta_SDP; the best vertex is
 *   taken, and the value is lowered by 1e-7 relative for the rounding of the log-multinomial.</li>
 *   <li><b>Upper:</b> whatever the assignment, each count H_i is a sum of n independent Bernoulli variables with mean in
 *   [n min_v p_{v,i}, n max_v p_{v,i}], so by Hoeffding's inequality it leaves that range by t or more with probability at
 *   most 2 exp(-2 t^2 / n). With the box B(t) of those ranges widened by t, E[delta(H)] <= max over B(t) of delta +
 *   2 m exp(-2 t^2 / n) T/n (delta never exceeds the worst case T/n). The smallest over a ladder of t is reported, raised by
 *   the table's relative error.</li>
 * </ul>
 */
public final class HullBounds {
    private HullBounds() {
    }

    /** One eps: ln of the lower and upper bound, the vertex of the lower bound and the t of the upper. */
    public record Bounds(double epsilon, double logLower, int lowerVertex, double logUpper, double t) {
    }

    /**
     * @param logDelta    ln delta(h) for every histogram of n records over m categories, by rank: [eps][rank]
     * @param relErr      the table's largest relative error bound
     * @param logDpDelta  ln of the worst-case delta T/n
     */
    public static Bounds[] of(int n, DistributionSet vertices, double[] eps, double[][] logDelta, double relErr, double logDpDelta) {
        int m = vertices.categories();
        int l = vertices.size();
        CompositionIndex index = CompositionIndex.of(n, m);
        int size = index.size();
        double[] lo = new double[m];
        double[] hi = new double[m];
        double[][] logP = new double[l][m];
        for (int i = 0; i < m; i++) {
            lo[i] = Double.POSITIVE_INFINITY;
            hi[i] = Double.NEGATIVE_INFINITY;
            for (int v = 0; v < l; v++) {
                lo[i] = Math.min(lo[i], n * vertices.get(v)[i]);
                hi[i] = Math.max(hi[i], n * vertices.get(v)[i]);
            }
        }
        for (int v = 0; v < l; v++) {
            for (int i = 0; i < m; i++) {
                logP[v][i] = Math.log(vertices.get(v)[i]);
            }
        }
        double[] zs = {1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10, 14, 20};
        double[] ts = new double[zs.length];
        for (int k = 0; k < zs.length; k++) {
            ts[k] = zs[k] * Math.sqrt(n / 2.0);
        }
        double logNFact = LogGamma.value(n + 1.0);
        LogSumExp[][] vertexSum = new LogSumExp[eps.length][l];
        for (int e = 0; e < eps.length; e++) {
            for (int v = 0; v < l; v++) {
                vertexSum[e][v] = new LogSumExp();
            }
        }
        double[][] boxMax = new double[eps.length][ts.length];
        for (double[] row : boxMax) {
            Arrays.fill(row, Double.NEGATIVE_INFINITY);
        }
        int[] h = new int[m];
        for (int r = 0; r < size; r++) {
            index.unrank(r, h);
            // how far h lies outside the range of the means, in the worst category
            double out = 0;
            double logCoef = logNFact;
            for (int i = 0; i < m; i++) {
                out = Math.max(out, Math.max(lo[i] - h[i], h[i] - hi[i]));
                logCoef -= LogGamma.value(h[i] + 1.0);
            }
            for (int v = 0; v < l; v++) {
                double lp = logCoef;
                for (int i = 0; i < m && lp != Double.NEGATIVE_INFINITY; i++) {
                    if (h[i] > 0) {
                        lp = vertices.get(v)[i] == 0 ? Double.NEGATIVE_INFINITY : lp + h[i] * logP[v][i];
                    }
                }
                if (lp != Double.NEGATIVE_INFINITY) {
                    for (int e = 0; e < eps.length; e++) {
                        vertexSum[e][v].add(lp + logDelta[e][r]);
                    }
                }
            }
            for (int k = 0; k < ts.length; k++) {
                if (out <= ts[k]) {
                    for (int e = 0; e < eps.length; e++) {
                        boxMax[e][k] = Math.max(boxMax[e][k], logDelta[e][r]);
                    }
                }
            }
        }
        Bounds[] result = new Bounds[eps.length];
        for (int e = 0; e < eps.length; e++) {
            double bestLo = Double.NEGATIVE_INFINITY;
            int bestV = 0;
            for (int v = 0; v < l; v++) {
                double s = vertexSum[e][v].log();
                if (s > bestLo) {
                    bestLo = s;
                    bestV = v;
                }
            }
            double bestUp = logDpDelta; // delta_SDP never exceeds the worst case
            double bestT = Double.POSITIVE_INFINITY;
            for (int k = 0; k < ts.length; k++) {
                double tail = Math.log(2.0 * m) - 2 * ts[k] * ts[k] / n + logDpDelta;
                double up = LogMath.logAdd(boxMax[e][k] + Math.log1p(2 * relErr), tail);
                if (up < bestUp) {
                    bestUp = up;
                    bestT = ts[k];
                }
            }
            double lower = bestLo == Double.NEGATIVE_INFINITY ? bestLo : bestLo + Math.log1p(-1e-7) + Math.log1p(-relErr);
            result[e] = new Bounds(eps[e], lower, bestV, Math.max(bestUp, lower), bestT);
        }
        return result;
    }
}
