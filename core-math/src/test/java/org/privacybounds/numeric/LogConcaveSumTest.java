package org.privacybounds.numeric;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.function.LongToDoubleFunction;

import org.junit.jupiter.api.Test;

/** {@link LogConcaveSum#sumMonotone} against every term summed, for monotone factors deep in a tail and for steps. */
class LogConcaveSumTest {

    /** ln of the sum of P(k) F(k) over every k of the range, each log-pmf exact. */
    private static double everyTerm(CountLaw law, long lo, long hi, LongToDoubleFunction logF) {
        LogSumExp acc = new LogSumExp();
        for (long k = Math.max(lo, law.lower()); k <= Math.min(hi, law.upper()); k++) {
            acc.add(law.logProbability(k) + logF.applyAsDouble(k));
        }
        return acc.log();
    }

    @Test
    void sumMonotoneEqualsEveryTermWithinItsCertificate() {
        SplittableRandom rnd = new SplittableRandom(20261126L);
        int deepTails = 0;
        for (int c = 0; c < 300; c++) {
            CountLaw law;
            double sd;
            if (rnd.nextBoolean()) {
                long population = 50 + rnd.nextLong(1_000_000);
                long marked = 1 + rnd.nextLong(population - 1);
                long draws = 1 + rnd.nextLong(Math.min(population - 1, 60_000));
                law = CountLaw.hypergeometric(population, marked, draws);
                double p = (double) marked / population;
                sd = Math.sqrt(draws * p * (1 - p) * (population - draws) / Math.max(1.0, population - 1.0));
            } else {
                long trials = 1 + rnd.nextLong(60_000);
                long den = 2 + rnd.nextLong(1000);
                long num = 1 + rnd.nextLong(den - 1);
                law = CountLaw.binomial(trials, num, den);
                double p = (double) num / den;
                sd = Math.sqrt(trials * p * (1 - p));
            }
            long lo = law.lower() + (rnd.nextInt(4) == 0 ? rnd.nextLong(law.upper() - law.lower() + 1) : 0);
            long hi = law.upper() - (rnd.nextInt(4) == 0 ? rnd.nextLong(law.upper() - lo + 1) : 0);
            boolean rising = rnd.nextBoolean();
            // the factor's edge: anywhere from the bulk to 60 standard deviations out
            double z = rnd.nextDouble() * 60 * (rnd.nextBoolean() ? 1 : -1);
            long edge = Math.round(law.mode() + z * Math.max(1, sd));
            double slope = Math.pow(10, -4 + 5 * rnd.nextDouble());
            int shape = rnd.nextInt(3);
            LongToDoubleFunction logF = k -> {
                double below = rising ? edge - k : k - edge; // > 0 where the factor is below its top
                if (below <= 0) {
                    return 0;
                }
                return switch (shape) {
                    case 0 -> -slope * below;
                    case 1 -> -slope * below * below / Math.max(1, sd);
                    default -> -40; // a step: the terms may have two peaks
                };
            };
            double exact = everyTerm(law, lo, hi, logF);
            LogConcaveSum.Result r = LogConcaveSum.sumMonotone(law, lo, hi, logF, rising, 1e-15);
            String where = "case " + c + " [" + lo + ", " + hi + "] edge " + edge + " shape " + shape + " rising " + rising;
            if (exact == Double.NEGATIVE_INFINITY) {
                assertTrue(r.logSum() == Double.NEGATIVE_INFINITY, where);
                continue;
            }
            // a subset of the same positive terms: never above, and below by at most the certified truncation, up to the
            // rounding of log-pmfs of this size (a few ulps of |ln P|: 1e-12 at ln P = -5,000)
            double rounding = 1e-12 + 16 * Math.ulp(Math.abs(exact));
            double below = -Math.expm1(r.logSum() - exact);
            assertTrue(below >= -rounding, where + ": above every term by " + -below);
            assertTrue(below <= r.relativeTruncation() + rounding, where + ": " + below + " > " + r.relativeTruncation());
            assertTrue(r.relativeTruncation() <= 1e-13, where + ": truncation " + r.relativeTruncation());
            if (Math.abs(z) > 20) {
                deepTails++;
            }
        }
        assertTrue(deepTails > 100, "deep tails " + deepTails);
    }

