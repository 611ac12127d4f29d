package org.privacybounds.numeric;

import java.util.function.LongPredicate;
import java.util.function.LongToDoubleFunction;

/**
 * Certified sum of {@code P(k) F(k)} over a range {@code [lo, hi]}, where {@code P} is a
 * log-concave pmf ({@link CountLaw}) and {@code 0 <= F(k) <= 1}.
 *
 * <p>The sum starts at the largest {@code P} in the range (the law's mode, clamped into the range)
 * and walks outwards. Moving away from the mode, the ratio {@code q = P(k+1)/P(k)} (or
 * {@code P(k-1)/P(k)}) only shrinks (log-concavity), so everything beyond {@code k} is at most
 * {@code P(k) q / (1 - q)}. A direction stops when that bound falls below {@code relTol} times the
 * running sum; the bound of what was skipped is returned, so the caller can report a certified
 * relative error. Terms are positive: there is no cancellation.
 */
public final class LogConcaveSum {
    /** Safety factor on the tail bound for the few-ulp error of each log-pmf value. */
    private static final double TAIL_SAFETY = 1 + 1e-9;
    /**
     * Between two exact log-pmf values, terms follow from the law's ratio {@link CountLaw#logRatioUp}: each step adds a few
     * ulps (about 1e-15 in log), so a term is off by at most about 3e-14 relative, well inside the 1e-11 floating-point
     * allowance every reported value carries. A caller that steps a row's first probability from the row before (at most
     * this many ratios in linear space, then one logarithm) doubles that at most.
     */
    public static final int ANCHOR = 32;

    private LogConcaveSum() {
    }

    /**
     * The sum and a bound on what was left out.
     *
     * @param logSum     log of the summed terms ({@code -Infinity} if all were 0)
     * @param logSkipped log of an upper bound on the skipped terms ({@code -Infinity} if none)
     * @param terms      number of terms evaluated
     * @param logMass    log of the law's own mass over the summed terms (the sum with every factor 1), where the sum
     *                   keeps it ({@link #sumLinear}); NaN elsewhere
     */
    public record Result(double logSum, double logSkipped, long terms, double logMass) {
        /** A result without the law's mass. */
        public Result(double logSum, double logSkipped, long terms) {
            this(logSum, logSkipped, terms, Double.NaN);
        }

        /** Upper bound on (true sum - logSum's value) / true sum; 0 when nothing was skipped. */
        public double relativeTruncation() {
            if (logSkipped == Double.NEGATIVE_INFINITY) {
                return 0;
            }
            if (logSum == Double.NEGATIVE_INFINITY) {
                return Double.POSITIVE_INFINITY;
            }
            return Math.exp(logSkipped - logSum);
        }
    }

    /**
     * Sums {@code exp(law.logProbability(k) + logF(k))} for {@code k} in {@code [lo, hi]}.
     *
     * @param logF   log of a factor in [0, 1]; may be {@code -Infinity}
     * @param relTol stop a direction once the rest is provably below {@code relTol} times the sum
     */
    public static Result sum(CountLaw law, long lo, long hi, LongToDoubleFunction logF, double relTol) {
        lo = Math.max(lo, law.lower());
        hi = Math.min(hi, law.upper());
        if (lo > hi) {
            return new Result(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, 0);
        }
        final double logTol = Math.log(relTol);
        long start = Math.max(lo, Math.min(hi, law.mode()));
        LogSumExp acc = new LogSumExp();
        double logP0 = law.logProbability(start);
        acc.add(logP0 + logF.applyAsDouble(start));
        long terms = 1;
        double skipped = Double.NEGATIVE_INFINITY;
        for (int dir = -1; dir <= 1; dir += 2) {
            long k = start;
            double logPk = logP0;
            long end = dir < 0 ? lo : hi;
            int steps = 0;
            while (k != end) {
                long next = k + dir;
                // the closed-form ratio between exact anchors every ANCHOR steps: at most ANCHOR x a few ulps of drift
                double logPn = ++steps % ANCHOR == 0 ? law.logProbability(next)
                        : logPk + (dir > 0 ? law.logRatioUp(k) : -law.logRatioUp(next));
                double logQ = logPn - logPk; // log of P(next)/P(k), <= 0 away from the mode
                if (logQ < -1e-12 && acc.count() > 0) {
                    // rest beyond k (next, next+dir, ...) <= P(k) q / (1 - q)
                    double logRest = logPk + logQ - LogMath.log1mexp(logQ) + Math.log(TAIL_SAFETY);
                    if (logRest <= logTol + acc.log()) {
                        skipped = LogMath.logAdd(skipped, logRest);
                        break;
                    }
                }
                acc.add(logPn + logF.applyAsDouble(next));
                terms++;
                k = next;
                logPk = logPn;
            }
        }
        return new Result(acc.log(), skipped, terms);
    }

