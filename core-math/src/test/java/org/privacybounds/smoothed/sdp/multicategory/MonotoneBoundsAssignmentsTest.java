package org.privacybounds.smoothed.sdp.multicategory;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.privacybounds.smoothed.sdp.AssignmentValues.exactValues;
import static org.privacybounds.smoothed.sdp.AssignmentValues.law;
import static org.privacybounds.smoothed.sdp.AssignmentValues.logDeltas;
import static org.privacybounds.smoothed.sdp.AssignmentValues.set;
import static org.privacybounds.smoothed.sdp.AssignmentValues.vertexValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.sdp.AssignmentValues;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.VertexEnumeration;
import org.privacybounds.smoothed.sdp.pair.PairDivergence;

/**
 * The monotone bounds for three and more categories against the exact value of assignments: every assignment at small n,
 * random hulls, and random assignments at n = 200 and 2,000 (the upper side above each, the lower side below its own).
 */
class MonotoneBoundsAssignmentsTest {
    private static final double[] EPS = {0.3, 1, 3};

    @Test
    void theBoundsBracketDeltaSdpOverEveryAssignment() {
        double[][][] sets = {
            {{0.45, 0.45, 0.10}, {0.50, 0.42, 0.08}, {0.40, 0.52, 0.08}},
            {{0.2, 0.3, 0.5}, {0.6, 0.3, 0.1}, {0.1, 0.1, 0.8}, {0.3, 0.6, 0.1}, {0.5, 0.45, 0.05}},
            {{0.5, 0.5, 0.0}, {0.2, 0.2, 0.6}, {0.3, 0.4, 0.3}},
            {{0.25, 0.25, 0.25, 0.25}, {0.7, 0.1, 0.1, 0.1}, {0.1, 0.2, 0.3, 0.4}},
        };
        for (double[][] v : sets) {
            DistributionSet set = set(v);
            int m = set.categories();
            int n = m == 4 ? 16 : 30;
            for (int[] st : new int[][] {{0, n - 2}, {0, n / 2 + 1}, {0, n / 5}, {0, 2}, {0, n}, {1, n - 2}, {1, n / 2}}) {
                int t = st[1];
                SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(st[0] == 0 ? Sampling.WITHOUT_REPLACEMENT : Sampling.WITH_REPLACEMENT, t);
                double[][] logDelta = logDeltas(mech, n, m, EPS);
                VertexEnumeration.Best exact = VertexEnumeration.search(n, set, logDelta, 0, n + 1);
                PairDivergence pair = new PairDivergence(mech, n);
                MonotoneBounds.Bounds[] b = MonotoneBounds.of(pair, set, EPS, MonotoneBounds.local(pair), MonotoneBounds.Options.defaults(), x -> { });
                for (int e = 0; e < EPS.length; e++) {
                    String what = Arrays.deepToString(v) + " n=" + n + " T=" + t + " " + mech.sampling() + " eps=" + EPS[e];
                    assertTrue(b[e].logLower() <= exact.logDelta()[e] + 1e-12, what + ": lower " + b[e].logLower() + " > " + exact.logDelta()[e]);
                    assertTrue(b[e].logUpper() >= exact.logDelta()[e] - 1e-12, what + ": upper " + b[e].logUpper() + " < " + exact.logDelta()[e]);
                    assertTrue(b[e].logLower() > Double.NEGATIVE_INFINITY, what);
                    // the lower bound is the value of "every record on one vertex", itself one of the assignments, lowered by at
                    // most what it reports
                    double own = vertexValue(mech, n, v[b[e].lowerVertex()], logDelta[e], m);
                    assertTrue(b[e].logLower() <= own + 1e-12 && own <= b[e].logLowerAbove() + 1e-12, what + ": " + own + " vs " + b[e]);
                }
            }
        }
    }

