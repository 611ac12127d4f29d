package org.privacybounds.smoothed.sdp.multicategory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.sdp.AssignmentValues;
import org.privacybounds.smoothed.sdp.CompositionIndex;
import org.privacybounds.smoothed.sdp.VertexEnumeration;

/** Assignments near a vertex bounded by the vertex's own value ({@link VertexExchange}). */
class VertexExchangeTest {

    /**
     * The step the bound rests on, from the mechanism itself (delta of every histogram, every directed move): where v's two
     * smallest categories a, b hold the two smallest counts of R (n - 1 records) and every vertex w has at least v's shares
     * there, {@code sum_j (w_j - v_j) delta(R + e_j) <= 0}, so a record moved from v to w never raises E[delta]. Checked for
     * every such R at n = 30 (three categories) and n = 14 (four), both samplings, eps 0.3, 1 and 3. Where the shares do not
     * dominate (a vertex with less of b) some R breaks it, so the condition is not idle.
     */
    @Test
    void aRecordMovedOffTheVertexNeverRaisesTheValueWhereItsPairStaysTheTwoSmallest() {
        double[] eps = {0.3, 1, 3};
        double[][][] hulls = {
            {{0.6, 0.3, 0.1}, {0.4, 0.35, 0.25}, {0.3, 0.5, 0.2}},
            {{0.5, 0.2, 0.2, 0.1}, {0.3, 0.3, 0.2, 0.2}, {0.25, 0.25, 0.3, 0.2}},
        };
        for (double[][] v : hulls) {
            int m = v[0].length;
            int n = m == 3 ? 30 : 14;
            int[] ab = MonotoneBounds.twoSmallest(v[0]);
            assertTrue(VertexExchange.dominates(v, 0, ab));
            for (SamplingHistogramMechanism mech : List.of(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, n - 3),
                    SamplingHistogramMechanism.of(Sampling.WITH_REPLACEMENT, n / 2))) {
                double[][] d = VertexEnumeration.deltas(mech, n, m, eps, 0, VertexEnumeration.histograms(n, m));
                CompositionIndex full = CompositionIndex.of(n, m);
                CompositionIndex less = CompositionIndex.of(n - 1, m);
                int[] r = new int[m];
                int checked = 0;
                for (int rank = 0; rank < less.size(); rank++) {
                    less.unrank(rank, r);
                    if (!pairHoldsTheTwoSmallest(r, ab)) {
                        continue;
                    }
                    checked++;
                    for (int e = 0; e < eps.length; e++) {
                        for (double[] w : v) {
                            double change = 0;
                            for (int j = 0; j < m; j++) {
                                r[j]++;
                                change += (w[j] - v[0][j]) * Math.exp(d[e][full.rank(r)]);
                                r[j]--;
                            }
                            assertTrue(change <= 1e-12, Arrays.toString(r) + " " + Arrays.toString(w) + " eps " + eps[e] + " " + mech.sampling() + ": " + change);
                        }
                    }
                }
                assertTrue(checked > 50, "histograms checked: " + checked);
            }
        }
        // a vertex with less of v's second smallest category than v: some R where the pair holds the two smallest is raised
        double[] v0 = {0.6, 0.3, 0.1};
        double[] w = {0.75, 0.1, 0.15};
        int n = 30;
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, n - 3);
        double[][] d = VertexEnumeration.deltas(mech, n, 3, new double[] {1}, 0, VertexEnumeration.histograms(n, 3));
        CompositionIndex full = CompositionIndex.of(n, 3);
        CompositionIndex less = CompositionIndex.of(n - 1, 3);
        int[] r = new int[3];
        double most = Double.NEGATIVE_INFINITY;
        for (int rank = 0; rank < less.size(); rank++) {
            less.unrank(rank, r);
            if (pairHoldsTheTwoSmallest(r, new int[] {2, 1})) {
                double change = 0;
                for (int j = 0; j < 3; j++) {
                    r[j]++;
                    change += (w[j] - v0[j]) * Math.exp(d[0][full.rank(r)]);
                    r[j]--;
                }
                most = Math.max(most, change);
            }
        }
        assertTrue(most > 1e-6, "largest change " + most);
    }

    private static boolean pairHoldsTheTwoSmallest(int[] r, int[] ab) {
        for (int k = 0; k < r.length; k++) {
            if (k != ab[0] && k != ab[1] && (r[k] < r[ab[0]] || r[k] < r[ab[1]])) {
                return false;
            }
        }
        return true;
    }

    /**
     * The Chernoff bound on {@code P(R_k - R_c <= -1)} lies above the exact chance (the law of the sum of the records' steps,
     * convolved exactly) for assignments with up to K records off v on any of the vertices, and within a few units of its log
     * where the chance is small (Chernoff's polynomial factor).
     */
    @Test
    void theChanceThatAnotherCountComesBelowThePairIsBoundedForEveryAssignmentOffTheVertex() {
        double[][] v = {{0.5, 0.35, 0.15}, {0.3, 0.4, 0.3}, {0.2, 0.6, 0.2}};
        int n = 400;
        for (int off : new int[] {0, 10, 60, 150}) {
            for (int k = 0; k < 3; k++) {
                for (int c = 0; c < 3; c++) {
                    if (k == c) {
                        continue;
                    }
                    double bound = VertexExchange.logBelow(v, 0, k, c, n - 1 - off, off);
                    // splits of the records off v between the other two vertices (and v itself: fewer off)
                    double most = Double.NEGATIVE_INFINITY;
                    for (int on1 = 0; on1 <= off; on1 += Math.max(1, off / 6)) {
                        for (int back : new int[] {0, off / 2}) {
                            double exact = logBelowExact(new int[] {n - 1 - off + back, on1 - Math.min(on1, back), off - on1 - (back - Math.min(on1, back))}, v, k, c);
                            String what = "off " + off + " k " + k + " c " + c + " on vertex 1: " + on1 + " back on v: " + back;
                            assertTrue(bound >= exact - 1e-9, what + ": " + bound + " < " + exact);
                            most = Math.max(most, exact);
                        }
                    }
                    if (most < Math.log(1e-6)) {
                        assertTrue(bound <= most + 8, "off " + off + " k " + k + " c " + c + ": " + bound + " vs " + most);
                    }
                }
            }
        }
    }

    /** ln P(sum of steps <= -1), each record on vertex w stepping +1 with w_k, -1 with w_c: the exact law, convolved. */
    private static double logBelowExact(int[] counts, double[][] v, int k, int c) {
        int total = Arrays.stream(counts).sum();
        double[] law = new double[2 * total + 1];
        law[total] = 1;
        for (int w = 0; w < counts.length; w++) {
            for (int i = 0; i < counts[w]; i++) {
                double[] next = new double[law.length];
                for (int x = 0; x < law.length; x++) {
                    if (law[x] == 0) {
                        continue;
                    }
                    next[x] += law[x] * (1 - v[w][k] - v[w][c]);
                    if (x + 1 < law.length) {
                        next[x + 1] += law[x] * v[w][k];
                    }
                    if (x > 0) {
                        next[x - 1] += law[x] * v[w][c];
                    }
                }
                law = next;
            }
        }
        double below = 0;
        for (int x = 0; x < total; x++) {
            below += law[x];
        }
        return Math.log(below);
    }

    /**
     * The whole bound against every assignment at n = 24 (three categories, 3 lost): each assignment's exact value (its law
     * convolved, delta of every histogram from the mechanism) is at most v's value plus the slack at its number of records off
     * v, on a hull where many assignments lie above v's value (so the slack is what keeps them). The slack grows with K, and is
     * +infinity where v does not dominate.
     */
    @Test
    void everyAssignmentNearTheVertexIsAtMostItsValuePlusTheSlack() {
        // the third vertex's value is the larger (its category 1 is the smallest): assignments near it lie above v's value
        double[][] v = {{0.75, 0.15, 0.10}, {0.6, 0.15, 0.25}, {0.05, 0.85, 0.10}};
        int n = 24;
        double[] eps = {0.3, 1, 3};
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, n - 3);
        double[][] d = VertexEnumeration.deltas(mech, n, 3, eps, 0, VertexEnumeration.histograms(n, 3));
        CompositionIndex full = CompositionIndex.of(n, 3);
        double logDp = mech.logDpDelta(n);
        double[] own = new double[eps.length];
        for (int e = 0; e < eps.length; e++) {
            own[e] = logValue(new int[] {n, 0, 0}, v, d[e], full);
        }
        int tight = 0;
        int above = 0;
        for (int n1 = 0; n1 <= n; n1++) {
            for (int n2 = 0; n1 + n2 <= n; n2++) {
                int[] a = {n - n1 - n2, n1, n2};
                long offV = n1 + n2;
                double slack = VertexExchange.logSlack(n, v, 0, offV, logDp);
                for (int e = 0; e < eps.length; e++) {
                    double value = logValue(a, v, d[e], full);
                    assertTrue(value <= LogMath.logAdd(own[e], slack) + 1e-12, Arrays.toString(a) + " eps " + eps[e] + ": " + value + " > " + own[e] + " + " + slack);
                    tight += slack < own[e] - 2 ? 1 : 0;
                    above += value > own[e] ? 1 : 0;
                }
            }
        }
        assertTrue(tight > 10 && above > 10, "assignments where the slack is far below the value: " + tight + ", above v's value: " + above);
        double last = Double.NEGATIVE_INFINITY;
        for (long k = 0; k <= n; k++) {
            double s = VertexExchange.logSlack(n, v, 0, k, logDp);
            assertTrue(s >= last, "K " + k);
            last = s;
        }
        // the second vertex's two smallest are categories 2 and 3 (0.15, 0.25), and the first has less of category 3 (0.10)
        assertEquals(Double.POSITIVE_INFINITY, VertexExchange.logSlack(n, v, 1, 3, logDp));
    }

    /** ln E[delta(H)] of an assignment (counts per vertex), its law convolved record by record over every histogram. */
    private static double logValue(int[] assignment, double[][] v, double[] delta, CompositionIndex full) {
        int n = Arrays.stream(assignment).sum();
        double[][] law = AssignmentValues.law(assignment, v, n, 0, n);
        double sum = 0;
        int[] h = new int[3];
        for (int x = 0; x <= n; x++) {
            for (int y = 0; x + y <= n; y++) {
                if (law[x][y] > 0) {
                    h[0] = x;
                    h[1] = y;
                    h[2] = n - x - y;
                    sum += law[x][y] * Math.exp(delta[full.rank(h)]);
                }
            }
        }
        return Math.log(sum);
    }
}
