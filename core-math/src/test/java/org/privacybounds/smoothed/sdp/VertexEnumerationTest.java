package org.privacybounds.smoothed.sdp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.privacybounds.numeric.Compositions;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

/** The table-based enumeration equals full enumeration (Algorithm 1 record by record) for every split of the work. */
class VertexEnumerationTest {
    @Test
    void ranksEnumerateEveryHistogramInOrder() {
        for (int m = 1; m <= 4; m++) {
            for (int k = 0; k <= 7; k++) {
                CompositionIndex idx = CompositionIndex.of(k, m);
                List<int[]> all = Compositions.of(k, m);
                assertEquals(all.size(), idx.size());
                int[] h = new int[m];
                List<String> seen = new ArrayList<>();
                for (int r = 0; r < idx.size(); r++) {
                    idx.unrank(r, h);
                    assertEquals(r, idx.rank(h));
                    seen.add(Arrays.toString(h));
                }
                assertEquals(seen.stream().distinct().count(), seen.size());
            }
        }
    }

    @Test
    void equalsFullEnumerationForAnySplit() {
        double[][][] sets = {{{0.2, 0.3, 0.5}, {0.6, 0.3, 0.1}, {0.1, 0.1, 0.8}}, {{0.3, 0.7}, {0.8, 0.2}, {0.5, 0.5}}, {{0.25, 0.25, 0.25, 0.25}, {0.7, 0.1, 0.1, 0.1}},
            {{0.4, 0.6}}};
        double[] eps = {0.3, 1.5};
        for (double[][] v : sets) {
            List<double[]> pts = new ArrayList<>(List.of(v));
            List<String> labels = new ArrayList<>();
            for (int i = 0; i < v.length; i++) {
                labels.add("v" + i);
            }
            DistributionSet set = DistributionSet.of(pts, labels, "test");
            int m = set.categories();
            for (int n : new int[] {1, 5, 9}) {
                SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, Math.max(1, n - 1));
                List<SmoothedValue> full = ReferenceAlgorithm1.enumerate(mech, n, set, eps);
                double[][] d = VertexEnumeration.deltas(mech, n, m, eps, 0, VertexEnumeration.histograms(n, m));
                double[][] logDelta = new double[eps.length][];
                for (int e = 0; e < eps.length; e++) {
                    logDelta[e] = Arrays.copyOf(d[e], d[e].length - 1);
                }
                double[][] given = Arrays.stream(logDelta).map(double[]::clone).toArray(double[][]::new);
                VertexEnumeration.Best whole = VertexEnumeration.search(n, set, logDelta, 0, n + 1);
                for (int e = 0; e < eps.length; e++) {
                    // the table is shared by the tasks of one JVM (a Spark broadcast): the search must leave it as it was
                    assertArrayEquals(given[e], logDelta[e], 0, "the search changed its delta table");
                }
                VertexEnumeration.Best logs = VertexEnumeration.searchLogSpace(n, set, logDelta, 0, n + 1);
                VertexEnumeration.Best split = VertexEnumeration.search(n, set, logDelta, n / 2, n + 1).merge(VertexEnumeration.search(n, set, logDelta, 0, n / 2));
                for (int e = 0; e < eps.length; e++) {
                    assertEquals(full.get(e).logDelta(), whole.logDelta()[e], 1e-12 * Math.max(1, Math.abs(full.get(e).logDelta())), "n " + n + " m " + m);
                    assertEquals(whole.logDelta()[e], split.logDelta()[e], 0);
                    assertEquals(logs.logDelta()[e], whole.logDelta()[e], 1e-12 * Math.max(1, Math.abs(logs.logDelta()[e])));
                    // (the argmax may differ where two assignments tie to the last bits)
                    assertArrayEquals(whole.argmax()[e], split.argmax()[e]);
                }
                assertEquals(full.get(0).evaluated(), whole.evaluated(), "n " + n + " l " + set.size() + " m " + m);
                assertEquals(whole.evaluated(), split.evaluated());
            }
        }
    }
}
