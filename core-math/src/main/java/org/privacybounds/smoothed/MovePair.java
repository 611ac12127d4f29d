package org.privacybounds.smoothed;

import java.util.function.DoubleUnaryOperator;
import java.util.function.LongPredicate;
import java.util.function.LongToDoubleFunction;

import org.privacybounds.numeric.CountLaw;
import org.privacybounds.numeric.LogConcaveSum;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;

/**
 * One neighbour pair of the sampling-histogram mechanism, seen from a base histogram g: the
 * neighbour is {@code g' = g - e_a + e_b} (one record moved from category a to category b).
 *
 * <p>The likelihood ratio {@code rho(k) = P_{g'}(k) / P_g(k)} of a sampled histogram k depends on k
 * only through {@code (k_a, k_b)} (docs/computing.md):
 * <ul>
 *   <li>without replacement: {@code rho = ((g_a - k_a)/g_a) * ((g_b + 1)/(g_b + 1 - k_b))};</li>
 *   <li>with replacement: {@code rho = ((g_a - 1)/g_a)^{k_a} * ((g_b + 1)/g_b)^{k_b}}.</li>
 * </ul>
 * rho is decreasing in k_a and increasing in k_b, so every region {@code rho < c} or
 * {@code rho > c} is a staircase in the (k_a, k_b) plane. Sums over such a region use the
 * three-category marginal (k_a, k_b, rest) = law of k_a times law of k_b given k_a, each
 * log-concave, summed outward with {@link LogConcaveSum}'s certified truncation.
 */
final class MovePair {
    private final Sampling sampling;
    private final long n;
    private final long sampleSize;
    private final long ga;
    private final long gb;
    private final long rest;
    private final CountLaw outer;
    private final double logStepA; // with replacement: log((g_a - 1)/g_a)
    private final double logStepB; // with replacement: log((g_b + 1)/g_b)

    /** The pair for a histogram of int counts. */
    MovePair(Sampling sampling, int[] g, int a, int b, long sampleSize) {
        this(sampling, SamplingHistogramMechanism.wide(g), a, b, sampleSize);
    }

    MovePair(Sampling sampling, long[] g, int a, int b, long sampleSize) {
        long total = 0;
        for (long c : g) {
            total += c;
        }
        if (g[a] < 1) {
            throw new IllegalArgumentException("category " + a + " is empty: no record to move");
        }
        this.sampling = sampling;
        this.n = total;
        this.sampleSize = sampleSize;
        this.ga = g[a];
        this.gb = g[b];
        this.rest = n - ga - gb;
        this.outer = sampling == Sampling.WITHOUT_REPLACEMENT
                ? CountLaw.hypergeometric(n, ga, sampleSize)
                : CountLaw.binomial(sampleSize, ga, n);
        this.logStepA = ga == 1 ? Double.NEGATIVE_INFINITY : Math.log1p(-1.0 / ga);
        this.logStepB = gb == 0 ? Double.POSITIVE_INFINITY : Math.log1p(1.0 / gb);
    }

    /** log rho(k_a, k_b). */
    double logRho(long ka, long kb) {
        if (sampling == Sampling.WITHOUT_REPLACEMENT) {
            if (ka >= ga) {
                return Double.NEGATIVE_INFINITY;
            }
            return Math.log((double) (ga - ka) / ga) - Math.log((double) ((long) gb + 1 - kb) / ((long) gb + 1));
        }
        double la = ka == 0 ? 0 : ka * logStepA;
        double lb = kb == 0 ? 0 : kb * logStepB;
        return la + lb;
    }

    private long kbMin(long ka) {
        if (sampling == Sampling.WITHOUT_REPLACEMENT || rest == 0) {
            return Math.max(0, sampleSize - ka - rest);
        }
        return 0;
    }

    private long kbMax(long ka) {
        if (sampling == Sampling.WITHOUT_REPLACEMENT || gb == 0) {
            return Math.min(gb, sampleSize - ka);
        }
        return sampleSize - ka;
    }

    private CountLaw inner(long ka) {
        long draws = sampleSize - ka;
        if (rest == 0) {
            return CountLaw.degenerate(draws);
        }
        if (sampling == Sampling.WITHOUT_REPLACEMENT) {
            return CountLaw.hypergeometric(n - ga, gb, draws);
        }
        return CountLaw.binomial(draws, gb, (long) n - ga);
    }

