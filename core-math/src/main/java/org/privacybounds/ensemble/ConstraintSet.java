package org.privacybounds.ensemble;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Require;

/**
 * The privacy constraints of DaRRM (Lemma 3.4, spec darrm.md sections 4.1-4.4) for K mechanisms that
 * are each (eps, Delta)-DP: every multiset of K corners of the polygon F (8 corners when Delta > 0,
 * 4 when Delta = 0), as count vectors n with sum K. For a symmetric gamma with free half
 * {@code x_j = gamma(mid + j)}, multiset n costs
 * {@code f(n) = sum_{l >= mid} a_l(n) gamma(l)}, {@code a_l = (alpha_l - E_m alpha'_l) - (alpha_{K-l} - E_m alpha'_{K-l})},
 * alpha and alpha' the Poisson-binomial laws of the p and p' of the multiset; DaRRM is (m eps, delta)-DP iff
 * every {@code f(n) <= E_m - 1 + 2 delta}.
 *
 * <p>{@link #scan} enumerates the multisets whose leading counts are a given prefix: the interior
 * corners first, each copy added to both laws by one Poisson-binomial step (partial products are
 * reused down the recursion tree), then the corners (0,0) and (1,1) last, which only shift the laws,
 * so each leaf costs O(K). A full scan is the union over {@link #prefixes}; Spark distributes them.
 *
 * <p>Example:
 * <pre>{@code
 * ConstraintSet set = ConstraintSet.of(11, 0.1, 0);        // 11 mechanisms, each 0.1-DP
 * double bound = ConstraintSet.bound(3, 0.1, 0);          // e^(m eps) - 1 + 2 delta for the target (0.3, 0)
 * double worst = set.scanAll(DarrmOptimizer.free(NoiseFunctions.subsampling(11, 3)), Math.exp(0.3), Double.POSITIVE_INFINITY, 0).max();
 * boolean private3 = worst <= bound;                      // subsampling 3 of 11 is (0.3, 0)-DP
 * }</pre>
 */
