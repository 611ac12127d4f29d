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
     * allowance every reported value carries.
     */
    static final int ANCHOR = 32;

    private LogConcaveSum() {
    }

    /**
     * The sum and a bound on what was left out.
     *
     * @param logSum     log of the summed terms ({@code -Infinity} if all were 0)
     * @param logSkipped log of an upper bound on the skipped terms ({@code -Infinity} if none)
     * @param terms      number of terms evaluated
     */
    public record Result(double logSum, double logSkipped, long terms) {
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
     * The same certified sum with the factor given as itself, {@code 0 <= f(k) <= 1}, not as its logarithm: the terms are
     * kept relative to the first one's probability and stepped by the law's ratio {@link CountLaw#ratioUp} (exact anchors
     * every {@link #ANCHOR} steps, as in {@link #sum}), so a term costs what f costs plus a few multiplications instead of
     * several logarithms. The stopping rule is {@link #sum}'s, tested where the ratio is below 1 - 1e-4 (there its
     * complement is accurate to 1e-10, inside the safety factor); the rescaling keeps the terms from underflowing.
     */
    public static Result sumLinear(CountLaw law, long lo, long hi, LongToDoubleFunction f, double relTol) {
        lo = Math.max(lo, law.lower());
        hi = Math.min(hi, law.upper());
        if (lo > hi) {
            return new Result(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, 0);
        }
        long start = Math.max(lo, Math.min(hi, law.mode()));
        final double logP0 = law.logProbability(start);
        double logRef = logP0; // the terms are p * f, with p = P(k) / exp(logRef)
        double sum = f.applyAsDouble(start);
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
                terms++;
                k = next;
                p = pn;
                if (p < 1e-250 && p > 0) { // rescale before the terms underflow
                    double shift = Math.log(p);
                    logRef += shift;
                    sum /= p;
                    p = 1;
                }
            }
            // the other direction starts again from the first term: bring the reference back
            double back = logP0 - logRef;
            if (back != 0) {
                logRef += back;
                sum *= Math.exp(-back);
            }
        }
        return new Result(sum > 0 ? Math.log(sum) + logRef : Double.NEGATIVE_INFINITY, skipped, terms);
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