    /** A certified sum: log value and a bound on its relative error from truncation. */
    record Sum(double log, double relativeTruncation, long terms) {
        static final Sum ZERO = new Sum(Double.NEGATIVE_INFINITY, 0, 0);

        Sum plus(Sum o) {
            return new Sum(LogMath.logAdd(log, o.log), Math.max(relativeTruncation, o.relativeTruncation), terms + o.terms);
        }
    }

    /**
     * The k_a range [from, to] of the region {@code log rho < c} (low) or {@code log rho > c} (high): outside it no
     * k_b puts k in the region. Empty when from > to.
     */
    record Region(boolean low, double c, long from, long to) {
    }

    /** The region {@code log rho < c} (low) or {@code log rho > c} (high). */
    Region region(boolean low, double c) {
        long lo = outer.lower();
        long hi = outer.upper();
        if (low) {
            LongPredicate in = ka -> logRho(ka, kbMin(ka)) < c;
            if (rest == 0 && sampling == Sampling.WITHOUT_REPLACEMENT && lo < hi) {
                return new Region(true, c, firstTrueNear(lo, hi, twoCategoryBoundary(c), in), hi);
            }
            return new Region(true, c, LogConcaveSum.firstTrue(lo, hi, in), hi);
        }
        return new Region(false, c, lo, LogConcaveSum.firstTrue(lo, hi, ka -> !(logRho(ka, kbMax(ka)) > c)) - 1);
    }

    /**
     * Two categories without replacement (k_b = T - k_a): rho(k_a) = ((g_a - k_a) / g_a) ((g_b + 1) / (g_b + 1 - T + k_a)) is
     * decreasing, and rho = e^c at k_a* = g_a ((g_b + 1) - e^c (g_b + 1 - T)) / (g_b + 1 + e^c g_a): the region log rho < c
     * starts next to it. A first guess for {@link #firstTrueNear}, not trusted by itself.
     */
    private long twoCategoryBoundary(double c) {
        double ec = Math.exp(c);
        double x = (double) ga * (((double) gb + 1) - ec * ((double) gb + 1 - sampleSize)) / (((double) gb + 1) + ec * ga);
        return Double.isFinite(x) ? (long) Math.floor(x) + 1 : Long.MIN_VALUE;
    }

    /**
     * The first k in [lo, hi] where the (monotone) predicate holds, hi + 1 if none: found from a guess by unit steps, each
     * checked with the predicate itself, so the answer is the binary search's; the binary search where the guess is more
     * than 64 steps off.
     */
    static long firstTrueNear(long lo, long hi, long guess, LongPredicate pred) {
        long k = Math.max(lo, Math.min((long) hi + 1, guess));
        for (int step = 0; step < 64; step++) {
            if (k > lo && pred.test(k - 1)) {
                k--;
            } else if (k <= hi && !pred.test(k)) {
                k++;
            } else {
                return k;
            }
        }
        return LogConcaveSum.firstTrue(lo, hi, pred);
    }

    /**
     * ln of an upper bound on the outer law's mass over the region's k_a range, so on every {@link #regionSum} over it
     * (its factor is at most 1): 1 when the range holds the mode; else, by log-concavity (the ratio of successive
     * probabilities only shrinks away from the mode), the probability nearest the mode over 1 - that ratio, inflated by
     * 1e-9 for the few ulps of each log-pmf value.
     */
    double logMassBound(Region r) {
        if (r.from() > r.to()) {
            return Double.NEGATIVE_INFINITY;
        }
        long mode = outer.mode();
        if (r.from() <= mode && mode <= r.to()) {
            return 0;
        }
        long k = r.from() > mode ? r.from() : r.to();
        double logQ = r.from() > mode
                ? (k < r.to() ? outer.logRatioUp(k) : Double.NEGATIVE_INFINITY)
                : (k > r.from() ? -outer.logRatioUp(k - 1) : Double.NEGATIVE_INFINITY);
        if (!(logQ < 0)) {
            return 0;
        }
        return Math.min(0, outer.logProbability(k) - LogMath.log1mexp(logQ) + 1e-9);
    }

    /**
     * {@code sum_k P_g(k) F(rho(k))} over the region
     * {@code log rho < c} (low) or {@code log rho > c} (high), where {@code logF(log rho) <= 0} on the region.
     */
    Sum regionSum(boolean low, double c, DoubleUnaryOperator logF, double relTol) {
        return regionSum(region(low, c), logF, relTol);
    }