public final class ConstraintSet implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int k;
    private final double epsilon;
    private final double mechanismDelta;
    /** corners[j] = {p, p'}; interior corners first, then (0,0), then (1,1). */
    private final double[][] corners;
    private final int interior;

    private ConstraintSet(int k, double epsilon, double mechanismDelta, double[][] corners, int interior) {
        this.k = k;
        this.epsilon = epsilon;
        this.mechanismDelta = mechanismDelta;
        this.corners = corners;
        this.interior = interior;
    }

    /** The constraint set for K (odd) mechanisms, each (eps, Delta)-DP. */
    public static ConstraintSet of(int k, double epsilon, double mechanismDelta) {
        if (k < 1 || k % 2 == 0) {
            throw new BadInputException("K", k, "must be an odd number >= 1");
        }
        Require.positiveFinite("epsilon", epsilon);
        if (!(mechanismDelta >= 0 && mechanismDelta < 1)) {
            throw new BadInputException("Delta", mechanismDelta, "must be in [0, 1)");
        }
        double e = Math.exp(epsilon);
        List<double[]> c = new ArrayList<>();
        double d = mechanismDelta;
        double[][] candidates = d > 0
                ? new double[][] {{(e + d) / (e + 1), (1 - d) / (e + 1)}, {(1 - d) / (e + 1), (e + d) / (e + 1)}, {0, d}, {d, 0}, {1 - d, 1}, {1, 1 - d}}
                : new double[][] {{e / (e + 1), 1 / (e + 1)}, {1 / (e + 1), e / (e + 1)}};
        for (double[] x : candidates) {
            boolean dup = (x[0] == 0 && x[1] == 0) || (x[0] == 1 && x[1] == 1);
            for (double[] y : c) {
                dup |= Arrays.equals(x, y);
            }
            if (!dup) {
                c.add(x);
            }
        }
        int interior = c.size();
        c.add(new double[] {0, 0});
        c.add(new double[] {1, 1});
        return new ConstraintSet(k, epsilon, mechanismDelta, c.toArray(new double[0][]), interior);
    }

    public int k() {
        return k;
    }

    public double epsilon() {
        return epsilon;
    }

    public double mechanismDelta() {
        return mechanismDelta;
    }

    /** The corners {p, p'} in enumeration order (interior first, then (0,0) and (1,1)). */
    public double[][] corners() {
        return Arrays.stream(corners).map(double[]::clone).toArray(double[][]::new);
    }

    /** |P| = C(K + c - 1, c - 1). */
    public long size() {
        return NoiseFunctions.binomial(k + corners.length - 1, corners.length - 1).longValueExact();
    }

    /** Number of free variables, (K+1)/2. */
    public int free() {
        return (k + 1) / 2;
    }

    /** The constraint bound {@code E_m - 1 + 2 delta}. */
    public static double bound(double m, double epsilon, double delta) {
        return Math.expm1(m * epsilon) + 2 * delta;
    }

    /** Every count vector of the first {@code depth} interior corners with sum <= K (the units of distributed work). */
    public List<int[]> prefixes(int depth) {
        int d = Math.min(depth, interior);
        List<int[]> out = new ArrayList<>();
        prefixes(new int[d], 0, 0, out);
        return out;
    }

    private void prefixes(int[] cur, int j, int used, List<int[]> out) {
        if (j == cur.length) {
            out.add(cur.clone());
            return;
        }
        for (int n = 0; n + used <= k; n++) {
            cur[j] = n;
            prefixes(cur, j + 1, used + n, out);
        }
    }

    /** One constraint: its counts (one per corner, in {@link #corners} order), coefficients a_l (l = mid..K) and value a.x. */
    public record Row(int[] counts, double[] coefficients, double value) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** The largest cost of the scanned multisets, its row, and the {@code keep} largest rows above {@code threshold}. */
    public record ScanResult(double max, Row argmax, List<Row> above, long scanned) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** The merge of two partial scans (keeps the {@code keep} largest rows). */
        public ScanResult merge(ScanResult o, int keep) {
            Row best = o.max > max || argmax == null ? o.argmax : argmax;
            List<Row> rows = new ArrayList<>(above);
            rows.addAll(o.above);
            rows.sort((a, b) -> Double.compare(b.value(), a.value()));
            return new ScanResult(Math.max(max, o.max), best, List.copyOf(rows.subList(0, Math.min(keep, rows.size()))), scanned + o.scanned);
        }
    }

    /**
     * Scans every multiset whose leading interior counts equal {@code prefix}, for the free half x
     * and {@code em = e^{m eps}}.
     */
    public ScanResult scan(int[] prefix, double[] x, double em, double threshold, int keep) {
        if (x.length != free()) {
            throw new BadInputException("gamma", x.length + " free values", "needs (K+1)/2 = " + free());
        }
        Scanner s = new Scanner(x, em, threshold, keep);
        int used = 0;
        for (int n : prefix) {
            used += n;
        }
        if (used > k) {
            return new ScanResult(Double.NEGATIVE_INFINITY, null, List.of(), 0);
        }
        double[] p = new double[k + 1];
        double[] q = new double[k + 1];
        p[0] = 1;
        q[0] = 1;
        int size = 0;
        int[] counts = new int[corners.length];
        for (int j = 0; j < prefix.length; j++) {
            counts[j] = prefix[j];
            for (int c = 0; c < prefix[j]; c++) {
                PoissonBinomial.add(p, size, corners[j][0]);
                PoissonBinomial.add(q, size, corners[j][1]);
                size++;
            }
        }
        s.recurse(prefix.length, p, q, size, counts);
        return s.result();
    }

    /** A full scan (every multiset), single-threaded. */
    public ScanResult scanAll(double[] x, double em, double threshold, int keep) {
        return scan(new int[0], x, em, threshold, keep);
    }

    /** The row of one count vector (counts in {@link #corners} order, summing to K). */
    public Row row(int[] counts, double[] x, double em) {
        if (counts.length != corners.length || Arrays.stream(counts).sum() != k || Arrays.stream(counts).min().getAsInt() < 0) {
            throw new BadInputException("counts", Arrays.toString(counts), "needs " + corners.length + " non-negative counts summing to K = " + k);
        }
        double[] p = new double[k + 1];
        double[] q = new double[k + 1];
        p[0] = 1;
        q[0] = 1;
        int size = 0;
        for (int j = 0; j < interior + 1; j++) {
            for (int c = 0; c < counts[j]; c++) {
                PoissonBinomial.add(p, size, corners[j][0]);
                PoissonBinomial.add(q, size, corners[j][1]);
                size++;
            }
        }
        double[] a = coefficients(p, q, size, counts[interior + 1], em);
        return new Row(counts.clone(), a, dot(a, x));
    }

    /** a_l for the law of {@code size} records (entries 0..size of p, q) shifted by {@code ones}. */
    private double[] coefficients(double[] p, double[] q, int size, int ones, double em) {
        int mid = (k + 1) / 2;
        double[] a = new double[mid];
        for (int l = mid; l <= k; l++) {
            a[l - mid] = diff(p, q, size, l - ones, em) - diff(p, q, size, k - l - ones, em);
        }
        return a;
    }

    private static double diff(double[] p, double[] q, int size, int i, double em) {
        return i < 0 || i > size ? 0 : p[i] - em * q[i];
    }

    private static double dot(double[] a, double[] x) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * x[i];
        }
        return s;
    }

    private final class Scanner {
        private final double[] x;
        private final double em;
        private final double threshold;
        private final int keep;
        private final PriorityQueue<Row> top = new PriorityQueue<>((a, b) -> Double.compare(a.value(), b.value()));
        private double max = Double.NEGATIVE_INFINITY;
        private Row argmax;
        private long scanned;
        private final double[] d = new double[k + 1];

        Scanner(double[] x, double em, double threshold, int keep) {
            this.x = x;
            this.em = em;
            this.threshold = threshold;
            this.keep = keep;
        }

        void recurse(int j, double[] p, double[] q, int size, int[] counts) {
            if (j == interior) {
                leaves(p, q, size, counts);
                return;
            }
            double[] pj = p.clone();
            double[] qj = q.clone();
            int s = size;
            for (int n = 0; s <= k; n++) {
                counts[j] = n;
                recurse(j + 1, pj, qj, s, counts);
                if (s == k) {
                    break;
                }
                PoissonBinomial.add(pj, s, corners[j][0]);
                PoissonBinomial.add(qj, s, corners[j][1]);
                s++;
            }
            counts[j] = 0;
        }

        /** The interior laws fixed; the rest splits into (0,0) x n0 and (1,1) x n1, which shifts by n1. */
        private void leaves(double[] p, double[] q, int size, int[] counts) {
            for (int i = 0; i <= size; i++) {
                d[i] = p[i] - em * q[i];
            }
            int rest = k - size;
            int mid = (k + 1) / 2;
            for (int n1 = 0; n1 <= rest; n1++) {
                double v = 0;
                for (int l = mid; l <= k; l++) {
                    int i = l - n1;
                    int r = k - l - n1;
                    double a = (i >= 0 && i <= size ? d[i] : 0) - (r >= 0 && r <= size ? d[r] : 0);
                    v += a * x[l - mid];
                }
                scanned++;
                boolean record = v > max || (v > threshold && (top.size() < keep || v > top.peek().value()));
                if (record) {
                    int[] c = counts.clone();
                    c[interior] = rest - n1;
                    c[interior + 1] = n1;
                    Row row = new Row(c, coefficients(p, q, size, n1, em), v);
                    if (v > max) {
                        max = v;
                        argmax = row;
                    }
                    if (v > threshold && keep > 0) {
                        top.add(row);
                        if (top.size() > keep) {
                            top.poll();
                        }
                    }
                }
            }
        }

        ScanResult result() {
            List<Row> rows = new ArrayList<>(top);
            rows.sort((a, b) -> Double.compare(b.value(), a.value()));
            return new ScanResult(max, argmax, List.copyOf(rows), scanned);
        }
    }
}