    /**
     * {@link #sum} for a factor known to be monotone in k: non-decreasing ({@code rising}) or non-increasing. Where the factor
     * is tiny at the law's mode and large only deep in a tail (a region far out in a second dimension), {@link #sum} walks
     * from the mode across every value whose probability alone is not negligible; here the walk starts at the largest term
     * and stops where what lies beyond is provably negligible:
     * <ul>
     *   <li>the start: the largest {@code P(k) F(k)} found by a galloping climb from the mode and a ternary search (a
     *       heuristic: a poor start costs terms, never correctness); in a range of fewer than {@value #SHORT_RANGE} values
     *       the law's mode, since the search would cost about as many factor values as it saves;</li>
     *   <li>walking where the factor does not grow, everything beyond k is at most {@code F(k)} times the law's mass beyond
     *       k: at most {@code F(k)}, or {@code F(k) P(k) q / (1 - q)} away from the mode (log-concavity); a zero factor ends
     *       the walk exactly;</li>
     *   <li>walking where the factor grows, {@link #sum}'s bound {@code P(k) q / (1 - q)} (factor at most 1) away from the
     *       mode;</li>
     *   <li>either way, every power-of-two number of steps, a {@linkplain #ladder ladder} of checkpoints.</li>
     * </ul>
     * The caller vouches for the monotonicity; the factor's computed values may be low by their own relative error, which
     * must stay below 1e-9 (the safety factor of every bound here). Values within the certified truncation of {@link #sum}'s
     * (both sum the same terms, up to the terms each leaves out).
     */
    public static Result sumMonotone(CountLaw law, long lo, long hi, LongToDoubleFunction logF, boolean rising, double relTol) {
        return sumMonotone(law, lo, hi, logF, rising, relTol, Long.MIN_VALUE);
    }

    /**
     * {@link #sumMonotone(CountLaw, long, long, LongToDoubleFunction, boolean, double)} from a start found before
     * ({@link #largestMonotoneTerm}); {@code Long.MIN_VALUE}: find it. Any start in the range gives a certified sum.
     */
    public static Result sumMonotone(CountLaw law, long lo, long hi, LongToDoubleFunction logF, boolean rising, double relTol, long from) {
        return sumMonotone(law, lo, hi, told(logF), rising, relTol, from);
    }

    /**
     * A factor's ln F(k), told ln P(k) where the caller of it has that value at hand ({@code NaN} where not), so that a factor
     * that needs P(k) itself need not evaluate the law again.
     */
    @FunctionalInterface
    public interface LogFactor {
        double at(long k, double logP);
    }

    private static LogFactor told(LongToDoubleFunction logF) {
        return (k, logP) -> logF.applyAsDouble(k);
    }