    /**
     * Random hulls (m = 3 and 4, one to five vertices, shares of 0, of 1e-12 to 1e-3 and near-equal vertices), T from 1 to n, both
     * samplings, three eps: both sides bracket delta_SDP over every assignment, the lower side is finite wherever delta_SDP is
     * positive and lies below its own assignment's value. A wider run of this (300 hulls) found the lower bound of 0 of a share far
     * below one record.
     */
    @Test
    void randomHullsAreBracketed() {
        SplittableRandom r = new SplittableRandom(20261128);
        for (int k = 0; k < 14; k++) {
            int m = r.nextInt(4) == 0 ? 4 : 3;
            int l = 1 + r.nextInt(m == 3 ? 5 : 3);
            int n = m == 3 ? (l <= 2 ? 20 + r.nextInt(60) : 12 + r.nextInt(20)) : 8 + r.nextInt(12);
            double[][] v = new double[l][m];
            for (int i = 0; i < l; i++) {
                double sum = 0;
                for (int c = 0; c < m; c++) {
                    double x = r.nextInt(20) == 0 ? 0 : r.nextInt(6) == 0 ? Math.pow(10, -3 - 9 * r.nextDouble()) : 0.02 + r.nextDouble();
                    v[i][c] = i > 0 && r.nextInt(3) == 0 ? Math.max(0, v[0][c] + (r.nextDouble() - 0.5) * 0.04) : x;
                    sum += v[i][c];
                }
                if (sum == 0) {
                    v[i][0] = sum = 1;
                }
                double head = 0;
                for (int c = 0; c < m - 1; c++) {
                    v[i][c] /= sum;
                    head += v[i][c];
                }
                v[i][m - 1] = Math.max(0, 1 - head);
            }
            Sampling sampling = r.nextInt(4) == 0 ? Sampling.WITH_REPLACEMENT : Sampling.WITHOUT_REPLACEMENT;
            int t = r.nextBoolean() ? 1 + r.nextInt(n) : Math.max(1, n - 1 - r.nextInt(3));
            double[] eps = {0.5 * r.nextDouble(), 0.5 + 2 * r.nextDouble(), 3 + 5 * r.nextDouble()};
            SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(sampling, t);
            DistributionSet set = set(v);
            double[][] logDelta = logDeltas(mech, n, m, eps);
            VertexEnumeration.Best exact = VertexEnumeration.search(n, set, logDelta, 0, n + 1);
            PairDivergence pair = new PairDivergence(mech, n);
            MonotoneBounds.Bounds[] b = MonotoneBounds.of(pair, set, eps, MonotoneBounds.local(pair), MonotoneBounds.Options.defaults(), x -> { });
            for (int e = 0; e < eps.length; e++) {
                double want = exact.logDelta()[e];
                String what = Arrays.deepToString(v) + " n=" + n + " T=" + t + " " + sampling + " eps=" + eps[e] + ": " + b[e] + " vs " + want;
                assertTrue(b[e].logLower() <= want + 1e-12 && b[e].logUpper() >= want - 1e-12, what);
                assertTrue(want == Double.NEGATIVE_INFINITY || b[e].logLower() > Double.NEGATIVE_INFINITY, what);
                if (b[e].lowerCells() > 0) {
                    double own = vertexValue(mech, n, v[b[e].lowerVertex()], logDelta[e], m);
                    assertTrue(b[e].logLower() <= own + 1e-12 && own <= b[e].logLowerAbove() + 1e-12, what + ": own " + own);
                }
            }
        }
    }

    /**
     * At n = 150 with 2 % lost: delta over a window of histograms (its edges 5 sigma or more from every vertex's mean) where
     * one of the assignments puts 1e-13 or more, then the value of random assignments of the three vertices summed there (their
     * law built record by record). Each such sum is at most the assignment's value, and the upper bound must lie above it; the
     * lower bound must lie below the sum plus the mass left out at the DP delta for its own assignment.
     */
    @Test
    void theUpperBoundLiesAboveRandomAssignmentsAndTheLowerBelowItsOwn() {
        bracketRandomAssignments(Sampling.WITHOUT_REPLACEMENT);
    }

    /** The same sampled with replacement (T = 147 draws), where the mass at eps 2 lies far from the means. */
    @Test
    void withReplacementTooTheUpperBoundLiesAboveRandomAssignmentsAndTheLowerBelowItsOwn() {
        bracketRandomAssignments(Sampling.WITH_REPLACEMENT);
    }

