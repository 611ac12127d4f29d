package org.privacybounds.pufferfish;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.DoubleUnaryOperator;

import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * Optimal couplings of two {@link DiscreteLaw}s on R, in integer arithmetic (Pierquin, Bellet, Tommasi and Boussard, "Renyi Pufferfish Privacy", Definitions 3.1-3.2, Section 4.1).
 *
 * <p>Masses are put on the common denominator {@code mu.total * nu.total}: atom i of mu carries
 * {@code counts_i * nu.total}, atom j of nu carries {@code counts_j * mu.total}, so every step of the
 * merges below is an exact {@code long} operation and no rounding can create or hide a pair.
 * <ul>
 * <li>{@link #quantileMerge}: the monotone coupling, optimal in 1-D for W_inf, every W_p and every
 * cost phi(|x - y|) with phi convex and non-decreasing;</li>
 * <li>{@link #nearMass}: the largest mass any coupling puts on pairs with |x - y| <= z (greedy
 * leftmost-first matching, optimal because the windows [x - z, x + z] move monotonically); the
 * quantile coupling is NOT optimal for this, and is not used for it.</li>
 * </ul>
 */
public final class Couplings {
    private Couplings() {
    }

    /** One pair of the quantile coupling: atoms x (of mu) and y (of nu) with mass {@code mass / denominator}. */
    public record Pair(double x, double y, long mass) {
    }

    /** The quantile coupling as pairs with positive integer mass over {@link #denominator}. */
    public static List<Pair> quantileMerge(DiscreteLaw mu, DiscreteLaw nu) {
        long sa = nu.total();
        long sb = mu.total();
        denominator(mu, nu);
        List<Pair> out = new ArrayList<>(mu.size() + nu.size());
        int i = 0;
        int j = 0;
        long ra = mu.counts()[0] * sa;
        long rb = nu.counts()[0] * sb;
        while (true) {
            long w = Math.min(ra, rb);
            out.add(new Pair(mu.atoms()[i], nu.atoms()[j], w));
            ra -= w;
            rb -= w;
            if (ra == 0) {
                if (++i == mu.size()) {
                    break;
                }
                ra = mu.counts()[i] * sa;
            }
            if (rb == 0) {
                if (++j == nu.size()) {
                    break;
                }
                rb = nu.counts()[j] * sb;
            }
        }
        return out;
    }

    /** {@code mu.total * nu.total}, the common denominator of the masses; refuses totals whose product overflows a long. */
    public static long denominator(DiscreteLaw mu, DiscreteLaw nu) {
        try {
            return Math.multiplyExact(mu.total(), nu.total());
        } catch (ArithmeticException e) {
            throw new BadInputException(Parameter.GROUP_SIZES, mu.total() + " x " + nu.total(), "their product must be below 2^63");
        }
    }

    /** W_inf: the largest |x - y| over the pairs of the quantile coupling. Exact. */
    public static double wInfinity(DiscreteLaw mu, DiscreteLaw nu) {
        double m = 0;
        for (Pair p : quantileMerge(mu, nu)) {
            m = Math.max(m, Math.abs(p.x() - p.y()));
        }
        return m;
    }

    /**
     * {@code W_p^p} as an exact decimal for integer p >= 1: the sum of (integer mass) x |x - y|^p in
     * BigDecimal (doubles are exact decimals), divided by the denominator to 34 significant digits.
     */
    public static BigDecimal wPowerExact(DiscreteLaw mu, DiscreteLaw nu, int p) {
        if (p < 1) {
            throw new BadInputException(Parameter.P, p, "must be an integer >= 1");
        }
        BigDecimal s = BigDecimal.ZERO;
        for (Pair q : quantileMerge(mu, nu)) {
            BigDecimal d = new BigDecimal(q.x()).subtract(new BigDecimal(q.y())).abs();
            s = s.add(d.pow(p).multiply(BigDecimal.valueOf(q.mass())));
        }
        return s.divide(new BigDecimal(BigInteger.valueOf(mu.total()).multiply(BigInteger.valueOf(nu.total()))), MathContext.DECIMAL128);
    }

    /** W_p for real p >= 1 (exact decimal path for integer p, else a sum of positive doubles). */
    public static double wP(DiscreteLaw mu, DiscreteLaw nu, double p) {
        if (!(p >= 1) || Double.isInfinite(p)) {
            throw new BadInputException(Parameter.P, p, "must be a finite number >= 1");
        }
        if (p == Math.rint(p) && p <= 64) {
            return Math.pow(wPowerExact(mu, nu, (int) p).doubleValue(), 1 / p);
        }
        double s = 0;
        for (Pair q : quantileMerge(mu, nu)) {
            s += q.mass() * Math.pow(Math.abs(q.x() - q.y()), p);
        }
        return Math.pow(s / mu.total() / nu.total(), 1 / p);
    }

    /**
     * {@code log E_pi[phi(|X - Y|)]} under the quantile coupling, for a log-cost {@code logPhi} of the
     * distance (convex non-decreasing phi: then the quantile coupling is optimal). Sum in log space.
     */
    public static double logExpectation(DiscreteLaw mu, DiscreteLaw nu, DoubleUnaryOperator logPhi) {
        LogSumExp s = new LogSumExp();
        for (Pair q : quantileMerge(mu, nu)) {
            s.add(Math.log(q.mass()) + logPhi.applyAsDouble(Math.abs(q.x() - q.y())));
        }
        return s.log() - Math.log(mu.total()) - Math.log(nu.total());
    }

    /**
     * {@code m(z)}: the largest mass (over {@link #denominator}) that any coupling of mu and nu puts on
     * pairs with |x - y| <= z. Greedy: each atom of mu, in ascending order, takes the leftmost
     * remaining mass of nu inside [x - z, x + z].
     */
    public static long nearMass(DiscreteLaw mu, DiscreteLaw nu, double z) {
        long sa = nu.total();
        long sb = mu.total();
        long[] rem = new long[nu.size()];
        for (int j = 0; j < rem.length; j++) {
            rem[j] = nu.counts()[j] * sb;
        }
        double[] y = nu.atoms();
        long matched = 0;
        int first = 0;
        for (int i = 0; i < mu.size(); i++) {
            double x = mu.atoms()[i];
            long left = mu.counts()[i] * sa;
            while (first < y.length && (y[first] < x - z || rem[first] == 0)) {
                first++;
            }
            for (int k = first; k < y.length && left > 0 && y[k] <= x + z; k++) {
                long w = Math.min(left, rem[k]);
                rem[k] -= w;
                left -= w;
                matched += w;
            }
        }
        return matched;
    }

    /**
     * {@code z*(delta)} for one pair: the smallest z such that some coupling puts mass >= 1 - delta on
     * |x - y| <= z (Definition 4.2). Exact: binary search over the distinct distances |x_i - y_j| and 0,
     * comparing {@code denominator - m(z) <= delta * denominator} in exact decimal arithmetic.
     */
    public static double nearRadius(DiscreteLaw mu, DiscreteLaw nu, double delta) {
        if (!(delta >= 0 && delta < 1)) {
            throw new BadInputException(Parameter.DELTA, delta, "must be in [0, 1)");
        }
        long den = denominator(mu, nu);
        BigDecimal allowed = new BigDecimal(delta).multiply(BigDecimal.valueOf(den));
        TreeSet<Double> cand = new TreeSet<>();
        cand.add(0.0);
        for (double x : mu.atoms()) {
            for (double y : nu.atoms()) {
                cand.add(Math.abs(x - y));
            }
        }
        Double[] zs = cand.toArray(new Double[0]);
        int lo = 0;
        int hi = zs.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            long missing = den - nearMass(mu, nu, zs[mid]);
            if (BigDecimal.valueOf(missing).compareTo(allowed) <= 0) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return zs[lo];
    }
}