    /** {@link #sumMonotone(CountLaw, long, long, LongToDoubleFunction, boolean, double, long)} with a {@link LogFactor}. */
    public static Result sumMonotone(CountLaw law, long lo, long hi, LogFactor logF, boolean rising, double relTol, long from) {
        lo = Math.max(lo, law.lower());
        hi = Math.min(hi, law.upper());
        if (lo > hi) {
            return new Result(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, 0);
        }
        final double logTol = Math.log(relTol);
        long[] evaluations = {0};
        LogFactor counted = (k, logP) -> {
            evaluations[0]++;
            return logF.at(k, logP);
        };
        // a short range is walked from the law's mode: the search for the largest term would cost about as many factors as
        // the walk it saves
        long start = from != Long.MIN_VALUE ? Math.max(lo, Math.min(hi, from))
                : hi - lo < SHORT_RANGE ? Math.max(lo, Math.min(hi, law.mode())) : largestTerm(law, lo, hi, counted, rising);
        LogSumExp acc = new LogSumExp();
        double logP0 = law.logProbability(start);
        double logF0 = counted.at(start, logP0);
        acc.add(logP0 + logF0);
        double skipped = Double.NEGATIVE_INFINITY;
        for (int dir = -1; dir <= 1; dir += 2) {
            boolean falling = rising == (dir < 0);
            long k = start;
            double logPk = logP0;
            double logFk = logF0;
            long end = dir < 0 ? lo : hi;
            int steps = 0;
            while (k != end) {
                if (falling && logFk == Double.NEGATIVE_INFINITY) {
                    break; // the factor is 0 here, so everywhere beyond
                }
                double limit = logTol + acc.log();
                double logQ = dir > 0 ? law.logRatioUp(k) : -law.logRatioUp(k - 1);
                // log-concave: past a ratio q < 1 every further ratio is at most q, so the law beyond is at most P(k) q / (1 - q)
                double beyond = logQ < -1e-12 ? logPk + logQ - LogMath.log1mexp(logQ) + LOG_SAFETY : 0;
                double rest = (falling ? Math.min(0, logFk) : 0) + beyond;
                if (rest <= limit) {
                    skipped = LogMath.logAdd(skipped, rest);
                    break;
                }
                if (steps >= 16 && Integer.bitCount(steps) == 1) {
                    double ladder = ladder(law, k, dir, end, counted, falling, logFk, limit, steps);
                    if (ladder <= limit) {
                        skipped = LogMath.logAdd(skipped, ladder);
                        break;
                    }
                }
                long next = k + dir;
                double logPn = ++steps % ANCHOR == 0 ? law.logProbability(next) : logPk + logQ;
                double logFn = counted.at(next, logPn);
                acc.add(logPn + logFn);
                k = next;
                logPk = logPn;
                logFk = logFn;
            }
        }
        return new Result(acc.log(), skipped, evaluations[0]);
    }

    private static final double LOG_SAFETY = Math.log(TAIL_SAFETY);

    /** Ranges of fewer values than this are walked by {@link #sumMonotone} from the law's mode, without a search. */
    static final long SHORT_RANGE = 64;

    /**
     * The k of the largest term {@code P(k) F(k)} that {@link #sumMonotone} would start from, found with a few dozen factor
     * values; its term is a lower bound on the sum and a cheap estimate of it where the terms peak sharply. Needs a range
     * that meets the law's support.
     */
    public static long largestMonotoneTerm(CountLaw law, long lo, long hi, LongToDoubleFunction logF, boolean rising) {
        return largestMonotoneTerm(law, lo, hi, told(logF), rising);
    }

    /** {@link #largestMonotoneTerm(CountLaw, long, long, LongToDoubleFunction, boolean)} with a {@link LogFactor}. */
    public static long largestMonotoneTerm(CountLaw law, long lo, long hi, LogFactor logF, boolean rising) {
        return largestTerm(law, Math.max(lo, law.lower()), Math.min(hi, law.upper()), logF, rising);
    }

    /**
     * Whether {@link #sumMonotone}'s sum (every term, not only those it would sum) is provably at most {@code exp(logTarget)},
     * from its largest term and a {@linkplain #ladder ladder} each way: a few dozen factor values instead of the sum, where the
     * sum lies far below the target (one of several sums of which only the largest matters). False where it cannot tell.
     * {@code from}: the largest term's k found before ({@link #largestMonotoneTerm}), or {@code Long.MIN_VALUE}.
     */
    public static boolean monotoneSumBelow(CountLaw law, long lo, long hi, LongToDoubleFunction logF, boolean rising, double logTarget,
            long from) {
        return monotoneSumBelow(law, lo, hi, told(logF), rising, logTarget, from);
    }

    /** {@link #monotoneSumBelow(CountLaw, long, long, LongToDoubleFunction, boolean, double, long)} with a {@link LogFactor}. */
    public static boolean monotoneSumBelow(CountLaw law, long lo, long hi, LogFactor logF, boolean rising, double logTarget, long from) {
        lo = Math.max(lo, law.lower());
        hi = Math.min(hi, law.upper());
        if (lo > hi) {
            return true;
        }
        long start = from == Long.MIN_VALUE ? largestTerm(law, lo, hi, logF, rising) : Math.max(lo, Math.min(hi, from));
        double logP0 = law.logProbability(start);
        double logF0 = logF.at(start, logP0);
        double total = logP0 + Math.min(0, logF0) + LOG_SAFETY;
        double limit = logTarget - Math.log(3);
        if (total > limit) {
            return false;
        }
        for (int dir = -1; dir <= 1; dir += 2) {
            long end = dir < 0 ? lo : hi;
            if (start != end) {
                total = LogMath.logAdd(total, ladder(law, start, dir, end, logF, rising == (dir < 0), logF0, limit, 0));
            }
        }
        return total <= logTarget;
    }