    static void bracketRandomAssignments(Sampling sampling) {
        int n = 150;
        double[][] v = {{0.45, 0.45, 0.10}, {0.50, 0.42, 0.08}, {0.40, 0.52, 0.08}};
        DistributionSet set = set(v);
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(sampling, 147);
        double[] eps = {0.5, 2};
        PairDivergence pair = new PairDivergence(mech, n);
        MonotoneBounds.Bounds[] b = MonotoneBounds.of(pair, set, eps, MonotoneBounds.local(pair), MonotoneBounds.Options.defaults(), x -> { });
        int lo = 30;
        int hi = 110;
        SplittableRandom r = new SplittableRandom(7);
        int[][] assignments = new int[6][];
        double[][][] laws = new double[assignments.length][][];
        for (int trial = 0; trial < assignments.length; trial++) {
            int n1 = trial < 3 ? (trial == 0 ? n : 0) : r.nextInt(n + 1);
            int n2 = trial < 3 ? (trial == 1 ? n : 0) : r.nextInt(n - n1 + 1);
            assignments[trial] = new int[] {n1, n2, n - n1 - n2};
            laws[trial] = law(assignments[trial], v, n, lo, hi);
        }
        // delta on the window's histograms that carry 1e-13 or more under some assignment (the rest counts as outside)
        double[][][] delta = new double[eps.length][hi - lo + 1][hi - lo + 1];
        boolean[][] computed = new boolean[hi - lo + 1][hi - lo + 1];
        // each h1's row on its own thread (each cell written once)
        IntStream.rangeClosed(lo, hi).parallel().forEach(h1 -> {
            for (int h2 = lo; h2 <= hi && h1 + h2 <= n; h2++) {
                double most = 0;
                for (double[][] law : laws) {
                    most = Math.max(most, law[h1 - lo][h2 - lo]);
                }
                if (most < 1e-13) {
                    continue;
                }
                computed[h1 - lo][h2 - lo] = true;
                ProfileValue[] p = mech.profiles(new int[] {h1, h2, n - h1 - h2}, eps, new boolean[] {true, true});
                for (int e = 0; e < eps.length; e++) {
                    delta[e][h1 - lo][h2 - lo] = p[e].logDelta();
                }
            }
        });
        for (int trial = 0; trial < assignments.length; trial++) {
            int[] assignment = assignments[trial];
            double[][] law = laws[trial];
            for (int e = 0; e < eps.length; e++) {
                LogSumExp s = new LogSumExp();
                double inside = 0;
                for (int i = 0; i <= hi - lo; i++) {
                    for (int j = 0; j <= hi - lo && i + j + 2 * lo <= n; j++) {
                        if (computed[i][j] && law[i][j] > 0) {
                            s.add(Math.log(law[i][j]) + delta[e][i][j]);
                            inside += law[i][j];
                        }
                    }
                }
                double value = s.log();
                // the sum over the cells is at most this assignment's value, and with the mass outside them at T/n at least it
                double above = LogMath.logAdd(value, Math.log(Math.max(0, 1 - inside) + 1e-15) + mech.logDpDelta(n));
                assertTrue(b[e].logUpper() >= value, Arrays.toString(assignment) + " eps " + eps[e] + ": " + b[e].logUpper() + " < " + value);
                if (assignment[b[e].lowerVertex()] == n) {
                    assertTrue(b[e].logLower() <= above + 1e-12, "lower " + b[e].logLower() + " > " + above);
                    assertTrue(b[e].logLower() >= value - 0.2, "the lower bound is within a factor 1.22 here: " + b[e].logLower() + " vs " + value);
                }
            }
        }
    }