    /** The same sum over a region already found. */
    Sum regionSum(Region region, DoubleUnaryOperator logF, double relTol) {
        boolean low = region.low();
        double c = region.c();
        long from = region.from();
        long to = region.to();
        if (from > to) {
            return Sum.ZERO;
        }
        final double[] innerTrunc = {0};
        final long[] innerTerms = {0};
        LogConcaveSum.Result r = LogConcaveSum.sum(outer, from, to, ka -> {
            long bLo = kbMin(ka);
            long bHi = kbMax(ka);
            if (bLo > bHi) {
                return Double.NEGATIVE_INFINITY;
            }
            if (bLo == bHi) {
                double lr = logRho(ka, bLo);
                innerTerms[0]++;
                return (low ? lr < c : lr > c) ? logF.applyAsDouble(lr) : Double.NEGATIVE_INFINITY;
            }
            long kbFrom;
            long kbTo;
            if (low) {
                kbFrom = bLo;
                kbTo = LogConcaveSum.firstTrue(bLo, bHi, kb -> !(logRho(ka, kb) < c)) - 1;
            } else {
                kbFrom = LogConcaveSum.firstTrue(bLo, bHi, kb -> logRho(ka, kb) > c);
                kbTo = bHi;
            }
            if (kbFrom > kbTo) {
                return Double.NEGATIVE_INFINITY;
            }
            LogConcaveSum.Result in = LogConcaveSum.sum(inner(ka), kbFrom, kbTo,
                    kb -> logF.applyAsDouble(logRho(ka, kb)), relTol);
            innerTrunc[0] = Math.max(innerTrunc[0], in.relativeTruncation());
            innerTerms[0] += in.terms();
            return in.logSum();
        }, relTol);
        double rel = (1 + r.relativeTruncation()) * (1 + innerTrunc[0]) - 1;
        return new Sum(r.logSum(), rel, r.terms() + innerTerms[0]);
    }

    /** Hockey-stick divergence {@code d_eps(g, g') = sum_k P_g(k) (1 - e^eps rho(k))_+}. */
    Sum hockeyStick(double eps, double relTol) {
        return hockeyStick(hockeyRegion(eps), eps, relTol);
    }

    /** The region of the hockey-stick sum at eps: {@code log rho < -eps}. */
    Region hockeyRegion(double eps) {
        return region(true, -eps);
    }

    /**
     * The hockey-stick sum over its region, found before by {@link #hockeyRegion}. With two categories (k_b = T - k_a) the
     * sum is one-dimensional and runs in linear space ({@link LogConcaveSum#sumLinear}): each term's factor is
     * {@code -expm1(eps + log rho)} with log rho one logarithm of the ratio of integers ({@link #shiftedLogRho}).
     */
    Sum hockeyStick(Region region, double eps, double relTol) {
        if (rest == 0) {
            if (region.from() > region.to()) {
                return Sum.ZERO;
            }
            LogConcaveSum.Result r = LogConcaveSum.sumLinear(outer, region.from(), region.to(), ka -> {
                double x = shiftedLogRho(eps, ka);
                return x < 0 ? -Math.expm1(x) : 0;
            }, relTol);
            return new Sum(r.logSum(), r.relativeTruncation(), r.terms());
        }
        return rowSums(region, eps, relTol, null);
    }

    /** {@link #hockeyStick(Region, double, double)} from its largest row found before ({@link #peak}; null: find it). */
    Sum hockeyStick(Region region, double eps, double relTol, Peak peak) {
        return rest == 0 ? hockeyStick(region, eps, relTol) : rowSums(region, eps, relTol, peak);
    }

