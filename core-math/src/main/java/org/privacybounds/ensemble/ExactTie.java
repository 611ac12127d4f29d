package org.privacybounds.ensemble;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.privacybounds.ensemble.ConstraintSet.Corner;
import org.privacybounds.ensemble.ConstraintSet.Value;

/**
 * Whether one multiset's privacy cost equals the bound {@code e^{m eps} - 1 + 2 delta} exactly, by polynomial identity in
 * {@code t = e^eps}. Each corner value times (t + 1) is linear in t (A (t + 1) = t + Delta, B (t + 1) = 1 - Delta,
 * a constant c gives c t + c), so the interior corners' law times {@code (t + 1)^s} is the bivariate polynomial
 * {@code G(z, t) = prod_j (R_j(t) + P_j(t) z)^{n_j}}, and (the (0,0) and (1,1) corners contribute a common factor
 * {@code (t + 1)^{K - s}}) the cost minus the bound vanishes exactly when
 * {@code U(t) = sum_l x_l (G_{l - n1} - G_{K - l - n1}) + (1 - 2 delta)(t + 1)^s} and the same V with D' and 1 in place of
 * {@code 1 - 2 delta} satisfy U = V = 0, or, for an integer m, {@code U - t^m V = 0} (see {@link HighPrecisionVerifier}).
 * Every coefficient is an exact decimal (gamma's doubles, Delta, delta), so the test is exact.
 */
final class ExactTie {
    private static final int CACHE = 64;

    private final ConstraintSet set;
    private final ExactTarget target;
    private final BigDecimal[] x;
    private final Corner[] kinds;
    private final BigDecimal delta;
    private final Map<String, BigDecimal[][][]> cache = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, BigDecimal[][][]> e) {
            return size() > CACHE;
        }
    };

    ExactTie(ConstraintSet set, ExactTarget target, BigDecimal[] x) {
        this.set = set;
        this.target = target;
        this.x = x;
        this.kinds = set.cornerKinds();
        this.delta = target.mechanismDelta();
    }

    /** Whether the multiset (counts in corner order) costs exactly the bound. */
    boolean isTie(int[] counts) {
        int interior = set.interior();
        int[] inner = Arrays.copyOf(counts, interior);
        BigDecimal[][][] laws = cache.computeIfAbsent(Arrays.toString(inner), key -> laws(inner));
        int s = Arrays.stream(inner).sum();
        int n1 = counts[interior + 1];
        BigDecimal[] binom = binomials(s);
        BigDecimal oneMinus2Delta = BigDecimal.ONE.subtract(target.delta().multiply(BigDecimal.valueOf(2)));
        BigDecimal[] u = combine(laws[0], n1, s);
        BigDecimal[] v = combine(laws[1], n1, s);
        for (int j = 0; j <= s; j++) {
            u[j] = u[j].add(oneMinus2Delta.multiply(binom[j]));
            v[j] = v[j].add(binom[j]);
        }
        if (zero(u) && zero(v)) {
            return true;
        }
        if (!target.integerM()) {
            return false;
        }
        int m = target.integralM();
        for (int j = 0; j <= s + m; j++) {
            BigDecimal w = (j <= s ? u[j] : BigDecimal.ZERO).subtract(j >= m && j - m <= s ? v[j - m] : BigDecimal.ZERO);
            if (w.signum() != 0) {
                return false;
            }
        }
        return true;
    }

    /** sum_{l >= mid} x_l (G_{l - n1}(t) - G_{K - l - n1}(t)), coefficients of t^0..t^s. */
    private BigDecimal[] combine(BigDecimal[][] g, int n1, int s) {
        int k = set.k();
        int mid = (k + 1) / 2;
        BigDecimal[] out = new BigDecimal[s + 1];
        Arrays.fill(out, BigDecimal.ZERO);
        for (int l = mid; l <= k; l++) {
            BigDecimal xl = x[l - mid];
            if (xl.signum() == 0) {
                continue;
            }
            int i = l - n1;
            int r = k - l - n1;
            for (int j = 0; j <= s; j++) {
                BigDecimal a = (i >= 0 && i <= s ? g[i][j] : BigDecimal.ZERO).subtract(r >= 0 && r <= s ? g[r][j] : BigDecimal.ZERO);
                if (a.signum() != 0) {
                    out[j] = out[j].add(xl.multiply(a));
                }
            }
        }
        return out;
    }

    /** G and G' (z-degree first, then t-degree) of the interior corners. */
    private BigDecimal[][][] laws(int[] inner) {
        int s = Arrays.stream(inner).sum();
        BigDecimal[][][] out = new BigDecimal[2][][];
        for (int side = 0; side < 2; side++) {
            BigDecimal[][] g = new BigDecimal[s + 1][s + 1];
            for (BigDecimal[] row : g) {
                Arrays.fill(row, BigDecimal.ZERO);
            }
            g[0][0] = BigDecimal.ONE;
            int size = 0;
            for (int j = 0; j < inner.length; j++) {
                Value p = side == 0 ? kinds[j].p() : kinds[j].pPrime();
                BigDecimal[] pp = linear(p);
                BigDecimal[] rr = linear(p.complement());
                for (int c = 0; c < inner[j]; c++) {
                    multiply(g, size, rr, pp);
                    size++;
                }
            }
            out[side] = g;
        }
        return out;
    }

    /** g *= (R(t) + P(t) z), g of degree {@code size} in z and t. */
    private static void multiply(BigDecimal[][] g, int size, BigDecimal[] r, BigDecimal[] p) {
        for (int i = size + 1; i >= 0; i--) {
            for (int j = size + 1; j >= 0; j--) {
                BigDecimal v = BigDecimal.ZERO;
                if (i <= size) {
                    v = v.add(times(r[0], g, i, j)).add(times(r[1], g, i, j - 1));
                }
                if (i >= 1) {
                    v = v.add(times(p[0], g, i - 1, j)).add(times(p[1], g, i - 1, j - 1));
                }
                g[i][j] = v;
            }
        }
    }

    private static BigDecimal times(BigDecimal c, BigDecimal[][] g, int i, int j) {
        if (c.signum() == 0 || j < 0 || i >= g.length || j >= g[i].length || g[i][j].signum() == 0) {
            return BigDecimal.ZERO;
        }
        return c.multiply(g[i][j]);
    }

    /** value (t + 1) = c0 + c1 t. */
    private BigDecimal[] linear(Value v) {
        BigDecimal oneMinus = BigDecimal.ONE.subtract(delta);
        return switch (v) {
            case ZERO -> new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO};
            case ONE -> new BigDecimal[] {BigDecimal.ONE, BigDecimal.ONE};
            case DELTA -> new BigDecimal[] {delta, delta};
            case ONE_MINUS_DELTA -> new BigDecimal[] {oneMinus, oneMinus};
            case A -> new BigDecimal[] {delta, BigDecimal.ONE};
            case B -> new BigDecimal[] {oneMinus, BigDecimal.ZERO};
        };
    }

    private static BigDecimal[] binomials(int s) {
        BigDecimal[] b = new BigDecimal[s + 1];
        b[0] = BigDecimal.ONE;
        for (int j = 1; j <= s; j++) {
            b[j] = b[j - 1].multiply(BigDecimal.valueOf(s - j + 1)).divide(BigDecimal.valueOf(j));
        }
        return b;
    }

    private static boolean zero(BigDecimal[] a) {
        for (BigDecimal v : a) {
            if (v.signum() != 0) {
                return false;
            }
        }
        return true;
    }
}
