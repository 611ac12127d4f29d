package org.privacybounds.quantized;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * Smoothed DP of one SGD step on b-bit quantized gradients (Smoothed DP paper, Figure 2 right and Figure 5) from an
 * outer Monte Carlo over databases: for every assignment of the n records to the vertex distributions (n_1 records
 * from the first, ...), databases are drawn with one seed per trial and each database's delta_eps(x) is exact
 * ({@link SamplingAverageMechanism}). Per assignment: the mean of delta(x) with a confidence interval
 * ({@link MonteCarloMean}); the smoothed bound is the largest upper limit over the assignments; k steps compose like
 * DP (Proposition 5; {@link Composition#basic}).
 *
 * <p>Example (two assignments, 50 databases each, one step):
 * <pre>{@code
 * QuantizedDistribution[] pi = {QuantizedDistribution.gaussian(0, 0.12, 8), QuantizedDistribution.gaussian(0.2, 0.12, 8)};
 * SamplingAverageMechanism m = new SamplingAverageMechanism(new CodeGrid(8), 10, OutputRounding.ROUND);
 * double[] eps = {1.0};
 * List<SmoothedSgd.Estimate> est = new ArrayList<>();
 * for (int[] a : new SmoothedSgd.Endpoints().of(100, 2)) {
 *     List<SmoothedSgd.Trial> trials = new ArrayList<>();
 *     for (int r = 0; r < 50; r++) {
 *         trials.add(SmoothedSgd.trial(m, pi, 100, a, 42, r, eps, SamplingAverageMechanism.Neighbors.ALL));
 *     }
 *     est.add(SmoothedSgd.estimate(a, trials, 0, 10 / 100.0, 0.99, MonteCarloMean.Interval.BERNSTEIN));
 * }
 * SmoothedSgd.StepBound b = SmoothedSgd.bound(100, 10, 1.0, est, MonteCarloMean.Interval.BERNSTEIN, 1);
 * double delta = b.smoothedDelta();   // the largest 99 % upper limit
 * }</pre>
 */
public final class SmoothedSgd {
    /** The largest n for {@link All} (n + 1 assignments) and the largest K of {@link Grid}. */
    public static final int MAX_ALL_N = 10_000;
    public static final int MAX_GRID = 10_000;

    private SmoothedSgd() {
    }

    /** Which assignments of n records to the vertex distributions are tried. */
    public sealed interface Assignments extends Serializable permits Endpoints, Grid, All {
        /** The assignments (counts per vertex, summing to n), in the order reported. */
        List<int[]> of(int n, int vertices);
    }

    /** All records from one distribution, each in turn (the paper's choice). */
    public record Endpoints() implements Assignments {
        @Override
        public List<int[]> of(int n, int vertices) {
            List<int[]> out = new ArrayList<>();
            for (int v = 0; v < vertices; v++) {
                int[] c = new int[vertices];
                c[v] = n;
                out.add(c);
            }
            return out;
        }
    }

    /** Two distributions: n_1 = round(i n / K) for i = 0..K (duplicates dropped), from n_1 = n down. */
    public record Grid(int k) implements Assignments {
        public Grid {
            if (k < 1 || k > MAX_GRID) {
                throw new BadInputException(Parameter.ASSIGNMENT_GRID, k, "must be in 1.." + MAX_GRID);
            }
        }

        @Override
        public List<int[]> of(int n, int vertices) {
            twoVertices(this, vertices);
            TreeSet<Integer> n1s = new TreeSet<>(Comparator.reverseOrder());
            for (int i = 0; i <= k; i++) {
                n1s.add((int) Math.round((double) n * (k - i) / k));
            }
            List<int[]> out = new ArrayList<>();
            for (int n1 : n1s) {
                out.add(new int[] {n1, n - n1});
            }
            return out;
        }
    }

    /** Two distributions: every n_1 = n, n - 1, ..., 0 (n at most {@link #MAX_ALL_N}). */
    public record All() implements Assignments {
        @Override
        public List<int[]> of(int n, int vertices) {
            twoVertices(this, vertices);
            if (n > MAX_ALL_N) {
                throw new BadInputException(Parameter.ASSIGNMENTS, "all", "every assignment is limited to n <= " + MAX_ALL_N + " (n = " + n + "); use a grid");
            }
            List<int[]> out = new ArrayList<>();
            for (int n1 = n; n1 >= 0; n1--) {
                out.add(new int[] {n1, n - n1});
            }
            return out;
        }
    }

    private static void twoVertices(Assignments a, int vertices) {
        if (vertices != 2) {
            throw new BadInputException(Parameter.ASSIGNMENTS, a, "a grid or every assignment needs exactly two distributions (" + vertices
                    + " given); use the endpoints");
        }
    }

    /** The outcome of one database: per eps its exact delta, the paper's two-neighbour delta and whether that was tight. */
    public record Trial(double[] delta, double[] heuristicDelta, boolean[] heuristicTight, double maxRelativeError) implements Serializable {
    }

    /**
     * The key of a setting (n and an assignment) from which every trial's seed is split; with the trial number and the
     * master seed it fixes the database, whatever the partitioning.
     */
    public static long settingKey(int n, int[] assignment) {
        long key = n;
        for (int c : assignment) {
            key = key * 1_000_003L + c;
        }
        return key;
    }

    /** An assignment as written in outputs: its counts joined by '+' ("100+0"). */
    public static String label(int[] assignment) {
        return String.join("+", Arrays.stream(assignment).mapToObj(Integer::toString).toList());
    }

    /** Draws database {@code trial} of the assignment (seeded from {@code seed}) and computes its exact profile. */
    public static Trial trial(SamplingAverageMechanism m, QuantizedDistribution[] pi, int n, int[] assignment, long seed, long trial, double[] eps,
            SamplingAverageMechanism.Neighbors neighbors) {
        int[] h = DatabaseSampler.histogram(pi, assignment, DatabaseSampler.trialSeed(seed, settingKey(n, assignment), trial));
        SamplingAverageMechanism.Value[] v = m.profile(h, eps, neighbors);
        double[] d = new double[eps.length];
        double[] hd = new double[eps.length];
        boolean[] tight = new boolean[eps.length];
        double maxRel = 0;
        for (int e = 0; e < eps.length; e++) {
            d[e] = v[e].delta();
            hd[e] = v[e].heuristicDelta();
            tight[e] = v[e].heuristicTight();
            maxRel = Math.max(maxRel, v[e].relativeError());
        }
        return new Trial(d, hd, tight, maxRel);
    }

    /** One assignment's Monte Carlo summary at one eps; {@code ciLow}/{@code ciHigh} are the interval named {@code ciMethod}. */
    public record Estimate(String assignment, int trials, double mean, double stdError, double ciLow, double ciHigh, MonteCarloMean.Interval ciMethod,
            double studentLow, double studentHigh, double bernsteinLow, double bernsteinHigh, double maxDelta, double heuristicMean,
            double heuristicTightFraction, double maxRelativeError) implements Serializable {
    }

    /**
     * Summarises the trials (in trial order) of one assignment at eps number {@code e}: values lie in [0, range] with
     * range = T/n; the interval at {@code confidence} is {@code ciMethod}.
     */
    public static Estimate estimate(int[] assignment, List<Trial> trials, int e, double range, double confidence, MonteCarloMean.Interval ciMethod) {
        Objects.requireNonNull(ciMethod, "ciMethod");
        double[] vals = new double[trials.size()];
        double heur = 0;
        double tight = 0;
        double maxRel = 0;
        for (int r = 0; r < vals.length; r++) {
            Trial t = trials.get(r);
            vals[r] = t.delta()[e];
            heur += t.heuristicDelta()[e];
            tight += t.heuristicTight()[e] ? 1 : 0;
            maxRel = Math.max(maxRel, t.maxRelativeError());
        }
        MonteCarloMean mc = MonteCarloMean.of(vals, range, confidence);
        double[] iv = mc.interval(ciMethod);
        return new Estimate(label(assignment), vals.length, mc.mean(), mc.stdError(), iv[0], iv[1], ciMethod, mc.studentLow(), mc.studentHigh(),
                mc.bernsteinLow(), mc.bernsteinHigh(), mc.max(), heur / vals.length, tight / vals.length, maxRel);
    }

    /**
     * The smoothed bound of one step at one eps: the largest upper limit over the assignments (the first one on ties), the
     * DP bound T/n and 1/n beside it, and the composition over {@code steps} steps of (eps, min(1, bound)).
     */
    public record StepBound(int n, int T, double epsilon, double smoothedDelta, String argmaxAssignment, double meanAtArgmax,
            double ciLowAtArgmax, MonteCarloMean.Interval ciMethod, double dpDelta, double inverseN, int steps, double composedEpsilon, double composedDelta,
            List<Estimate> assignments) implements Serializable {
    }

    /** The bound of one step from the estimates of every assignment (see {@link StepBound}). */
    public static StepBound bound(int n, int sampleSize, double eps, List<Estimate> estimates, MonteCarloMean.Interval ciMethod, int steps) {
        Objects.requireNonNull(ciMethod, "ciMethod");
        if (estimates.isEmpty()) {
            throw new BadInputException(Parameter.ASSIGNMENTS, 0, "need at least one assignment");
        }
        if (steps < 1) {
            throw new BadInputException(Parameter.STEPS, steps, "must be >= 1");
        }
        Estimate best = null;
        for (Estimate x : estimates) {
            if (best == null || x.ciHigh() > best.ciHigh()) {
                best = x;
            }
        }
        // the smoothed bound composes over the steps like DP (Proposition 5): basic composition of the upper confidence end
        Guarantee composed = Composition.basic(Guarantee.of(eps, Math.min(1, best.ciHigh()), "one step, upper end of the confidence interval", 0), steps);
        return new StepBound(n, sampleSize, eps, best.ciHigh(), best.assignment(), best.mean(), best.ciLow(), ciMethod, (double) sampleSize / n,
                1.0 / n, steps, composed.epsilon(), composed.delta(), List.copyOf(estimates));
    }
}
