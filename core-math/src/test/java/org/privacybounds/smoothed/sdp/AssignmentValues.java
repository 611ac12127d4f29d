package org.privacybounds.smoothed.sdp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import org.apache.commons.numbers.gamma.LogGamma;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

/**
 * Exact values for the tests of the monotone bounds: a hull as a {@link DistributionSet}, an assignment's law of its counts
 * built record by record, its value E[delta(H)] summed over that law with delta from the mechanism itself, and a vertex's
 * value summed over every histogram.
 */
public final class AssignmentValues {
    private AssignmentValues() {
    }

    /** A histogram (i, j, n - i - j) of the mechanism at one eps. */
    private record Key(Sampling sampling, long sampleSize, int n, double eps, int i, int j) {
    }

    /**
     * ln delta of the histograms already summed, shared by the tests of one run: the tests at n = 2,000 (1 % lost) meet many
     * of the same histograms, each the mechanism's own value whichever test computed it.
     */
    private static final Map<Key, Double> DELTAS = new ConcurrentHashMap<>();

    /** The vertices as a {@link DistributionSet}, labelled v0, v1, ... */
    public static DistributionSet set(double[][] v) {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < v.length; i++) {
            labels.add("v" + i);
        }
        return DistributionSet.of(new ArrayList<>(List.of(v)), labels, "test");
    }

    /**
     * {@code [assignment][eps] = {ln at most, ln at least}} each assignment's value: its law of (H_1, H_2) ({@link #windowedLaw})
     * over the cells above 1e-9 of its peak, delta of each from the mechanism itself (every directed move, not the pair
     * reduction the bounds rest on; each histogram once, in parallel), and the mass left out at T/n.
     */
    public static double[][][] exactValues(List<int[]> assignments, double[][] v, int n, SamplingHistogramMechanism mech, double[] eps) {
        List<Window> laws = new ArrayList<>();
        TreeSet<Long> needed = new TreeSet<>();
        double[][] cur = new double[n + 1][n + 1];
        double[][] next = new double[n + 1][n + 1];
        for (int[] assignment : assignments) {
            Window law = windowedLaw(assignment, v, n, cur, next);
            double peak = Arrays.stream(law.p()).flatMapToDouble(Arrays::stream).max().orElseThrow();
            for (int i = 0; i < law.p().length; i++) {
                for (int j = 0; j < law.p()[i].length; j++) {
                    if (law.p()[i][j] > 1e-9 * peak) {
                        needed.add((long) (law.i0() + i) * (n + 1) + law.j0() + j);
                    } else {
                        law.p()[i][j] = 0;
                    }
                }
            }
            laws.add(law);
        }
        long[] points = needed.stream().mapToLong(Long::longValue).toArray();
        double[][] deltas = IntStream.range(0, points.length).parallel().mapToObj(k -> {
            int i = (int) (points[k] / (n + 1));
            int j = (int) (points[k] % (n + 1));
            Key[] keys = new Key[eps.length];
            double[] out = new double[eps.length];
            boolean[] missing = new boolean[eps.length];
            boolean any = false;
            for (int e = 0; e < eps.length; e++) {
                keys[e] = new Key(mech.sampling(), mech.sampleSize(), n, eps[e], i, j);
                Double known = DELTAS.get(keys[e]);
                missing[e] = known == null;
                any |= missing[e];
                out[e] = missing[e] ? Double.NaN : known;
            }
            if (any) {
                ProfileValue[] computed = mech.profiles(new int[] {i, j, n - i - j}, eps, missing);
                for (int e = 0; e < eps.length; e++) {
                    if (missing[e]) {
                        out[e] = computed[e].logDelta();
                        DELTAS.put(keys[e], out[e]);
                    }
                }
            }
            return out;
        }).toArray(double[][]::new);
        double[][][] out = new double[assignments.size()][eps.length][];
        for (int a = 0; a < assignments.size(); a++) {
            Window law = laws.get(a);
            double summed = 0;
            LogSumExp[] sums = new LogSumExp[eps.length];
            Arrays.setAll(sums, e -> new LogSumExp());
            for (int k = 0; k < points.length; k++) {
                double p = law.at((int) (points[k] / (n + 1)), (int) (points[k] % (n + 1)));
                if (p > 0) {
                    summed += p;
                    for (int e = 0; e < eps.length; e++) {
                        sums[e].add(Math.log(p) + deltas[k][e]);
                    }
                }
            }
            assertTrue(summed > 1 - 1e-7, "the cells hold the law: " + summed);
            for (int e = 0; e < eps.length; e++) {
                double value = sums[e].log(); // at most the assignment's value
                out[a][e] = new double[] {value, LogMath.logAdd(value, Math.log(1 - summed + 1e-12) + mech.logDpDelta(n))};
            }
        }
        return out;
    }

    /** Probabilities of (h1, h2) = (i0 + i, j0 + j) at p[i][j]; 0 outside. */
    private record Window(int i0, int j0, double[][] p) {
        double at(int i, int j) {
            int a = i - i0;
            int b = j - j0;
            return a < 0 || a >= p.length || b < 0 || b >= p[a].length ? 0 : p[a][b];
        }
    }

    /**
     * The law of (H_1, H_2) of the assignment: the multinomial of its largest block in closed form over {@value #WINDOW_SD}
     * standard deviations a count, then the other blocks' records one by one over a window of as many standard deviations a
     * count around the partial sum's mean. What leaves a window is dropped, so each value is at most the exact probability.
     * {@code cur} and {@code next} are (n + 1)-square work grids, all zero on entry and again on return; the result holds the
     * last window only.
     */
    private static Window windowedLaw(int[] assignment, double[][] v, int n, double[][] cur, double[][] next) {
        int big = 0;
        for (int vi = 1; vi < assignment.length; vi++) {
            big = assignment[vi] > assignment[big] ? vi : big;
        }
        int nb = assignment[big];
        double[] pb = v[big];
        double m1 = nb * pb[0];
        double m2 = nb * pb[1];
        double v1 = nb * pb[0] * (1 - pb[0]);
        double v2 = nb * pb[1] * (1 - pb[1]);
        int[] win = window(m1, v1, m2, v2, nb);
        for (int i = win[0]; i <= win[1]; i++) {
            for (int j = win[2]; j <= win[3] && i + j <= nb; j++) {
                double lp = LogGamma.value(nb + 1.0) - LogGamma.value(i + 1.0) - LogGamma.value(j + 1.0) - LogGamma.value(nb - i - j + 1.0)
                        + i * Math.log(pb[0]) + j * Math.log(pb[1]) + (nb - i - j) * Math.log(pb[2]);
                cur[i][j] = Math.exp(lp);
            }
        }
        int used = nb;
        for (int vi = 0; vi < assignment.length; vi++) {
            double[] p = v[vi];
            for (int k = 0; vi != big && k < assignment[vi]; k++) {
                used++;
                m1 += p[0];
                m2 += p[1];
                v1 += p[0] * (1 - p[0]);
                v2 += p[1] * (1 - p[1]);
                int[] w = window(m1, v1, m2, v2, used);
                for (int i = w[0]; i <= w[1]; i++) {
                    for (int j = w[2]; j <= w[3] && i + j <= used; j++) {
                        double x = cur[i][j] * p[2];
                        if (i > 0) {
                            x += cur[i - 1][j] * p[0];
                        }
                        if (j > 0) {
                            x += cur[i][j - 1] * p[1];
                        }
                        next[i][j] = x;
                    }
                }
                for (int i = win[0]; i <= win[1]; i++) {
                    Arrays.fill(cur[i], win[2], win[3] + 1, 0);
                }
                double[][] swap = cur;
                cur = next;
                next = swap;
                win = w;
            }
        }
        double[][] p = new double[win[1] - win[0] + 1][win[3] - win[2] + 1];
        for (int i = win[0]; i <= win[1]; i++) {
            System.arraycopy(cur[i], win[2], p[i - win[0]], 0, win[3] - win[2] + 1);
            Arrays.fill(cur[i], win[2], win[3] + 1, 0);
        }
        return new Window(win[0], win[2], p);
    }

    /** Half-width of the laws' windows, in standard deviations of each count. */
    private static final double WINDOW_SD = 7;

    /**
     * {i0, i1, j0, j1}: {@value #WINDOW_SD} standard deviations a count around the mean, within [0, used]. The mass a window
     * drops (about 1e-11 for the normal part, more in the long upper tail of a small share) is what {@link #exactValues}'
     * upper end adds back.
     */
    private static int[] window(double m1, double v1, double m2, double v2, int used) {
        double w1 = WINDOW_SD * Math.sqrt(v1);
        double w2 = WINDOW_SD * Math.sqrt(v2);
        return new int[] {(int) Math.max(0, Math.floor(m1 - w1) - 1), (int) Math.min(used, Math.ceil(m1 + w1) + 1),
            (int) Math.max(0, Math.floor(m2 - w2) - 1), (int) Math.min(used, Math.ceil(m2 + w2) + 1)};
    }

    /** The law of (h1, h2) over the window for an assignment, record by record; mass leaving the window is dropped. */
    public static double[][] law(int[] assignment, double[][] v, int n, int lo, int hi) {
        // full grid of (h1, h2) for up to n records, then restricted
        double[][] cur = new double[n + 1][n + 1];
        cur[0][0] = 1;
        int used = 0;
        for (int vi = 0; vi < assignment.length; vi++) {
            for (int k = 0; k < assignment[vi]; k++) {
                double[][] next = new double[n + 1][n + 1];
                for (int i = 0; i <= used; i++) {
                    for (int j = 0; i + j <= used; j++) {
                        double x = cur[i][j];
                        if (x == 0) {
                            continue;
                        }
                        next[i + 1][j] += x * v[vi][0];
                        next[i][j + 1] += x * v[vi][1];
                        next[i][j] += x * v[vi][2];
                    }
                }
                cur = next;
                used++;
            }
        }
        double[][] out = new double[hi - lo + 1][hi - lo + 1];
        for (int i = lo; i <= hi; i++) {
            for (int j = lo; j <= hi; j++) {
                out[i - lo][j - lo] = cur[i][j];
            }
        }
        return out;
    }

    /** ln delta of every histogram of n records over m categories by rank, [eps][rank] (the enumeration's table). */
    public static double[][] logDeltas(SamplingHistogramMechanism mech, int n, int m, double[] eps) {
        double[][] d = VertexEnumeration.deltas(mech, n, m, eps, 0, VertexEnumeration.histograms(n, m));
        double[][] logDelta = new double[eps.length][];
        for (int e = 0; e < eps.length; e++) {
            logDelta[e] = Arrays.copyOf(d[e], d[e].length - 1);
        }
        return logDelta;
    }

    /** ln E[delta(H)], H ~ Multinomial(n, p), over every histogram (exact up to the table's rounding). */
    public static double vertexValue(SamplingHistogramMechanism mech, int n, double[] p, double[] logDelta, int m) {
        CompositionIndex index = CompositionIndex.of(n, m);
        int[] h = new int[m];
        LogSumExp s = new LogSumExp();
        for (int r = 0; r < index.size(); r++) {
            index.unrank(r, h);
            double lp = LogGamma.value(n + 1.0);
            for (int i = 0; i < m; i++) {
                lp -= LogGamma.value(h[i] + 1.0);
                if (h[i] > 0) {
                    lp += p[i] == 0 ? Double.NEGATIVE_INFINITY : h[i] * Math.log(p[i]);
                }
            }
            s.add(lp + logDelta[r]);
        }
        return s.log();
    }
}