    /**
     * The hockey-stick sum of three or more categories by rows: {@code sum over k_a of P(k_a) F(k_a)}, with the row's factor
     * {@code F(k_a) = sum over k_b <= b(k_a) of P(k_b | k_a) (1 - e^eps rho(k_a, k_b))}, b(k_a) the region's edge in the row.
     *
     * <p>The rows' factors are monotone: F is non-decreasing in k_a. As k_a grows, rho falls, so each term's factor grows
     * and the row's region widens, and the law of K_b given k_a (hypergeometric or binomial in the T - k_a draws left) is
     * stochastically smaller, which puts its mass where the factor is larger. So the outer sum starts at its largest row
     * and stops where the rows beyond are provably negligible ({@link LogConcaveSum#sumMonotone}), instead of walking from
     * the law's mode across rows that hold nothing (at the national n the region lies some 60 standard deviations out).
     *
     * <p>Each row is summed in linear space ({@link LogConcaveSum#sumLinear}): a term is a ratio step and one division.
     * The factor {@code 1 - e^eps rho} is within {@link #rowFactorError} of its exact value (absolute), so the sum is off by
     * at most that times the law's mass over the summed terms; that bound, over the rows evaluated, is added to the
     * relative error (it matters where the sum is made of terms just inside the region's edge, where the factor is
     * tiny).
     */
    private Sum rowSums(Region region, double eps, double relTol, Peak peak) {
        if (region.from() > region.to()) {
            return Sum.ZERO;
        }
        Rows rows = new Rows(eps, relTol);
        LogConcaveSum.Result r = LogConcaveSum.sumMonotone(outer, region.from(), region.to(), rows::log, true, relTol,
                peak == null ? Long.MIN_VALUE : peak.row());
        double rel = (1 + r.relativeTruncation()) * (1 + rows.truncation) - 1;
        if (r.logSum() > Double.NEGATIVE_INFINITY) {
            rel += Math.exp(rows.rounding.log() - r.logSum());
        }
        return new Sum(r.logSum(), rel, r.terms() + rows.terms);
    }

    /**
     * The hockey-stick sum's largest row where the rows are many (three or more categories, a region of at least
     * {@value #MANY_ROWS} rows), else null: the row {@code k_a}, ln of its term (a lower bound on the sum and a cheap estimate
     * of it), and the terms summed to find it. Found once and handed to {@link #hockeyStick(Region, double, double, Peak)} and
     * {@link #hockeyStickBelow}.
     */
    record Peak(long row, double logTerm, long terms) {
    }

    Peak peak(Region region, double eps) {
        if (rest == 0 || region.to() - region.from() < MANY_ROWS) {
            return null;
        }
        Rows rows = new Rows(eps, SamplingHistogramMechanism.RELATIVE_TOLERANCE);
        long row = LogConcaveSum.largestMonotoneTerm(outer, region.from(), region.to(), rows::log, true);
        double logP = outer.logProbability(row);
        return new Peak(row, logP + rows.log(row, logP), rows.terms);
    }

    /** Regions of at least this many rows are worth a {@link #peak} before their sum. */
    static final long MANY_ROWS = 256;

    /**
     * Whether the hockey-stick sum over the region is provably at most {@code exp(logTarget)} from a few dozen of its rows
     * ({@link LogConcaveSum#monotoneSumBelow}), so that it cannot be the largest of a histogram's sums: {1 if so, else 0;
     * terms summed}. Only where the rows are many (a peak was found); the rows' values are accurate to far better than the
     * 1e-6 relative margin the callers leave below the target.
     */
    long[] hockeyStickBelow(Region region, double eps, double logTarget, Peak peak) {
        if (peak == null) {
            return new long[] {0, 0};
        }
        Rows rows = new Rows(eps, SamplingHistogramMechanism.RELATIVE_TOLERANCE);
        boolean below = LogConcaveSum.monotoneSumBelow(outer, region.from(), region.to(), rows::log, true, logTarget, peak.row());
        return new long[] {below ? 1 : 0, rows.terms};
    }

    /**
     * The rows of {@link #rowSums}: each row's ln F(k_a), with the truncation, terms and rounding of the rows evaluated.
     *
     * <p>A row's first term needs its inner law's probability at the start (the mode clamped into the row), and its rounding
     * bound the outer probability P(k_a): where the caller walks the rows one k_a at a time, both come from the row before by
     * the laws' closed-form ratios in linear space (the inner law's draws change by one, then its start moves) instead of a
     * saddle-point evaluation each, with an exact value again every {@link LogConcaveSum#ANCHOR} ratios, as within a row.
     */
    private final class Rows {
        final double eps;
        final double expEps;
        final double relTol;
        double truncation;
        long terms;
        /** ln of the sum over the rows evaluated of P(k_a) times the row's law mass times its factor's rounding bound. */
        final LogSumExp rounding = new LogSumExp();
        /** The inner law's anchor of the last row: ln P at (its k_a, start), an evaluated value times ratios; ratios since. */
        long anchorKa = Long.MIN_VALUE;
        long anchorStart;
        double anchorLog;
        double anchorScale;
        int anchorSteps;

        Rows(double eps, double relTol) {
            this.eps = eps;
            this.expEps = Math.exp(eps);
            this.relTol = relTol;
        }