    /**
     * The start of {@link #sumMonotone}: the k of the largest {@code P(k) F(k)} if that is unimodal, else some k. Gallops from
     * the law's mode (clamped into the range) in the direction in which the factor grows while the terms grow, then
     * narrows the last bracket by ternary search; zero terms count as lying on the side where the factor is smaller.
     */
    private static long largestTerm(CountLaw law, long lo, long hi, LogFactor logF, boolean rising) {
        LongToDoubleFunction term = k -> {
            double logP = law.logProbability(k);
            return logP + logF.at(k, logP);
        };
        long from = Math.max(lo, Math.min(hi, law.mode()));
        long end = rising ? hi : lo;
        double best = term.applyAsDouble(from);
        long before = from; // the point before the best one in walking order
        long at = from;
        long next = from;
        for (long step = 1; at != end; step *= 2) {
            next = rising ? Math.min(end, at + step) : Math.max(end, at - step);
            double v = term.applyAsDouble(next);
            if (!(v > best) && best > Double.NEGATIVE_INFINITY) {
                break;
            }
            before = at;
            at = next;
            best = v;
        }
        // the largest term lies between `before` and `next` if the terms are unimodal
        long x = Math.min(before, next);
        long y = Math.max(before, next);
        while (y - x > 2) {
            long m1 = x + (y - x) / 3;
            long m2 = y - (y - x) / 3;
            double v1 = term.applyAsDouble(m1);
            double v2 = term.applyAsDouble(m2);
            if (v1 < v2 || (v1 == Double.NEGATIVE_INFINITY && v2 == v1 && rising)) {
                x = m1 + 1;
            } else if (v1 > v2 || v1 == Double.NEGATIVE_INFINITY) {
                y = m2 - 1;
            } else {
                x = m1;
                y = m2;
            }
        }
        long bestK = x;
        double bestV = Double.NEGATIVE_INFINITY;
        for (long k = x; k <= y; k++) {
            double v = term.applyAsDouble(k);
            if (v > bestV) {
                bestV = v;
                bestK = k;
            }
        }
        return bestK;
    }

    /**
     * A bound on everything beyond k (walking in direction dir, up to end) from checkpoints {@code c_0 = k, c_1, ...} at
     * distances growing twice each, the first a quarter of the steps walked so far. On each stretch between two
     * checkpoints the factor is at most its value at the stretch's end where it grows this way, at its start where it
     * falls (monotone); the law's mass is at most the stretch's length times its largest probability (at the mode clamped
     * into the stretch), or {@code P(c) q / (1 - q)} for everything beyond c where the law's ratio q there is below 1. The ladder ends at
     * the range's end, or where everything beyond the checkpoint (that mass times the factor's bound there, the mass at
     * most 1) is below half the limit. Returns ln of the bound, {@code +Infinity} where it exceeds the limit.
     */
    private static double ladder(CountLaw law, long k, int dir, long end, LogFactor logF, boolean falling,
            double logFk, double limit, int steps) {
        double total = Double.NEGATIVE_INFINITY;
        long c = k;
        double logFc = Math.min(0, logFk);
        long len = Math.max(4, steps / 4);
        for (int rung = 0; rung < 62; rung++) {
            double logQ = c == end ? 0 : dir > 0 ? law.logRatioUp(c) : -law.logRatioUp(c - 1);
            double tail = logQ < -1e-12 ? law.logProbability(c) + logQ - LogMath.log1mexp(logQ) + LOG_SAFETY : 0;
            double terminal = (falling ? logFc : 0) + tail;
            if (c == end || terminal <= limit - Math.log(2)) {
                return c == end ? total : LogMath.logAdd(total, terminal);
            }
            long next = dir > 0 ? Math.min(end, c + len) : Math.max(end, c - len);
            long near = c + dir; // the stretch is [near, next] in walking order
            long segLo = Math.min(near, next);
            long segHi = Math.max(near, next);
            double mass = Math.min(tail, Math.log(segHi - segLo + 1.0) + law.logProbability(Math.max(segLo, Math.min(segHi, law.mode())))
                    + LOG_SAFETY);
            double logFnext = Math.min(0, logF.at(next, Double.NaN));
            total = LogMath.logAdd(total, mass + (falling ? logFc : logFnext));
            if (total > limit) {
                return Double.POSITIVE_INFINITY;
            }
            c = next;
            logFc = logFnext;
            len *= 2;
        }
        return Double.POSITIVE_INFINITY;
    }

