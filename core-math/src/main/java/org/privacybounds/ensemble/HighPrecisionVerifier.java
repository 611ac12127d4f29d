package org.privacybounds.ensemble;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;

import org.apfloat.Apfloat;
import org.apfloat.ApfloatMath;
import org.privacybounds.validation.BadInputException;

/**
 * The privacy cost of a gamma over every multiset of P in decimal arithmetic with 60 significant
 * digits (spec darrm.md section 4.5): the corners e^eps/(e^eps+1), ... and {@code E_m = e^{m eps}} are
 * evaluated by apfloat from the exact binary values of eps and m, the Poisson-binomial laws and costs in
 * BigDecimal. Rounding errors stay below 1e-50 of the bound, far under the 1e-15 at which double
 * precision stops telling a feasible gamma from an infeasible one; the computed maximum is compared with
 * the bound {@code E_m - 1 + 2 delta} evaluated the same way.
 */
public final class HighPrecisionVerifier {
    /** Working precision. */
    public static final MathContext MC = new MathContext(60);

    private HighPrecisionVerifier() {
    }

    /** The maximum cost, its multiset (counts in {@link ConstraintSet#corners} order) and the bound. */
    public record Certificate(BigDecimal maxCost, BigDecimal bound, int[] worstMultiset, long multisets) {
        public boolean certified() {
            return maxCost.compareTo(bound) <= 0;
        }
    }

    /** A gamma that passed the 60-digit check, its certificate, and how far it was scaled down to pass it. */
    public record Certified(double[] gamma, Certificate certificate, int rescalings, double factor) {
        public boolean rescaled() {
            return rescalings > 0;
        }
    }

    /**
     * The 60-digit check of {@link #verify}, and where it fails (the optimizer's double scan certifies to about 1e-15 relative,
     * and e^{m eps} may be far above 1), the same gamma scaled by {@code bound / maxCost (1 - eta)} until it passes: every cost
     * is linear in gamma, so the scaled gamma meets the bound up to the rounding of gamma to doubles, which {@code eta}
     * (1e-15, then ten times more each round) absorbs. The result always passes the check.
     */
    public static Certified certify(ConstraintSet set, double[] gamma, double m, double delta) {
        Certificate c = verify(set, gamma, m, delta);
        double[] g = gamma.clone();
        double total = 1;
        int rounds = 0;
        BigDecimal eta = new BigDecimal("1e-15");
        while (!c.certified()) {
            if (rounds == MAX_RESCALINGS) {
                throw new IllegalStateException("gamma still exceeds the bound after " + rounds + " rescalings: " + c.maxCost() + " > " + c.bound());
            }
            BigDecimal f = c.bound().divide(c.maxCost(), MC).multiply(BigDecimal.ONE.subtract(eta), MC);
            for (int l = 0; l < g.length; l++) {
                g[l] = new BigDecimal(g[l]).multiply(f, MC).doubleValue();
            }
            total *= f.doubleValue();
            rounds++;
            eta = eta.multiply(BigDecimal.TEN);
            c = verify(set, g, m, delta);
        }
        return new Certified(g, c, rounds, total);
    }

    private static final int MAX_RESCALINGS = 12;