        /** ln F(k_a); {@code logPa}: ln P(k_a) where the caller has it, else NaN (then evaluated for the rounding bound). */
        double log(long ka, double logPa) {
            long bLo = kbMin(ka);
            long bHi = kbMax(ka);
            if (bLo > bHi) {
                return Double.NEGATIVE_INFINITY;
            }
            long edge = LogConcaveSum.firstTrue(bLo, bHi, kb -> !(logRho(ka, kb) < -eps)) - 1;
            if (edge < bLo) {
                return Double.NEGATIVE_INFINITY;
            }
            CountLaw law = inner(ka);
            LogConcaveSum.Result in = LogConcaveSum.sumLinear(law, bLo, edge, rowFactor(ka, eps, expEps), relTol, start -> anchor(ka, law, start));
            truncation = Math.max(truncation, in.relativeTruncation());
            terms += in.terms();
            if (in.logMass() > Double.NEGATIVE_INFINITY) {
                double logP = Double.isNaN(logPa) ? outer.logProbability(ka) : logPa;
                // P(k_a) as told may come from ratios (a few ulps each): 1e-9 more covers them
                rounding.add(logP + 1e-9 + in.logMass() + Math.log(rowFactorError(ka, edge, eps)));
            }
            return in.logSum();
        }

        /**
         * ln P(start) of the row's inner law: from the last row's anchor where k_a moved by one and fewer than
         * {@link LogConcaveSum#ANCHOR} ratios were taken since an evaluated value (the product of the ratios kept in linear
         * space, so each adds a few ulps relative, not ulps of the log); else evaluated.
         */
        private double anchor(long ka, CountLaw law, long start) {
            long d = sampleSize - ka;
            if (Math.abs(ka - anchorKa) == 1 && anchorSteps + 1 + Math.abs(start - anchorStart) < LogConcaveSum.ANCHOR
                    && anchorStart >= law.lower() && anchorStart <= law.upper()) {
                double scale = anchorScale * drawsRatio(anchorStart, ka > anchorKa ? d + 1 : d - 1, d);
                for (long k = anchorStart; k < start; k++) {
                    scale *= law.ratioUp(k);
                }
                for (long k = anchorStart; k > start; k--) {
                    scale /= law.ratioUp(k - 1);
                }
                if (scale > 1e-250 && scale < 1e250) {
                    anchorSteps += 1 + (int) Math.abs(start - anchorStart);
                    anchorKa = ka;
                    anchorStart = start;
                    anchorScale = scale;
                    return anchorLog + Math.log(scale);
                }
            }
            anchorKa = ka;
            anchorStart = start;
            anchorLog = law.logProbability(start);
            anchorScale = 1;
            anchorSteps = 0;
            return anchorLog;
        }
    }

    /**
     * {@code P(K_b = k | draws to) / P(K_b = k | draws from)} of the inner law ({@link #inner}) for draws that differ by one,
     * k in both supports. Without replacement (hypergeometric, population N = n - g_a with K = g_b marked):
     * {@code P_{d-1}(k) / P_d(k) = (d - k)(N - d + 1) / (d (N - K - d + k + 1))}; with replacement (binomial, 1 - p = rest / N):
     * {@code P_{d-1}(k) / P_d(k) = (d - k) N / (d rest)}. Each factor is an integer below 2^53 (or rounded once).
     */
    private double drawsRatio(long k, long from, long to) {
        long d = Math.max(from, to); // the ratio P_{d-1} / P_d, inverted for d - 1 -> d
        double pop = (double) n - ga;
        double down = sampling == Sampling.WITHOUT_REPLACEMENT
                ? ((double) (d - k) * (pop - d + 1)) / ((double) d * ((double) rest - d + k + 1))
                : ((double) (d - k) * pop) / ((double) d * rest);
        return to < from ? down : 1 / down;
    }

    /** With replacement, the most steps of a row's factor between two exponentials ({@link #rowFactor}). */
    static final int FACTOR_STEPS = 16;

