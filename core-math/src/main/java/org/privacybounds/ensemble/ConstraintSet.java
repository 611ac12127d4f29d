package org.privacybounds.ensemble;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;
import org.privacybounds.validation.Require;

/**
 * The privacy constraints of DaRRM (Jiang, Zhang and Joshi, "Optimized Tradeoffs for Private Prediction with Majority Ensembling", Lemmas 3.4 and 5.1, Appendix C.3) for K mechanisms that
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
    /** What each corner is, in the order of {@link #corners}. */
    private final Corner[] kinds;
    private final int interior;

    /**
     * A value a corner's p or p' takes, in terms of {@code t = e^eps} and Delta: 0, 1, Delta, 1 - Delta,
     * {@code A = (t + Delta) / (t + 1)} and {@code B = (1 - Delta) / (t + 1) = 1 - A}.
     */
    public enum Value {
        ZERO, ONE, DELTA, ONE_MINUS_DELTA, A, B;

        /** 1 - this value. */
        public Value complement() {
            return switch (this) {
                case ZERO -> ONE;
                case ONE -> ZERO;
                case DELTA -> ONE_MINUS_DELTA;
                case ONE_MINUS_DELTA -> DELTA;
                case A -> B;
                case B -> A;
            };
        }
    }

    /** A corner (p, p') of the (eps, Delta)-DP polygon F, by what its coordinates are. */
    public enum Corner {
        A_B(Value.A, Value.B), B_A(Value.B, Value.A), ZERO_DELTA(Value.ZERO, Value.DELTA), DELTA_ZERO(Value.DELTA, Value.ZERO),
        ONE_MINUS_DELTA_ONE(Value.ONE_MINUS_DELTA, Value.ONE), ONE_ONE_MINUS_DELTA(Value.ONE, Value.ONE_MINUS_DELTA),
        ZERO_ZERO(Value.ZERO, Value.ZERO), ONE_ONE(Value.ONE, Value.ONE);

        private final Value p;
        private final Value pPrime;

        Corner(Value p, Value pPrime) {
            this.p = p;
            this.pPrime = pPrime;
        }

        /** The probability of a 1 on D. */
        public Value p() {
            return p;
        }

        /** The probability of a 1 on D'. */
        public Value pPrime() {
            return pPrime;
        }
    }

    private ConstraintSet(int k, double epsilon, double mechanismDelta, double[][] corners, Corner[] kinds, int interior) {
        this.k = k;
        this.epsilon = epsilon;
        this.mechanismDelta = mechanismDelta;
        this.corners = corners;
        this.kinds = kinds;
        this.interior = interior;
    }

    /** The constraint set for K (odd) mechanisms, each (eps, Delta)-DP. */
    public static ConstraintSet of(int k, double epsilon, double mechanismDelta) {
        if (k < 1 || k % 2 == 0) {
            throw new BadInputException(Parameter.TEACHERS, k, "must be an odd number >= 1");
        }
        Require.positiveFinite(Parameter.EPSILON, epsilon);
        if (!(mechanismDelta >= 0 && mechanismDelta < 1)) {
            throw new BadInputException(Parameter.MECHANISM_DELTA, mechanismDelta, "must be in [0, 1)");
        }
        double e = Math.exp(epsilon);
        double d = mechanismDelta;
        // Delta > 0: the 8 vertices of F; Delta = 0: the 4 (the others coincide with (0,0) and (1,1))
        List<Corner> kinds = new ArrayList<>(d > 0 ? List.of(Corner.A_B, Corner.B_A, Corner.ZERO_DELTA, Corner.DELTA_ZERO, Corner.ONE_MINUS_DELTA_ONE,
                Corner.ONE_ONE_MINUS_DELTA) : List.of(Corner.A_B, Corner.B_A));
        int interior = kinds.size();
        kinds.add(Corner.ZERO_ZERO);
        kinds.add(Corner.ONE_ONE);
        double[][] c = new double[kinds.size()][];
        for (int j = 0; j < c.length; j++) {
            c[j] = new double[] {value(kinds.get(j).p(), e, d), value(kinds.get(j).pPrime(), e, d)};
        }
        return new ConstraintSet(k, epsilon, mechanismDelta, c, kinds.toArray(new Corner[0]), interior);
    }

    /** A corner value in double precision, from {@code e = e^eps}. */
    private static double value(Value v, double e, double d) {
        return switch (v) {
            case ZERO -> 0;
            case ONE -> 1;
            case DELTA -> d;
            case ONE_MINUS_DELTA -> 1 - d;
            case A -> (e + d) / (e + 1);
            case B -> (1 - d) / (e + 1);
        };
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

    /** What each corner of {@link #corners} is (interior first, then (0,0) and (1,1)). */
    public Corner[] cornerKinds() {
        return kinds.clone();
    }

    /** Number of interior corners (those in (0, 1)^2 minus the diagonal ends), enumerated before (0,0) and (1,1). */
    public int interior() {
        return interior;
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

    /**
     * The largest cost of the scanned multisets, its row, the {@code keep} largest rows above {@code threshold}, and how many
     * rows in all lie above it ({@code aboveCount} may exceed {@code above.size()}).
     */
    public record ScanResult(double max, Row argmax, List<Row> above, long scanned, long aboveCount) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** The merge of two partial scans (keeps the {@code keep} largest rows). */
        public ScanResult merge(ScanResult o, int keep) {
            Row best = o.max > max || argmax == null ? o.argmax : argmax;
            List<Row> rows = new ArrayList<>(above);
            rows.addAll(o.above);
            rows.sort((a, b) -> Double.compare(b.value(), a.value()));
            return new ScanResult(Math.max(max, o.max), best, List.copyOf(rows.subList(0, Math.min(keep, rows.size()))), scanned + o.scanned,
                    aboveCount + o.aboveCount);
        }
    }

    /**
     * Scans every multiset whose leading interior counts equal {@code prefix}, for the free half x
     * and {@code em = e^{m eps}}.
     */
    public ScanResult scan(int[] prefix, double[] x, double em, double threshold, int keep) {
        if (x.length != free()) {
            throw new BadInputException(Parameter.GAMMA, x.length + " free values", "needs (K+1)/2 = " + free());
        }
        Scanner s = new Scanner(x, em, threshold, keep);
        int used = 0;
        for (int n : prefix) {
            used += n;
        }
        if (used > k) {
            return new ScanResult(Double.NEGATIVE_INFINITY, null, List.of(), 0, 0);
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
            throw new BadInputException(Parameter.COUNTS, Arrays.toString(counts), "needs " + corners.length + " non-negative counts summing to K = " + k);
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
        private long aboveCount;
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
                if (v > threshold) {
                    aboveCount++;
                }
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
            return new ScanResult(max, argmax, List.copyOf(rows), scanned, aboveCount);
        }
    }
}