    public static Certificate verify(ConstraintSet set, double[] gamma, double m, double delta) {
        NoiseFunctions.check("gamma", gamma);
        if (gamma.length != set.k() + 1) {
            throw new BadInputException("gamma", gamma.length + " values", "needs K + 1 = " + (set.k() + 1));
        }
        int k = set.k();
        int mid = (k + 1) / 2;
        BigDecimal[] x = new BigDecimal[mid];
        for (int l = mid; l <= k; l++) {
            x[l - mid] = new BigDecimal(gamma[l]);
        }
        Apfloat eps = new Apfloat(new BigDecimal(set.epsilon()), MC.getPrecision() + 10);
        Apfloat e = ApfloatMath.exp(eps);
        Apfloat one = new Apfloat(1, MC.getPrecision() + 10);
        Apfloat dd = new Apfloat(new BigDecimal(set.mechanismDelta()), MC.getPrecision() + 10);
        BigDecimal em = dec(ApfloatMath.exp(eps.multiply(new Apfloat(new BigDecimal(m), MC.getPrecision() + 10))));
        BigDecimal bound = em.subtract(BigDecimal.ONE).add(new BigDecimal(delta).multiply(BigDecimal.valueOf(2)), MC);
        // the same corners as ConstraintSet, in the same order, evaluated exactly
        double[][] approx = set.corners();
        BigDecimal[][] corners = new BigDecimal[approx.length][];
        Apfloat d = dd;
        Apfloat[][] exact = set.mechanismDelta() > 0
                ? new Apfloat[][] {{e.add(d).divide(e.add(one)), one.subtract(d).divide(e.add(one))}, {one.subtract(d).divide(e.add(one)), e.add(d).divide(e.add(one))},
                    {null, d}, {d, null}, {one.subtract(d), one}, {one, one.subtract(d)}}
                : new Apfloat[][] {{e.divide(e.add(one)), one.divide(e.add(one))}, {one.divide(e.add(one)), e.divide(e.add(one))}};
        int interior = approx.length - 2;
        int found = 0;
        for (Apfloat[] c : exact) {
            BigDecimal p = c[0] == null ? BigDecimal.ZERO : dec(c[0]);
            BigDecimal q = c[1] == null ? BigDecimal.ZERO : dec(c[1]);
            // match the double corners of the set (deduplicated there)
            for (int j = 0; j < interior; j++) {
                if (corners[j] == null && Math.abs(p.doubleValue() - approx[j][0]) < 1e-15 && Math.abs(q.doubleValue() - approx[j][1]) < 1e-15) {
                    corners[j] = new BigDecimal[] {p, q};
                    found++;
                    break;
                }
            }
        }
        if (found != interior) {
            throw new IllegalStateException("corner mismatch");
        }
        Walker w = new Walker(k, x, em, corners, interior);
        BigDecimal[] p = new BigDecimal[k + 1];
        BigDecimal[] q = new BigDecimal[k + 1];
        Arrays.fill(p, BigDecimal.ZERO);
        Arrays.fill(q, BigDecimal.ZERO);
        p[0] = BigDecimal.ONE;
        q[0] = BigDecimal.ONE;
        w.recurse(0, p, q, 0, new int[interior + 2]);
        return new Certificate(w.max, bound, w.argmax, w.count);
    }

    private static BigDecimal dec(Apfloat a) {
        return new BigDecimal(a.toString(true)).round(MC);
    }

    private static final class Walker {
        final int k;
        final BigDecimal[] x;
        final BigDecimal em;
        final BigDecimal[][] corners;
        final int interior;
        BigDecimal max;
        int[] argmax;
        long count;

        Walker(int k, BigDecimal[] x, BigDecimal em, BigDecimal[][] corners, int interior) {
            this.k = k;
            this.x = x;
            this.em = em;
            this.corners = corners;
            this.interior = interior;
        }

        void recurse(int j, BigDecimal[] p, BigDecimal[] q, int size, int[] counts) {
            if (j == interior) {
                leaves(p, q, size, counts);
                return;
            }
            BigDecimal[] pj = p.clone();
            BigDecimal[] qj = q.clone();
            int s = size;
            for (int n = 0; s <= k; n++) {
                counts[j] = n;
                recurse(j + 1, pj, qj, s, counts);
                if (s == k) {
                    break;
                }
                add(pj, s, corners[j][0]);
                add(qj, s, corners[j][1]);
                s++;
            }
            counts[j] = 0;
        }

        private void add(BigDecimal[] pmf, int n, BigDecimal p) {
            BigDecimal r = BigDecimal.ONE.subtract(p);
            pmf[n + 1] = pmf[n].multiply(p, MC);
            for (int l = n; l >= 1; l--) {
                pmf[l] = pmf[l].multiply(r, MC).add(pmf[l - 1].multiply(p, MC), MC);
            }
            pmf[0] = pmf[0].multiply(r, MC);
        }

        private void leaves(BigDecimal[] p, BigDecimal[] q, int size, int[] counts) {
            BigDecimal[] d = new BigDecimal[size + 1];
            for (int i = 0; i <= size; i++) {
                d[i] = p[i].subtract(em.multiply(q[i], MC), MC);
            }
            int rest = k - size;
            int mid = (k + 1) / 2;
            for (int n1 = 0; n1 <= rest; n1++) {
                BigDecimal v = BigDecimal.ZERO;
                for (int l = mid; l <= k; l++) {
                    if (x[l - mid].signum() == 0) {
                        continue;
                    }
                    int i = l - n1;
                    int r = k - l - n1;
                    BigDecimal a = (i >= 0 && i <= size ? d[i] : BigDecimal.ZERO).subtract(r >= 0 && r <= size ? d[r] : BigDecimal.ZERO);
                    v = v.add(a.multiply(x[l - mid], MC), MC);
                }
                count++;
                if (max == null || v.compareTo(max) > 0) {
                    max = v;
                    argmax = counts.clone();
                    argmax[interior] = rest - n1;
                    argmax[interior + 1] = n1;
                }
            }
        }
    }
}