    /**
     * The factor {@code (1 - e^eps rho(k_a, k_b))_+} of one row in linear space. Without replacement
     * {@code e^eps rho = e^eps ((g_a - k_a) / g_a) (g_b + 1) / (g_b + 1 - k_b)}: the row's part is one number, and each term
     * one division; with replacement {@code 1 - x} with {@code x = e^(eps + log rho)}, which the next k_b multiplies by
     * {@code (g_b + 1) / g_b} (the previous divides by it): one exponential every {@value #FACTOR_STEPS} steps of a row's
     * walk instead of one a term.
     */
    private LongToDoubleFunction rowFactor(long ka, double eps, double expEps) {
        if (sampling == Sampling.WITHOUT_REPLACEMENT) {
            double rowPart = expEps * ((double) (ga - ka) / ga) * ((double) gb + 1);
            return kb -> Math.max(0, 1 - rowPart / ((double) gb + 1 - kb));
        }
        if (gb == 0) {
            return kb -> Math.max(0, -Math.expm1(eps + logRho(ka, kb)));
        }
        double up = ((double) gb + 1) / gb;
        double down = gb / ((double) gb + 1);
        return new LongToDoubleFunction() {
            long last = Long.MIN_VALUE;
            double x;
            int steps;

            @Override
            public double applyAsDouble(long kb) {
                if (kb == last + 1 && steps < FACTOR_STEPS) {
                    x *= up;
                    steps++;
                } else if (kb == last - 1 && steps < FACTOR_STEPS) {
                    x *= down;
                    steps++;
                } else {
                    x = Math.exp(eps + logRho(ka, kb));
                    steps = 0;
                }
                last = kb;
                return Math.max(0, 1 - x);
            }
        };
    }

    /**
     * An absolute bound on the rounding of {@link #rowFactor} in the row k_a up to k_b = edge. Without replacement
     * {@code e^eps rho < 1} is e^eps (within one ulp, Math.exp) times four more operations each rounded once (the counts
     * themselves exact below 2^53): within 6 x 2^-53 relative, so the factor is within that plus 2^-53 for the
     * subtraction, 7.8e-16; 1e-15 covers it. With replacement eps +
     * log rho is off by a few ulps of the largest of its parts (eps, k_a |ln(1 - 1/g_a)|, k_b ln(1 + 1/g_b)), and exp by
     * one more: 8 ulps of their sum, plus 1e-15; the steps between two exponentials (at most {@value #FACTOR_STEPS}, each
     * a rounded ratio times a rounded product) add 2 x 2^-53 each relative to x <= 1 in the region.
     */
    private double rowFactorError(long ka, long edge, double eps) {
        if (sampling == Sampling.WITHOUT_REPLACEMENT) {
            return 1e-15;
        }
        double size = eps + (ka == 0 ? 0 : Math.abs(ka * logStepA)) + (edge == 0 ? 0 : Math.abs(edge * logStepB));
        // an infinite step (g_a = 1 or g_b = 0) makes rho 0 or infinite: the factor is then exactly 1 or 0
        double steps = 2 * FACTOR_STEPS * 0x1p-53;
        return Double.isFinite(size) ? 1e-15 + 8 * Math.ulp(size) + steps : 1e-15 + steps;
    }

    /**
     * eps + log rho(k_a, T - k_a) for two categories. Without replacement rho is a ratio of integer products, each exact in
     * a double up to 2^53 and rounded once beyond, so one logarithm of it is within about 2 ulps, where the difference
     * of two logarithms of size ln(n / L) was off by several ulps of that size.
     */
    private double shiftedLogRho(double eps, long ka) {
        long kb = sampleSize - ka;
        if (sampling == Sampling.WITHOUT_REPLACEMENT) {
            if (ka >= ga) {
                return Double.NEGATIVE_INFINITY;
            }
            return eps + Math.log(((double) (ga - ka) * ((long) gb + 1)) / ((double) ga * ((long) gb + 1 - kb)));
        }
        return eps + logRho(ka, kb);
    }

    /**
     * One-sided adjusted utility {@code u(g, g', t)} of the Smoothed DP paper, Appendix A.1, with
     * {@code t = e^eps / (1 + e^eps)}: {@code 1/(1-t) E_{k ~ P_g}[(max(P_g, P_g')/(P_g + P_g') - t)_+]},
     * which simplifies to {@code sum_k P_g(k) [(1 - e^eps rho)_+ + (rho - e^eps)_+] / (1 + rho)}.
     */
    Sum oneSidedUtility(double eps, double relTol) {
        Sum low = regionSum(true, -eps, lr -> LogMath.log1mexp(eps + lr) - LogMath.log1pexp(lr), relTol);
        Sum high = regionSum(false, eps, lr -> LogMath.log1mexp(eps - lr) - LogMath.log1pexp(-lr), relTol);
        return low.plus(high);
    }
}
