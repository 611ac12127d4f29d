package org.privacybounds.quantized;

import java.util.Arrays;

/**
 * The laws of the code sum of T and of T - 1 records drawn without replacement from a database
 * minus one of its records, for every distinct code present, by one divide-and-conquer pass.
 *
 * <p>The generating polynomial of a database y is {@code prod over records (1 + rho w z^c)}: the
 * coefficient of {@code w^t z^s} is {@code rho^t} times the number of t-subsets of y with code sum
 * s, so level t divided by its own total is the law of the sum of t records sampled without
 * replacement. "All records but one of code a" is obtained for every a without dividing
 * polynomials (which would subtract): the codes are split in halves, each half is multiplied into
 * a copy of the product of everything outside it, and the recursion ends at a single code with
 * its multiplicity less one. Every operation adds or multiplies non-negative numbers, so each
 * coefficient carries a relative error of at most {@code 2 u} per record (u = 2^-53), and the
 * work is about {@code n log2(m)} record multiplications of O(T^2 W) each (m distinct codes of
 * width W), instead of m full products. rho = T/(n - T) keeps the level totals near their
 * maximum at level T, far from overflow and underflow.
 */
final class LeaveOneOut {
    /** Receives the leave-one-out polynomial of each distinct code. */
    interface Leaf {
        void accept(int codeIndex, double[][] levels);
    }

    private final int[] codes;
    private final int[] counts;
    private final int lo;
    private final int width;
    private final int top;
    private final double rho;

    /**
     * @param codes distinct codes present, ascending
     * @param counts their multiplicities (>= 1)
     * @param top the highest level needed (T)
     * @param rho the weight of one record
     */
    LeaveOneOut(int[] codes, int[] counts, int top, double rho) {
        this.codes = codes;
        this.counts = counts;
        this.lo = codes[0];
        this.width = codes[codes.length - 1] - codes[0];
        this.top = top;
        this.rho = rho;
    }

    /** Level t of a polynomial has {@code t * width + 1} entries; entry i is the code sum i + t * lo. */
    int base(int t) {
        return t * lo;
    }

    /** Visits every distinct code. */
    void run(Leaf leaf) {
        boolean[] all = new boolean[codes.length];
        Arrays.fill(all, true);
        run(all, leaf);
    }

    /**
     * Visits the distinct codes marked in {@code wanted} only: halves without a wanted code are
     * never descended into, so k wanted codes cost about k n record multiplications.
     */
    void run(boolean[] wanted, Leaf leaf) {
        this.wanted = wanted;
        double[][] one = new double[top + 1][];
        for (int t = 0; t <= top; t++) {
            one[t] = new double[t * width + 1];
        }
        one[0][0] = 1;
        solve(0, codes.length, one, 0, leaf);
    }

    private boolean[] wanted;

    private boolean anyWanted(int from, int to) {
        for (int j = from; j < to; j++) {
            if (wanted[j]) {
                return true;
            }
        }
        return false;
    }

    /** The polynomial of the whole database (no record left out). */
    double[][] full() {
        double[][] p = new double[top + 1][];
        for (int t = 0; t <= top; t++) {
            p[t] = new double[t * width + 1];
        }
        p[0][0] = 1;
        int r = 0;
        for (int j = 0; j < codes.length; j++) {
            for (int k = 0; k < counts[j]; k++) {
                multiply(p, codes[j], r++);
            }
        }
        return p;
    }

    private void solve(int from, int to, double[][] acc, int records, Leaf leaf) {
        if (to - from == 1) {
            int r = records;
            for (int k = 1; k < counts[from]; k++) {
                multiply(acc, codes[from], r++);
            }
            leaf.accept(from, acc);
            return;
        }
        int mid = (from + to) >>> 1;
        boolean goRight = anyWanted(mid, to);
        int r;
        if (anyWanted(from, mid)) {
            double[][] left = goRight ? copy(acc) : acc;
            r = records;
            for (int j = mid; j < to; j++) {
                for (int k = 0; k < counts[j]; k++) {
                    multiply(left, codes[j], r++);
                }
            }
            solve(from, mid, left, r, leaf);
        }
        if (!goRight) {
            return;
        }
        r = records;
        for (int j = from; j < mid; j++) {
            for (int k = 0; k < counts[j]; k++) {
                multiply(acc, codes[j], r++);
            }
        }
        solve(mid, to, acc, r, leaf);
    }

    /** Multiplies by (1 + rho w z^code); {@code records} is the number of factors already in. */
    private void multiply(double[][] p, int code, int records) {
        int d = code - lo;
        for (int t = Math.min(top, records + 1); t >= 1; t--) {
            double[] src = p[t - 1];
            double[] dst = p[t];
            int len = (t - 1) * width + 1;
            for (int i = 0; i < len; i++) {
                dst[i + d] += rho * src[i];
            }
        }
    }

    private static double[][] copy(double[][] p) {
        double[][] c = new double[p.length][];
        for (int t = 0; t < p.length; t++) {
            c[t] = Arrays.copyOf(p[t], p[t].length);
        }
        return c;
    }
}