    /**
     * Where the terms are unimodal (a log-concave law times a log-concave monotone factor) the start the sums take is the largest
     * term, as every term says. (The rows of a hockey-stick sum need not be: at n = 1e6 they zigzag by parity near their peak,
     * 0.04 in ln, so any start is only a choice there; the sums are certified from any.)
     */
    @Test
    void theLargestTermIsFoundWhereTheTermsAreUnimodal() {
        SplittableRandom rnd = new SplittableRandom(20261130L);
        for (int c = 0; c < 400; c++) {
            long population = 50 + rnd.nextLong(200_000);
            long marked = 1 + rnd.nextLong(population - 1);
            long draws = 1 + rnd.nextLong(Math.min(population - 1, 20_000));
            CountLaw law = CountLaw.hypergeometric(population, marked, draws);
            double p = (double) marked / population;
            double sd = Math.max(1, Math.sqrt(draws * p * (1 - p)));
            boolean rising = rnd.nextBoolean();
            long edge = Math.round(law.mode() + rnd.nextDouble() * 40 * sd * (rnd.nextBoolean() ? 1 : -1));
            double slope = Math.pow(10, -3 + 4 * rnd.nextDouble());
            boolean quadratic = rnd.nextBoolean();
            LongToDoubleFunction logF = k -> {
                double below = rising ? edge - k : k - edge;
                return below <= 0 ? 0 : quadratic ? -slope * below * below / sd : -slope * below;
            };
            long found = LogConcaveSum.largestMonotoneTerm(law, law.lower(), law.upper(), logF, rising);
            double best = Double.NEGATIVE_INFINITY;
            for (long k = law.lower(); k <= law.upper(); k++) {
                best = Math.max(best, law.logProbability(k) + logF.applyAsDouble(k));
            }
            double at = law.logProbability(found) + logF.applyAsDouble(found);
            assertTrue(at >= best - 1e-12 * Math.max(1, Math.abs(best)), "case " + c + ": " + found + " gives " + at + " against " + best);
        }
    }

    @Test
    void monotoneSumBelowNeverClaimsWhatIsFalseAndTellsFarTargets() {
        // the sum's largest term and a ladder each way: "below" must be true of every term summed, and must be found where the
        // target is 20 nats above the sum (its use: sums hundreds of nats below the largest of a histogram's sums; the ladder's
        // stretches double, so it is loose by a few nats where the terms are broad)
        SplittableRandom rnd = new SplittableRandom(7);
        int told = 0;
        int cases = 0;
        for (int c = 0; c < 200; c++) {
            long trials = 100 + rnd.nextLong(200_000);
            CountLaw law = CountLaw.binomial(trials, 1 + rnd.nextLong(9), 10);
            double sd = Math.sqrt(trials * 0.25);
            long edge = Math.round(law.mode() + (rnd.nextDouble() * 80 - 40) * sd);
            boolean rising = rnd.nextBoolean();
            double slope = Math.pow(10, -3 + 3 * rnd.nextDouble());
            LongToDoubleFunction logF = k -> {
                double below = rising ? edge - k : k - edge;
                return below <= 0 ? 0 : -slope * below;
            };
            double exact = everyTerm(law, law.lower(), law.upper(), logF);
            if (exact == Double.NEGATIVE_INFINITY) {
                continue;
            }
            cases++;
            // below a target under the sum (beyond the log-pmfs' rounding): never
            double rounding = 1e-12 + 16 * Math.ulp(Math.abs(exact));
            for (double margin : new double[] {1e-3, 1e-6}) {
                boolean below = LogConcaveSum.monotoneSumBelow(law, law.lower(), law.upper(), logF, rising, exact - margin - rounding, Long.MIN_VALUE);
                assertTrue(!below, "case " + c + ": claimed below a target " + margin + " under the sum");
            }
            if (LogConcaveSum.monotoneSumBelow(law, law.lower(), law.upper(), logF, rising, exact + 20, Long.MIN_VALUE)) {
                told++;
            }
        }
        assertTrue(told >= 0.9 * cases, "told " + told + " of " + cases);
    }

    @Test
    void aFactorDeepInATailCostsTheTermsThatMatterNotTheLaw() {
        // Binomial(1e6, 1/2) (sd 500), factor exp(-(2e4 - k)) below k = 2e4 + mode: the terms peak 40 sd out. sum walks every
        // value from the mode out to there; sumMonotone starts at the peak.
        CountLaw law = CountLaw.binomial(1_000_000, 1, 2);
        long edge = law.mode() + 20_000;
        LongToDoubleFunction logF = k -> k >= edge ? 0 : -(edge - k);
        LogConcaveSum.Result walk = LogConcaveSum.sum(law, law.lower(), law.upper(), logF, 1e-15);
        LogConcaveSum.Result peak = LogConcaveSum.sumMonotone(law, law.lower(), law.upper(), logF, true, 1e-15);
        assertTrue(Math.abs(walk.logSum() - peak.logSum()) < 1e-11, walk.logSum() + " vs " + peak.logSum());
        assertTrue(walk.terms() > 19_000, "walk " + walk.terms());
        assertTrue(peak.terms() < 1_000, "peak " + peak.terms());
    }
}
