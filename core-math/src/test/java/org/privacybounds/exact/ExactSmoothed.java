package org.privacybounds.exact;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.privacybounds.numeric.Compositions;
import org.privacybounds.smoothed.Sampling;

/**
 * Reference path for delta_SDP: for every assignment of the n records to the vertices, the exact
 * law of the histogram (products of the vertices' probabilities, taken as the exact binary values
 * of the doubles, in 60-digit decimals) by enumerating every database as a sequence of categories,
 * times the exact delta(H) of {@link ExactSamplingProfile}. Tiny n only (m^n databases).
 */
public final class ExactSmoothed {
    private ExactSmoothed() {
    }

    /** max over assignments of E[delta(H)]; returns the value and (in assignmentOut) the argmax. */
    public static BigDecimal delta(Sampling sampling, int sampleSize, int n, double[][] vertices, double eps, int[] assignmentOut) {
        int l = vertices.length;
        int m = vertices[0].length;
        ExactSamplingProfile prof = new ExactSamplingProfile(sampling, sampleSize);
        Map<String, BigDecimal> deltaCache = new HashMap<>();
        BigDecimal best = BigDecimal.ONE.negate();
        List<int[]> assignments = Compositions.of(n, l);
        for (int[] a : assignments) {
            // the vertex of each record position
            int[] vertexOf = new int[n];
            int pos = 0;
            for (int j = 0; j < l; j++) {
                for (int r = 0; r < a[j]; r++) {
                    vertexOf[pos++] = j;
                }
            }
            BigDecimal e = BigDecimal.ZERO;
            int[] seq = new int[n];
            long total = (long) Math.pow(m, n);
            for (long code = 0; code < total; code++) {
                long c = code;
                BigDecimal p = BigDecimal.ONE;
                int[] h = new int[m];
                for (int i = 0; i < n; i++) {
                    seq[i] = (int) (c % m);
                    c /= m;
                    h[seq[i]]++;
                    p = p.multiply(new BigDecimal(vertices[vertexOf[i]][seq[i]]), ExactMath.MC);
                }
                if (p.signum() == 0) {
                    continue;
                }
                String key = Arrays.toString(h);
                BigDecimal d = deltaCache.computeIfAbsent(key, k -> prof.delta(h, eps));
                e = e.add(p.multiply(d, ExactMath.MC), ExactMath.MC);
            }
            if (e.compareTo(best) > 0) {
                best = e;
                System.arraycopy(a, 0, assignmentOut, 0, l);
            }
        }
        return best;
    }

}