    /**
     * The same certified sum with the factor given as itself, {@code 0 <= f(k) <= 1}, not as its logarithm: the terms are
     * kept relative to the first one's probability and stepped by the law's ratio {@link CountLaw#ratioUp} (exact anchors
     * every {@link #ANCHOR} steps, as in {@link #sum}), so a term costs what f costs plus a few multiplications instead of
     * several logarithms. The stopping rule is {@link #sum}'s, tested where the ratio is below 1 - 1e-4 (there its
     * complement is accurate to 1e-10, inside the safety factor); the rescaling keeps the terms from underflowing.
     */
    public static Result sumLinear(CountLaw law, long lo, long hi, LongToDoubleFunction f, double relTol) {
        return sumLinear(law, lo, hi, f, relTol, law::logProbability);
    }

    /**
     * {@link #sumLinear(CountLaw, long, long, LongToDoubleFunction, double)} with its first term's log-probability from
     * {@code firstLogP} (given the start, the law's mode clamped into the range) instead of the law: a caller that steps a
     * neighbouring law's value there by at most {@link #ANCHOR} ratios in linear space, instead of evaluating one. The sum is
     * then the same to within those steps' few ulps each.
     */
    public static Result sumLinear(CountLaw law, long lo, long hi, LongToDoubleFunction f, double relTol, LongToDoubleFunction firstLogP) {
        lo = Math.max(lo, law.lower());
        hi = Math.min(hi, law.upper());
        if (lo > hi) {
            return new Result(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, 0, Double.NEGATIVE_INFINITY);
        }
        long start = Math.max(lo, Math.min(hi, law.mode()));
        final double logP0 = firstLogP.applyAsDouble(start);
        double logRef = logP0; // the terms are p * f, with p = P(k) / exp(logRef)
        double sum = f.applyAsDouble(start);
        double mass = 1;
        long terms = 1;
        double skipped = Double.NEGATIVE_INFINITY;
        for (int dir = -1; dir <= 1; dir += 2) {
            long k = start;
            double p = 1;
            long end = dir < 0 ? lo : hi;
            int steps = 0;
            while (k != end) {
                long next = k + dir;
                double pn = ++steps % ANCHOR == 0 ? Math.exp(law.logProbability(next) - logRef)
                        : p * (dir > 0 ? law.ratioUp(k) : 1 / law.ratioUp(next));
                double q = pn / p; // P(next) / P(k), <= 1 away from the mode
                if (q < 1 - 1e-4 && sum > 0) {
                    // rest beyond k (next, next+dir, ...) <= P(k) q / (1 - q)
                    double rest = p * q / (1 - q) * TAIL_SAFETY;
                    if (rest <= relTol * sum) {
                        skipped = LogMath.logAdd(skipped, Math.log(rest) + logRef);
                        break;
                    }
                }
                sum += pn * f.applyAsDouble(next);
                mass += pn;
                terms++;
                k = next;
                p = pn;
                if (p < 1e-250 && p > 0) { // rescale before the terms underflow
                    double shift = Math.log(p);
                    logRef += shift;
                    sum /= p;
                    mass /= p;
                    p = 1;
                }
            }
            // the other direction starts again from the first term: bring the reference back
            double back = logP0 - logRef;
            if (back != 0) {
                logRef += back;
                sum *= Math.exp(-back);
                mass *= Math.exp(-back);
            }
        }
        return new Result(sum > 0 ? Math.log(sum) + logRef : Double.NEGATIVE_INFINITY, skipped, terms, Math.log(mass) + logRef);
    }

    /** Smallest {@code k} in {@code [lo, hi]} with {@code pred(k)} true, for a predicate that is false then true; {@code hi + 1} if none. */
    public static long firstTrue(long lo, long hi, LongPredicate pred) {
        long a = lo;
        long b = hi + 1;
        while (a < b) {
            long mid = (a + b) >>> 1;
            if (pred.test(mid)) {
                b = mid;
            } else {
                a = mid + 1;
            }
        }
        return a;
    }
}
