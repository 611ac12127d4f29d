package org.privacybounds.smoothed.sdp;

import java.io.Serializable;
import java.util.Arrays;
import java.util.function.IntConsumer;

import org.apache.commons.numbers.combinatorics.LogBinomialCoefficient;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * Algorithm 1 exactly, for any number m of categories and l of vertices, organised so that its work splits over executors:
 * every assignment {@code (n_1, ..., n_l)} of the n records to the vertices is evaluated, none skipped, in log space.
 *
 * <ul>
 *   <li>{@link #deltas}: {@code ln delta_eps(H)} for every histogram H of n records, in ranges of histograms;</li>
 *   <li>the last vertex is summed out by a table instead of record by record:
 *   {@code G_r(s) = ln E[delta(s + H_r)]}, {@code H_r ~ Mult(r, p_l)}, for every s of n - r records, from
 *   {@code G_r(s) = ln sum_c p_lc exp G_{r-1}(s + e_c)} and {@code G_0 = ln delta};</li>
 *   <li>the other vertices by the law of their histogram, grown one record at a time over the first l - 1 counts
 *   (depth-first), and at each leaf {@code ln E = ln sum_s L(s) exp G_{n - |s|}(s)}. {@link #search} does the leaves whose
 *   first count lies in a range: the unit of distributed work.</li>
 * </ul>
 * Cost: about {@code C(n+m, m) m} table entries per eps and, for l = 3, about {@code n^4 / 8} multiply-adds per eps against
 * the {@code n^5} of adding every record; memory {@code C(n+m, m)} doubles per eps. Histograms of k records are ranked in
 * lexicographic order of their first m - 1 counts ({@link CompositionIndex}).
 */
public final class VertexEnumeration {
    private VertexEnumeration() {
    }

    /** Where the work stands: the largest expectation per eps, its assignment, and how many assignments were evaluated. */
    public record Best(double[] logDelta, int[][] argmax, long evaluated) implements Serializable {
        private static final long serialVersionUID = 1L;

        static Best none(int eps) {
            double[] v = new double[eps];
            Arrays.fill(v, Double.NEGATIVE_INFINITY);
            return new Best(v, new int[eps][], 0);
        }

        /** The better of two parts (ties: the first in assignment order, so the merge order does not matter). */
        public Best merge(Best o) {
            double[] v = logDelta.clone();
            int[][] a = argmax.clone();
            for (int e = 0; e < v.length; e++) {
                if (o.logDelta[e] > v[e] || (o.logDelta[e] == v[e] && o.argmax[e] != null && (a[e] == null || Arrays.compare(o.argmax[e], a[e]) < 0))) {
                    v[e] = o.logDelta[e];
                    a[e] = o.argmax[e];
                }
            }
            return new Best(v, a, evaluated + o.evaluated);
        }
    }

    /** Histograms of n records with m categories. */
    public static int histograms(int n, int m) {
        return CompositionIndex.of(n, m).size();
    }

    /**
     * {@code ln delta_eps(H)} for the histograms of rank {@code from} to {@code to} (exclusive), and in the last slot of each
     * row the largest relative error bound among them: {@code out[e][rank - from]}.
     */
    public static double[][] deltas(SamplingHistogramMechanism mechanism, int n, int m, double[] eps, int from, int to) {
        CompositionIndex index = CompositionIndex.of(n, m);
        double[][] out = new double[eps.length][to - from + 1];
        int[] h = new int[m];
        for (int r = from; r < to; r++) {
            index.unrank(r, h);
            for (int e = 0; e < eps.length; e++) {
                ProfileValue v = mechanism.profile(h, eps[e]);
                out[e][r - from] = v.logDelta();
                out[e][to - from] = Math.max(out[e][to - from], v.relativeErrorBound());
            }
        }
        return out;
    }

    /** The tables {@code G_0..G_n} of the last vertex for one eps (G_r indexed by rank among histograms of n - r records). */
    static double[][] lastVertexTables(double[] logDelta, int n, int m, double[] lastVertex) {
        double[] logP = logs(lastVertex);
        double[][] g = new double[n + 1][];
        g[0] = logDelta;
        int[] s = new int[m];
        for (int r = 1; r <= n; r++) {
            CompositionIndex idx = CompositionIndex.of(n - r, m);
            CompositionIndex up = CompositionIndex.of(n - r + 1, m);
            double[] cur = new double[idx.size()];
            for (int k = 0; k < cur.length; k++) {
                idx.unrank(k, s);
                LogSumExp acc = new LogSumExp();
                for (int c = 0; c < m; c++) {
                    if (logP[c] > Double.NEGATIVE_INFINITY) {
                        s[c]++;
                        acc.add(logP[c] + g[r - 1][up.rank(s)]);
                        s[c]--;
                    }
                }
                cur[k] = acc.log();
            }
            g[r] = cur;
        }
        return g;
    }

    /**
     * The assignments whose first count lies in {@code [from, to)} (all assignments when there is one vertex): their exact
     * expectations, the best per eps and how many were evaluated. {@code logDelta[e]} holds {@code ln delta} of every
     * histogram of n records by rank.
     */
    public static Best search(int n, DistributionSet vertices, double[][] logDelta, int from, int to) {
        Best fast = Dense.search(n, vertices, logDelta, from, to);
        return fast != null ? fast : searchLogSpace(n, vertices, logDelta, from, to);
    }

    /** {@link #search} with every law and table in log space: slower, never limited by the range of doubles. */
    public static Best searchLogSpace(int n, DistributionSet vertices, double[][] logDelta, int from, int to) {
        int m = vertices.categories();
        int l = vertices.size();
        int eps = logDelta.length;
        double[][][] g = new double[eps][][];
        for (int e = 0; e < eps; e++) {
            g[e] = lastVertexTables(logDelta[e], n, m, vertices.get(l - 1));
        }
        Best best = Best.none(eps);
        if (l == 1) {
            return from <= 0 && to > 0 ? leaf(g, new double[] {0}, 0, new int[] {n}, best, m) : best;
        }
        double[][] logP = new double[l][];
        for (int j = 0; j < l; j++) {
            logP[j] = logs(vertices.get(j));
        }
        // the law of the first vertex's histogram after `from` records, then one record at a time
        double[] law = {0};
        for (int k = 0; k < from; k++) {
            law = addOne(law, k, logP[0], m);
        }
        int[] assignment = new int[l];
        for (int n1 = from; n1 < to && n1 <= n; n1++) {
            assignment[0] = n1;
            best = descend(1, n1, law, assignment, logP, g, n, m, best);
            if (n1 + 1 < to && n1 < n) {
                law = addOne(law, n1, logP[0], m);
            }
        }
        return best;
    }

    /** Vertex j gets 0..(n - used) records (the last vertex the rest, through its table). */
    private static Best descend(int j, int used, double[] law, int[] assignment, double[][] logP, double[][][] g, int n, int m, Best best) {
        int l = assignment.length;
        if (j == l - 1) {
            assignment[j] = n - used;
            return leaf(g, law, used, assignment, best, m);
        }
        double[] cur = law;
        for (int take = 0; take <= n - used; take++) {
            assignment[j] = take;
            best = descend(j + 1, used + take, cur, assignment, logP, g, n, m, best);
            if (take < n - used) {
                cur = addOne(cur, used + take, logP[j], m);
            }
        }
        assignment[j] = 0;
        return best;
    }

    /**
     * The fast path of {@link #search}: laws in linear scale on a dense grid of the first m - 1 counts (stride n + 1), renormalised
     * to a maximum of 1 after every record with the scale kept as a logarithm; tables {@code G_r} in linear scale divided by their
     * maximum. Every term is a product of non-negative numbers, so rounding stays relative (about 2^-52 per term). What the range
     * of doubles drops (entries below 2^-1022 of their law's or table's maximum) is at most {@code n E^3 2^-1022} of a law's
     * mass, E the number of entries; a leaf whose normalised sum is below 1e-250 could lose a relevant share to that, and then
     * the task returns null and {@link #searchLogSpace} computes it instead.
     */
    static final class Dense {
        private Dense() {
        }

        static Best search(int n, DistributionSet vertices, double[][] logDelta, int from, int to) {
            int m = vertices.categories();
            int l = vertices.size();
            double cells = Math.pow(n + 1, m - 1);
            if (cells > 5e7) {
                return null;
            }
            int eps = logDelta.length;
            double[][][] g = new double[eps][][];
            double[][] gMax = new double[eps][];
            for (int e = 0; e < eps; e++) {
                // each row scaled by its largest value and taken out of log space in place: a second copy of the tables had
                // doubled a task's memory (n = 1,000, m = 3: 2.7 GB a task, and two tasks on a 2-core local master ran out of heap)
                double[][] t = lastVertexTables(logDelta[e], n, m, vertices.get(l - 1));
                gMax[e] = new double[n + 1];
                for (int r = 0; r <= n; r++) {
                    double max = Double.NEGATIVE_INFINITY;
                    for (double v : t[r]) {
                        max = Math.max(max, v);
                    }
                    gMax[e][r] = max;
                    // row 0 is the caller's delta table itself (shared by the tasks of one JVM): copied, not overwritten
                    double[] row = r == 0 ? t[0].clone() : t[r];
                    for (int k = 0; k < row.length; k++) {
                        row[k] = max > Double.NEGATIVE_INFINITY ? Math.exp(row[k] - max) : 0;
                    }
                    t[r] = row;
                }
                g[e] = t;
            }
            Law law = new Law(n, m);
            Best best = Best.none(eps);
            if (l == 1) {
                return from <= 0 && to > 0 ? law.leaf(g, gMax, new int[] {n}, best) : best;
            }
            double[][] p = new double[l][];
            for (int j = 0; j < l; j++) {
                p[j] = vertices.get(j);
            }
            for (int k = 0; k < from; k++) {
                law.addOne(p[0]);
            }
            int[] assignment = new int[l];
            for (int n1 = from; n1 < to && n1 <= n; n1++) {
                assignment[0] = n1;
                best = descend(1, law, assignment, p, g, gMax, n, best);
                if (best == null) {
                    return null;
                }
                if (n1 + 1 < to && n1 < n) {
                    law.addOne(p[0]);
                }
            }
            return best;
        }

        private static Best descend(int j, Law law, int[] assignment, double[][] p, double[][][] g, double[][] gMax, int n, Best best) {
            int l = assignment.length;
            if (j == l - 1) {
                assignment[j] = n - law.records;
                return law.leaf(g, gMax, assignment, best);
            }
            Law cur = law.copy();
            int free = n - law.records;
            for (int take = 0; take <= free; take++) {
                assignment[j] = take;
                best = descend(j + 1, cur, assignment, p, g, gMax, n, best);
                if (best == null) {
                    return null;
                }
                if (take < free) {
                    cur.addOne(p[j]);
                }
            }
            assignment[j] = 0;
            return best;
        }
    }

    /** A law of the histogram of some records on the dense grid of its first m - 1 counts, linear, max 1, with its log scale. */
    static final class Law {
        final int n;
        final int m;
        final int[] stride;
        double[] cell;
        double logScale;
        int records;

        Law(int n, int m) {
            this.n = n;
            this.m = m;
            stride = new int[Math.max(0, m - 1)];
            int s = 1;
            for (int i = 0; i < m - 1; i++) {
                stride[i] = s;
                s *= n + 1;
            }
            cell = new double[s];
            cell[0] = 1;
        }

        Law copy() {
            Law c = new Law(n, m, stride);
            c.cell = cell.clone();
            c.logScale = logScale;
            c.records = records;
            return c;
        }

        private Law(int n, int m, int[] stride) {
            this.n = n;
            this.m = m;
            this.stride = stride;
        }

        /** One more record drawn from p. */
        void addOne(double[] p) {
            double[] next = new double[cell.length];
            int[] h = new int[Math.max(1, m - 1)];
            int k = records;
            double last = p[m - 1];
            // odometer over the first m - 1 counts with sum <= k, lexicographic (first count slowest)
            walk(k, h, idx -> {
                double v = cell[idx];
                if (v != 0) {
                    for (int c = 0; c < m - 1; c++) {
                        next[idx + stride[c]] += v * p[c];
                    }
                    next[idx] += v * last;
                }
            });
            records++;
            double max = 0;
            for (double v : next) {
                max = Math.max(max, v);
            }
            double inv = 1 / max;
            for (int i = 0; i < next.length; i++) {
                next[i] *= inv;
            }
            logScale += Math.log(max);
            cell = next;
        }

        /** ln E for the assignment: this law (the first vertices' records) against G of the last vertex's r = n - records records. */
        Best leaf(double[][][] g, double[][] gMax, int[] assignment, Best best) {
            double[] v = best.logDelta().clone();
            int[][] a = best.argmax().clone();
            int r = n - records;
            for (int e = 0; e < g.length; e++) {
                double[] table = g[e][r];
                double[] sum = {0};
                int[] rank = {0};
                walk(records, new int[Math.max(1, m - 1)], idx -> sum[0] += cell[idx] * table[rank[0]++]);
                if (sum[0] != 0 && sum[0] < 1e-250) {
                    return null; // too close to the range of doubles: the log-space path decides this task
                }
                double value = sum[0] == 0 ? Double.NEGATIVE_INFINITY : logScale + gMax[e][r] + Math.log(sum[0]);
                if (value > v[e] || a[e] == null) {
                    v[e] = value;
                    a[e] = assignment.clone();
                }
            }
            return new Best(v, a, best.evaluated() + 1);
        }

        /** Calls {@code visit} with the dense index of every histogram of k records, in lexicographic (rank) order. */
        void walk(int k, int[] h, IntConsumer visit) {
            if (m == 1) {
                visit.accept(0);
                return;
            }
            walk(0, k, 0, h, visit);
        }

        private void walk(int i, int left, int idx, int[] h, IntConsumer visit) {
            if (i == m - 1) {
                visit.accept(idx);
                return;
            }
            for (int v = 0; v <= left; v++) {
                h[i] = v;
                walk(i + 1, left - v, idx + v * stride[i], h, visit);
            }
        }
    }

    /** ln E for one assignment: the law L of the first vertices' histogram (of `used` records) against G of the rest. */
    private static Best leaf(double[][][] g, double[] law, int used, int[] assignment, Best best, int m) {
        double[] v = best.logDelta().clone();
        int[][] a = best.argmax().clone();
        int r = assignment[assignment.length - 1];
        for (int e = 0; e < g.length; e++) {
            double[] table = g[e][r];
            double max = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < law.length; k++) {
                max = Math.max(max, law[k] + table[k]);
            }
            double s = 0;
            if (max > Double.NEGATIVE_INFINITY) {
                for (int k = 0; k < law.length; k++) {
                    double t = law[k] + table[k];
                    if (t > Double.NEGATIVE_INFINITY) {
                        s += Math.exp(t - max);
                    }
                }
            }
            double value = max == Double.NEGATIVE_INFINITY ? max : max + Math.log(s);
            if (value > v[e] || a[e] == null) {
                v[e] = value;
                a[e] = assignment.clone();
            }
        }
        return new Best(v, a, best.evaluated() + 1);
    }

    /** The law of a histogram of k records (by rank) after one more record drawn from a distribution (log space). */
    static double[] addOne(double[] law, int k, double[] logP, int m) {
        CompositionIndex from = CompositionIndex.of(k, m);
        CompositionIndex to = CompositionIndex.of(k + 1, m);
        double[] next = new double[to.size()];
        Arrays.fill(next, Double.NEGATIVE_INFINITY);
        int[] h = new int[m];
        for (int r = 0; r < law.length; r++) {
            if (law[r] == Double.NEGATIVE_INFINITY) {
                continue;
            }
            from.unrank(r, h);
            for (int c = 0; c < m; c++) {
                if (logP[c] > Double.NEGATIVE_INFINITY) {
                    h[c]++;
                    int t = to.rank(h);
                    next[t] = LogMath.logAdd(next[t], law[r] + logP[c]);
                    h[c]--;
                }
            }
        }
        return next;
    }

    private static double[] logs(double[] p) {
        double[] l = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            l[i] = Math.log(p[i]);
        }
        return l;
    }

    /**
     * {core-seconds, bytes} of an exact run, fitted at m = 3, l = 3 (n = 200: 10 s for the deltas, 6.3 s for the assignments,
     * two eps, one core): about 2.5e-4 s per histogram and eps (profiles of a wide sample), 1.6e-8 s per multiply-add of the
     * leaves and the laws per eps, and the last vertex's tables ({@code C(n+m, m) m} log-sum-exps per eps on each of
     * {@code tasks} tasks, 1.3e-7 s each: measured at n = 1,000, m = 3, 12 tasks on 2 cores, where 3e-8 fitted at n = 200 had
     * put 13 core-minutes at 3). Memory: the tables of each of {@code concurrent} tasks running at once in one JVM (a
     * local master's cores), {@code C(n+m, m)} doubles per eps each, and the delta table.
     */
    public static double[] estimate(int n, int m, int l, int eps, int tasks, int concurrent) {
        double hist = binomial(n + m - 1, m - 1);
        double tables = binomial(n + m, m);
        double leaves = 0;
        for (int used = 0; used <= n; used++) {
            leaves += (l > 1 ? binomial(used + l - 2, l - 2) : (used == 0 ? 1 : 0)) * binomial(used + m - 1, m - 1);
        }
        double seconds = 1 + eps * (2.5e-4 * hist + 1.3e-7 * tables * m * tasks + 1.6e-8 * leaves * m);
        return new double[] {seconds, 8.0 * (tables * Math.max(1, concurrent) + hist) * eps};
    }

    static double binomial(int n, int k) {
        if (k < 0 || k > n) {
            return 0;
        }
        return Math.exp(LogBinomialCoefficient.value(n, k));
    }

    /** Checks that the tables of one task fit in int-indexed arrays. */
    public static void check(int n, int m) {
        if (binomial(n + m - 1, m - 1) > Integer.MAX_VALUE - 8) {
            throw new BadInputException(Parameter.N, n, "has more than 2^31 histograms over " + m + " categories; not enumerable");
        }
    }
}
