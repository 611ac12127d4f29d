package org.privacybounds.smoothed;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.privacybounds.numeric.LogMath;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The sampling-histogram mechanism M_H of Liu, Wang and Xia, "Smoothed Differential Privacy" (Algorithm 2, Appendix F): draw T records of
 * the database (without or with replacement) and release the histogram of the sample.
 *
 * <p>Neighbours replace one record ({@code h' = h - e_a + e_b}). Its privacy profile
 * {@code delta_eps(h) = max over neighbours h' of max(d(h, h'), d(h', h))} is computed exactly in
 * log space: per neighbour pair only the categories a and b matter (the three-category marginal),
 * and the hockey-stick sum is made of positive terms only, summed outward from the largest with a
 * certified truncation ({@link MovePair}). Cost grows with the width of the bulk of the sampled
 * counts, about {@code sqrt(T (n - T) / n)}, not with n: an election of 1.5e8 voters takes
 * milliseconds.
 *
 * <p>Example:
 * <pre>{@code
 * SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 1000);
 * ProfileValue v = m.profile(new int[] {1200, 800}, 1.0);   // delta_1(x) over every neighbour, exact in log space
 * double log10Delta = LogMath.toLog10(v.logDelta());
 * }</pre>
 */
public final class SamplingHistogramMechanism implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Relative truncation target of every sum. */
    public static final double RELATIVE_TOLERANCE = 1e-15;
    /**
     * The smallest floating-point allowance added to a certificate: the log-pmfs are accurate to a few ulps of their own
     * size, each term to about 1e-15 where |ln delta| is small, and the sums run over positive terms. Validated against
     * the exact-rational path (see the tests) with a margin of more than 100. Where |ln delta| is large the allowance
     * grows with it: {@link #floatingPointAllowance(double)}.
     */
    public static final double FLOATING_POINT_ALLOWANCE = 1e-11;

    /**
     * The floating-point allowance of a computed ln delta: {@link #FLOATING_POINT_ALLOWANCE}, or 64 ulps of |ln delta|
     * where that is larger (|ln delta| above about 1024). The log-pmfs' absolute error grows with their magnitude, and
     * the terms that make up delta have log-pmfs near ln delta: measured against 40-digit sums (mpmath), the error of
     * ln delta is 3-10 ulps of |ln delta| at n = 1.55e8 to 2^31 - 1 (7.6e-12 relative at n = 155,485,078 and
     * ln delta = -7,788; 1.4e-10 at n = 2^31 - 1 and ln delta = -107,370), above the fixed 1e-11 at the largest n.
     */
    public static double floatingPointAllowance(double logDelta) {
        if (Double.isInfinite(logDelta) || Double.isNaN(logDelta)) {
            return FLOATING_POINT_ALLOWANCE;
        }
        return Math.max(FLOATING_POINT_ALLOWANCE, 64 * Math.ulp(Math.abs(logDelta)));
    }

    /**
     * The largest n (records) this mechanism is evaluated at: 10^11, past the world's population (8e9) by more than ten
     * times. Counts are {@code long}; every count and every product of two counts in a likelihood ratio stays exact or
     * rounded once in a double far below this, and the hockey-stick sums with their error bounds were checked against
     * 50-digit sums at 3e9 and here (SaddlePointTest). The smoothed commands stop lower, at 1e10, for time.
     */
    public static final long MAX_N = 100_000_000_000L;

    private final Sampling sampling;
    private final long sampleSize;

    private SamplingHistogramMechanism(Sampling sampling, long sampleSize) {
        this.sampling = sampling;
        this.sampleSize = sampleSize;
    }

    /** The mechanism that samples {@code sampleSize} records. */
    public static SamplingHistogramMechanism of(Sampling sampling, long sampleSize) {
        if (sampleSize < 0) {
            throw new BadInputException(Parameter.SAMPLE_SIZE, sampleSize, "must be >= 0");
        }
        return new SamplingHistogramMechanism(sampling, sampleSize);
    }

    public Sampling sampling() {
        return sampling;
    }

    public long sampleSize() {
        return sampleSize;
    }

    /** Validates a histogram against this mechanism and returns n. */
    public long checkHistogram(int[] counts) {
        return checkHistogram(wide(counts));
    }

    /** {@link #checkHistogram(int[])} for counts past the int range. */
    public long checkHistogram(long[] counts) {
        if (counts.length < 2) {
            throw new BadInputException(Parameter.COUNTS, counts.length + " categories", "need at least 2 categories");
        }
        long n = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] < 0) {
                throw new BadInputException(Parameter.COUNTS, "c" + (i + 1) + " = " + counts[i], "counts must be >= 0");
            }
            n += counts[i];
        }
        if (n < 1 || n > MAX_N) {
            throw new BadInputException(Parameter.COUNTS, "n = " + n, "the total n must be in [1, " + MAX_N + "]");
        }
        if (sampling == Sampling.WITHOUT_REPLACEMENT && sampleSize > n) {
            throw new BadInputException(Parameter.SAMPLE_SIZE, sampleSize, "T must be <= n = " + n + " when sampling without replacement");
        }
        return n;
    }

    /** Int counts as longs (the int[] forms of this package's methods). */
    static long[] wide(int[] counts) {
        return Arrays.stream(counts).asLongStream().toArray();
    }

    /**
     * The hockey-stick divergence {@code d_eps(g, g - e_a + e_b)} in log space, with its certificate: {ln value, relative error
     * bound, terms summed}.
     */
    public double[] logHockeyStick(int[] g, int a, int b, double eps) {
        return logHockeyStick(wide(g), a, b, eps);
    }

    /** {@link #logHockeyStick(int[], int, int, double)} for counts past the int range. */
    public double[] logHockeyStick(long[] g, int a, int b, double eps) {
        return logHockeyStick(g, a, b, eps, RELATIVE_TOLERANCE);
    }

    /**
     * {@link #logHockeyStick(long[], int, int, double)} summed only until what is left is below {@code relativeTolerance} of
     * the sum (its certificate says how much that leaves out): fewer terms where a comparison needs a few digits.
     */
    public double[] logHockeyStick(long[] g, int a, int b, double eps, double relativeTolerance) {
        checkHistogram(g);
        MovePair.Sum s = new MovePair(sampling, g, a, b, sampleSize).hockeyStick(eps, Math.max(RELATIVE_TOLERANCE, relativeTolerance));
        return new double[] {s.log(), s.relativeTruncation() + floatingPointAllowance(s.log()), s.terms()};
    }

    /**
     * delta_eps(h): the largest hockey-stick divergence over all neighbours h' of h and both
     * directions, with the neighbour that attains it.
     *
     * <p>Each (neighbour, direction) sum is first bounded by the mass of its region ({@link MovePair#logMassBound}, one
     * log-pmf value) and, where its rows are many, estimated by its largest row ({@link MovePair#peak}); the sums
     * are evaluated from the largest estimate (else bound) down, and a sum whose bound lies below the largest value found
     * (by a margin of 1e-6 relative, far above the bound's rounding), or that a few of its rows show to lie below it
     * ({@link MovePair#hockeyStickBelow}), is skipped: it cannot be the maximum.
     * The result is the maximum of all the sums, as if every one were evaluated; the worst neighbour reported is the first
     * in the order (a, b, direction) within 1e-12 of it (exact ties do not depend on rounding). At large n two of the four
     * sums of a two-category histogram lie hundreds of nats below the others and cost one log-pmf value instead of a sum.
     */
    public ProfileValue profile(int[] h, double eps) {
        return profile(wide(h), eps);
    }

    /** {@link #profile(int[], double)} for counts past the int range. */
    public ProfileValue profile(long[] h, double eps) {
        checkHistogram(h);
        checkEpsilon(eps);
        return profile(new Neighbours(h), eps);
    }

    /**
     * {@link #profile} for several eps of one histogram ({@code null} where {@code which[e]} is false): the neighbour pairs
     * and their laws are built once for all of them. The same values as one call per eps.
     */
    public ProfileValue[] profiles(int[] h, double[] eps, boolean[] which) {
        return profiles(wide(h), eps, which);
    }

    /** {@link #profiles(int[], double[], boolean[])} for counts past the int range. */
    public ProfileValue[] profiles(long[] h, double[] eps, boolean[] which) {
        checkHistogram(h);
        for (int e = 0; e < eps.length; e++) {
            if (which[e]) {
                checkEpsilon(eps[e]);
            }
        }
        Neighbours pairs = new Neighbours(h);
        ProfileValue[] out = new ProfileValue[eps.length];
        for (int e = 0; e < eps.length; e++) {
            if (which[e]) {
                out[e] = profile(pairs, eps[e]);
            }
        }
        return out;
    }

    /**
     * The largest of the four divergences of one pair of categories {a, b} (h against {@code h - e_a + e_b} and against
     * {@code h - e_b + e_a}, both orders): {@link #profile} over the neighbours of that pair only, with the same skipping of
     * sums that cannot be the largest.
     */
    public ProfileValue pairProfile(long[] h, int a, int b, double eps) {
        checkHistogram(h);
        checkEpsilon(eps);
        if (a == b || a < 0 || b < 0 || a >= h.length || b >= h.length) {
            throw new IllegalArgumentException("a pair of two categories of the histogram: " + a + ", " + b);
        }
        return profile(new Neighbours(h, a, b), eps);
    }

    /** Every (neighbour, direction) pair of a histogram, in the order (a, b, direction). */
    private final class Neighbours {
        final List<MovePair> pairs = new ArrayList<>();
        final List<Neighbor> neighbours = new ArrayList<>();

        Neighbours(long[] h) {
            this(h, -1, -1);
        }

        /** Only the neighbours that move a record between x and y (every neighbour when x < 0). */
        Neighbours(long[] h, int x, int y) {
            int m = h.length;
            for (int a = 0; a < m; a++) {
                if (h[a] == 0) {
                    continue;
                }
                for (int b = 0; b < m; b++) {
                    if (b == a || (x >= 0 && !((a == x && b == y) || (a == y && b == x)))) {
                        continue;
                    }
                    // d(h, h'), h' = h - e_a + e_b: base h, move a -> b
                    pairs.add(new MovePair(sampling, h, a, b, sampleSize));
                    neighbours.add(new Neighbor(a, b, Direction.X_TO_NEIGHBOR));
                    // d(h', h): base h', move b -> a
                    long[] hp = h.clone();
                    hp[a]--;
                    hp[b]++;
                    pairs.add(new MovePair(sampling, hp, b, a, sampleSize));
                    neighbours.add(new Neighbor(a, b, Direction.NEIGHBOR_TO_X));
                }
            }
        }
    }

    private ProfileValue profile(Neighbours nb, double eps) {
        List<MovePair> pairs = nb.pairs;
        int count = pairs.size();
        MovePair.Region[] regions = new MovePair.Region[count];
        double[] bounds = new double[count];
        int[] order = new int[count];
        double[] keys = new double[count];
        MovePair.Peak[] peaks = new MovePair.Peak[count];
        long terms = 0;
        for (int i = 0; i < count; i++) {
            regions[i] = pairs.get(i).hockeyRegion(eps);
            bounds[i] = pairs.get(i).logMassBound(regions[i]);
            // where the rows are many, the largest row estimates the sum far better than the mass bound
            peaks[i] = bounds[i] == Double.NEGATIVE_INFINITY ? null : pairs.get(i).peak(regions[i], eps);
            keys[i] = peaks[i] == null ? bounds[i] : peaks[i].logTerm();
            terms += peaks[i] == null ? 0 : peaks[i].terms();
            // insertion by decreasing key (a handful of pairs: no boxed sort per call), ties in index order
            int j = i;
            while (j > 0 && keys[order[j - 1]] < keys[i]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = i;
        }
        double best = Double.NEGATIVE_INFINITY;
        double bestErr = 0;
        double[] values = new double[count];
        Arrays.fill(values, Double.NEGATIVE_INFINITY);
        for (int i : order) {
            if (bounds[i] < best - SKIP_MARGIN) {
                continue;
            }
            if (best > Double.NEGATIVE_INFINITY && peaks[i] != null) {
                long[] below = pairs.get(i).hockeyStickBelow(regions[i], eps, best - SKIP_MARGIN, peaks[i]);
                terms += below[1];
                if (below[0] == 1) {
                    continue;
                }
            }
            MovePair.Sum s = pairs.get(i).hockeyStick(regions[i], eps, RELATIVE_TOLERANCE, peaks[i]);
            terms += s.terms();
            values[i] = s.log();
            if (s.log() > best) {
                best = s.log();
                bestErr = s.relativeTruncation();
            }
        }
        // the worst neighbour: the first (in the order a, b, direction) whose value is within 1e-12 of the largest, so that
        // neighbours that tie exactly (symmetric histograms) are reported the same way whatever the last bits of their sums
        int bestIndex = -1;
        for (int i = 0; i < count && best > Double.NEGATIVE_INFINITY; i++) {
            if (values[i] >= best - TIE) {
                bestIndex = i;
                break;
            }
        }
        Neighbor worst = bestIndex < 0 ? null : nb.neighbours.get(bestIndex);
        String method = best == Double.NEGATIVE_INFINITY ? "exact: no output has positive privacy loss"
                : "exact sum in log space, certified truncation";
        return new ProfileValue(eps, best, best == Double.NEGATIVE_INFINITY ? 0 : bestErr + floatingPointAllowance(best), worst, method, terms);
    }

    /** Values of ln delta this close count as a tie when the worst neighbour is chosen. */
    private static final double TIE = 1e-12;

    /** A sum is skipped when its bound is below the largest value by more than this (in ln). */
    private static final double SKIP_MARGIN = 1e-6;

    /**
     * The worst-case (DP) delta of this mechanism for databases of n records, valid for every
     * eps >= 0 (the Smoothed DP paper, Theorem 3 (iii), Appendix E.1 / F): {@code T/n} without replacement
     * (the probability that the replaced record is sampled), {@code 1 - (1 - 1/n)^T} with
     * replacement. Both are attained (a category absent from x and present in x'), so no smaller
     * delta makes M_H (eps, delta)-DP for any eps.
     */
    public double logDpDelta(long n) {
        if (sampleSize == 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (sampling == Sampling.WITHOUT_REPLACEMENT) {
            return Math.log(sampleSize) - Math.log(n);
        }
        return LogMath.log1mexp(sampleSize * Math.log1p(-1.0 / n));
    }

    static void checkEpsilon(double eps) {
        if (!(eps >= 0) || Double.isInfinite(eps)) {
            throw new BadInputException(Parameter.EPS, eps, "must be a finite number >= 0");
        }
    }
}
