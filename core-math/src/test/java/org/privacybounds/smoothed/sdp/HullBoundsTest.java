package org.privacybounds.smoothed.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

/** The two-sided bounds bracket delta_SDP computed over every assignment, and the lower one is an assignment's exact value. */
class HullBoundsTest {
    @Test
    void boundsBracketTheExactValue() {
        double[][][] sets = {{{0.2, 0.3, 0.5}, {0.6, 0.3, 0.1}, {0.1, 0.1, 0.8}}, {{0.3, 0.7}, {0.8, 0.2}, {0.5, 0.5}},
            {{0.25, 0.25, 0.25, 0.25}, {0.7, 0.1, 0.1, 0.1}}, {{0.4, 0.6}}, {{0.5, 0.5, 0.0}, {0.2, 0.2, 0.6}}};
        double[] eps = {0.1, 0.5, 2};
        for (double[][] v : sets) {
            List<String> labels = new ArrayList<>();
            for (int i = 0; i < v.length; i++) {
                labels.add("v" + i);
            }
            DistributionSet set = DistributionSet.of(new ArrayList<>(List.of(v)), labels, "test");
            int m = set.categories();
            for (int n : new int[] {1, 6, 14, 30}) {
                if (m == 4 && n > 14) {
                    continue;
                }
                for (int t : new int[] {Math.max(1, n - 1), Math.max(1, n / 2)}) {
                    SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t);
                    double[][] d = VertexEnumeration.deltas(mech, n, m, eps, 0, VertexEnumeration.histograms(n, m));
                    double[][] logDelta = new double[eps.length][];
                    double relErr = 0;
                    for (int e = 0; e < eps.length; e++) {
                        logDelta[e] = Arrays.copyOf(d[e], d[e].length - 1);
                        relErr = Math.max(relErr, d[e][d[e].length - 1]);
                    }
                    VertexEnumeration.Best exact = VertexEnumeration.search(n, set, logDelta, 0, n + 1);
                    HullBounds.Bounds[] b = HullBounds.of(n, set, eps, logDelta, relErr, mech.logDpDelta(n));
                    for (int e = 0; e < eps.length; e++) {
                        String at = "n " + n + " T " + t + " m " + m + " l " + set.size() + " eps " + eps[e];
                        double x = exact.logDelta()[e];
                        if (x == Double.NEGATIVE_INFINITY) {
                            assertEquals(Double.NEGATIVE_INFINITY, b[e].logLower(), at);
                            continue;
                        }
                        double tol = 1e-12 * Math.max(1, Math.abs(x)); // the exact value's own rounding
                        assertTrue(b[e].logLower() <= x + tol, at + ": lower " + b[e].logLower() + " above exact " + x);
                        assertTrue(b[e].logUpper() >= x - tol, at + ": upper " + b[e].logUpper() + " below exact " + x);
                        // the lower bound is the exact value of the all-on-one-vertex assignment (up to its 1e-7 margin)
                        int[] pure = new int[set.size()];
                        pure[b[e].lowerVertex()] = n;
                        DistributionSet one = DistributionSet.of(List.of(set.get(b[e].lowerVertex())), List.of("v"), "test");
                        double single = VertexEnumeration.search(n, one, logDelta, 0, n + 1).logDelta()[e];
                        assertEquals(single, b[e].logLower(), 2e-7, at);
                    }
                }
            }
        }
    }
}