    /**
     * At n = 2,000 (1 % lost): random assignments of the three vertices and assignments next to the vertices; the law of
     * (H_1, H_2) of each, the multinomial of its largest block in closed form and then its other records one by one over a window
     * of 9 standard deviations that moves with the partial sums (mass leaving it is dropped, so each value is at most the
     * exact one); delta of every histogram where the law is above 1e-9 of its peak, from the mechanism itself (every directed move,
     * not the pair reduction the bounds rest on). The upper bound must lie above every assignment's value, the lower below its
     * own assignment's value with the mass left out at T/n, and both within the gap they report of the best value found.
     */
    @Test
    void atTwoThousandRecordsTheBoundsBracketRandomAssignments() {
        int n = 2_000;
        double[][] v = {{0.45, 0.45, 0.10}, {0.50, 0.42, 0.08}, {0.40, 0.52, 0.08}};
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 1_980);
        double[] eps = {0.5};
        PairDivergence pair = new PairDivergence(mech, n);
        MonotoneBounds.Bounds[] b = MonotoneBounds.of(pair, set(v), eps, MonotoneBounds.local(pair), new MonotoneBounds.Options(1e-6, 4_000,
                Double.POSITIVE_INFINITY), x -> { });
        List<int[]> assignments = new ArrayList<>(List.of(new int[] {n, 0, 0}, new int[] {0, n, 0}, new int[] {0, 0, n},
                new int[] {0, 40, n - 40}, new int[] {25, 0, n - 25}));
        SplittableRandom r = new SplittableRandom(11);
        for (int t = 0; t < 2; t++) {
            int n1 = r.nextInt(n + 1);
            int n2 = r.nextInt(n - n1 + 1);
            assignments.add(new int[] {n1, n2, n - n1 - n2});
        }
        double[][][] exacts = exactValues(assignments, v, n, mech, eps);
        double[][] best = new double[eps.length][];
        for (int a = 0; a < assignments.size(); a++) {
            int[] assignment = assignments.get(a);
            double[][] exact = exacts[a];
            for (int e = 0; e < eps.length; e++) {
                double value = exact[e][0];
                String what = Arrays.toString(assignment) + " eps " + eps[e];
                assertTrue(b[e].logUpper() >= value, what + ": upper " + b[e].logUpper() + " < " + value);
                if (assignment[b[e].lowerVertex()] == n) {
                    assertTrue(b[e].logLower() <= exact[e][1], what + ": lower " + b[e].logLower() + " > " + exact[e][1]);
                    // and that assignment's value lies within the distance the lower bound reports
                    assertTrue(value <= b[e].logLowerAbove() + 1e-12, what + ": above " + b[e].logLowerAbove() + " < " + value);
                    assertTrue(b[e].lowerRelativeError() <= Math.expm1(b[e].logUpper() - b[e].logLower()) + 1e-12, what + ": " + b[e]);
                }
                if (best[e] == null || value > best[e][0]) {
                    best[e] = exact[e];
                }
            }
        }
        // the regions of assignments at a cut that fixes 1,000 records on the lower bound's vertex or 501 on another (at n = 2,000
        // the run itself finds no cut worth it; counts move up by 2 to 45): the largest region's bound lies above every
        // assignment's value too, and within 0.1 in ln of the bounds' own upper side (2,000 evaluations a region: ln -1.405
        // against -1.465, in 3 s; on 4,000, -1.458 in 15 s)
        for (long cut : new long[] {1_000}) {
            for (int e = 0; e < eps.length; e++) {
                MonotoneBounds.Upper split = MonotoneBounds.regions(pair, set(v), b[e].lowerVertex(), cut, MonotoneBounds.logBeta(pair, b[e].logLower(), 3),
                        eps[e], MonotoneBounds.local(pair), new MonotoneBounds.Options(1e-6, 2_000, Double.POSITIVE_INFINITY), b[e].logLower(), new HashMap<>(),
                        Double.POSITIVE_INFINITY);
                assertTrue(split.log() - b[e].logUpper() < 0.1, "cut " + cut + " eps " + eps[e] + ": " + split + " against " + b[e].logUpper());
                for (int a = 0; a < assignments.size(); a++) {
                    assertTrue(split.log() >= exacts[a][e][0], "cut " + cut + " eps " + eps[e] + " " + Arrays.toString(assignments.get(a)) + ": " + split);
                }
            }
        }
        for (int e = 0; e < eps.length; e++) {
            // the best value found lies between the bounds, and they lie within the gap they report of it
            double gap = b[e].logUpper() - b[e].logLower();
            assertTrue(b[e].logLower() <= best[e][1] && best[e][0] <= b[e].logUpper(), "eps " + eps[e]);
            assertTrue(gap < 0.05 && b[e].logUpper() - best[e][0] <= gap + 1e-9, "eps " + eps[e] + ": gap " + gap);
        }
    }
}
