package org.privacybounds.jobs.quantized;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.LocalPool;
import org.privacybounds.quantized.CodeGrid;
import org.privacybounds.quantized.MonteCarloMean;
import org.privacybounds.quantized.OutputRounding;
import org.privacybounds.quantized.QuantizedDistribution;
import org.privacybounds.quantized.SamplingAverageMechanism;
import org.privacybounds.quantized.SmoothedSgd.Estimate;
import org.privacybounds.quantized.SmoothedSgd.StepBound;
import org.privacybounds.quantized.SmoothedSgd;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The quantized-SGD Monte Carlo on a SparkSession the caller owns (it is never created or stopped here): for one n, every
 * (assignment, trial) database is drawn and profiled exactly on the executors, one seed per trial split from the request's
 * seed (the same digits for any number of partitions), and summarised on the driver by {@link SmoothedSgd} into one
 * {@link StepBound} per eps. {@link #summaries} and {@link #assignments} give the results as {@code Dataset<Row>}s.
 *
 * <p>Example:
 * <pre>{@code
 * QuantizedSgdJob.Request req = new QuantizedSgdJob.Request(
 *         new QuantizedDistribution[] {QuantizedDistribution.gaussian(0, 0.12, 8), QuantizedDistribution.gaussian(0.2, 0.12, 8)},
 *         new CodeGrid(8), OutputRounding.ROUND, SamplingAverageMechanism.Neighbors.ALL, new double[] {1.0}, 50,
 *         new SmoothedSgd.Endpoints(), 0.99, MonteCarloMean.Interval.BERNSTEIN, 1, 42L);
 * List<SmoothedSgd.StepBound> b = QuantizedSgdJob.run(spark, 100, 10, req, 4);
 * QuantizedSgdJob.summaries(spark, b).show();
 * }</pre>
 */
public final class QuantizedSgdJob {
    private QuantizedSgdJob() {
    }

    /**
     * What to estimate: the vertex distributions Pi (on the code grid of {@code grid}), the mechanism's output rounding and
     * neighbour set, the eps values, the databases per assignment, which assignments, the interval (confidence and method)
     * and the number of composed steps, and the master seed.
     */
    public record Request(QuantizedDistribution[] pi, CodeGrid grid, OutputRounding rounding, SamplingAverageMechanism.Neighbors neighbors,
            double[] eps, int trials, SmoothedSgd.Assignments assignments, double confidence, MonteCarloMean.Interval ciMethod, int steps, long seed)
            implements Serializable {
        public Request {
            if (pi.length < 1) {
                throw new BadInputException(Parameter.PI, 0, "needs at least one distribution");
            }
            if (trials < 2) {
                throw new BadInputException(Parameter.TRIALS, trials, "must be >= 2 (a confidence interval needs two values)");
            }
            if (!(confidence > 0 && confidence < 1)) {
                throw new BadInputException(Parameter.CONFIDENCE, confidence, "must be in (0, 1)");
            }
            if (steps < 1) {
                throw new BadInputException(Parameter.STEPS, steps, "must be >= 1");
            }
            pi = pi.clone();
            eps = eps.clone();
        }
    }

    /**
     * One n with sample size T: every assignment x trial over {@code partitions} tasks (at least 1), the trials of each
     * assignment summarised in trial order. One bound per eps, in the request's order.
     */
    public static List<StepBound> run(SparkSession spark, int n, int sampleSize, Request r, int partitions) {
        return run(spark, n, sampleSize, r, partitions, 0);
    }

    /**
     * The same Monte Carlo on the driver alone, on {@code threads} threads (no Spark): the same databases, the same digits
     * (each trial's seed depends only on the request's seed, n, the assignment and the trial).
     */
    public static List<StepBound> runLocal(int n, int sampleSize, Request r, int threads) {
        return run(null, n, sampleSize, r, 4 * Math.max(1, threads), Math.max(1, threads));
    }

    private static List<StepBound> run(SparkSession spark, int n, int sampleSize, Request r, int partitions, int threads) {
        SamplingAverageMechanism.checkSizes(r.grid(), sampleSize, n);
        List<int[]> assign = r.assignments().of(n, r.pi().length);
        int trials = r.trials();
        int total = assign.size() * trials;
        int slices = Math.max(1, Math.min(partitions, total));
        List<int[]> ranges = new ArrayList<>();
        for (int s = 0; s < slices; s++) {
            int lo = (int) ((long) total * s / slices);
            int hi = (int) ((long) total * (s + 1) / slices);
            if (hi > lo) {
                ranges.add(new int[] {lo, hi});
            }
        }
        // each item: assignment a = item / trials, trial t = item % trials
        Function<int[], List<SmoothedSgd.Trial>> slice = range -> {
            SamplingAverageMechanism m = new SamplingAverageMechanism(r.grid(), sampleSize, r.rounding());
            List<SmoothedSgd.Trial> res = new ArrayList<>();
            for (int item = range[0]; item < range[1]; item++) {
                res.add(SmoothedSgd.trial(m, r.pi(), n, assign.get(item / trials), r.seed(), item % trials, r.eps(), r.neighbors()));
            }
            return res;
        };
        // collect keeps the order of the ranges, hence of the items (on Spark and on the driver's threads alike)
        JavaSparkContext jsc = spark == null ? null : JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<List<SmoothedSgd.Trial>> parts = LocalPool.distribute(jsc, threads, ranges, ranges.size(), slice);
        List<SmoothedSgd.Trial> all = new ArrayList<>(total);
        parts.forEach(all::addAll);
        double range = (double) sampleSize / n;
        List<StepBound> out = new ArrayList<>();
        for (int e = 0; e < r.eps().length; e++) {
            List<Estimate> est = new ArrayList<>();
            for (int a = 0; a < assign.size(); a++) {
                est.add(SmoothedSgd.estimate(assign.get(a), all.subList(a * trials, (a + 1) * trials), e, range, r.confidence(), r.ciMethod()));
            }
            out.add(SmoothedSgd.bound(n, sampleSize, r.eps()[e], est, r.ciMethod(), r.steps()));
        }
        return out;
    }

    /** One assignment's estimate with the (n, T, eps) it belongs to. */
    public record AssignmentRow(StepBound bound, Estimate estimate) {
    }

    /** The columns of one assignment's estimate after its name (trials to maxRelativeError). */
    private static final Columns<Estimate> ESTIMATE_VALUES = Columns.<Estimate>of().integer("trials", Estimate::trials)
            .number("mean", Estimate::mean).number("log10Mean", x -> Math.log10(x.mean())).number("stdError", Estimate::stdError)
            .number("ciLow", Estimate::ciLow).number("ciHigh", Estimate::ciHigh).string("ciMethod", x -> x.ciMethod().label())
            .number("studentLow", Estimate::studentLow).number("studentHigh", Estimate::studentHigh).number("bernsteinLow", Estimate::bernsteinLow)
            .number("bernsteinHigh", Estimate::bernsteinHigh).number("maxDelta", Estimate::maxDelta).number("heuristicMean", Estimate::heuristicMean)
            .number("heuristicTightFraction", Estimate::heuristicTightFraction).number("maxRelativeError", Estimate::maxRelativeError);

    /** The columns of one assignment's estimate (without n, T, eps). */
    public static final Columns<Estimate> ESTIMATE = Columns.<Estimate>of().string("assignment", Estimate::assignment).then(ESTIMATE_VALUES);

    /** The columns of a bound (one n and eps; the estimates are {@link #ASSIGNMENT}'s rows), and its text table. */
    public static final Columns<StepBound> SUMMARY = Columns.<StepBound>of().integer("n", StepBound::n).shown("n", "%-8d")
            .integer("T", StepBound::T).shown("T", "%-5d").number("epsilon", StepBound::epsilon).shown("epsilon", "%-8.4g")
            .number("smoothedDelta", StepBound::smoothedDelta).shown("smoothed delta", "%-14.4e")
            .number("log10SmoothedDelta", b -> Math.log10(b.smoothedDelta())).shown("log10", "%-12.4f")
            .string("argmaxAssignment", StepBound::argmaxAssignment).shown("argmax assign.", "%-14s")
            .number("meanAtArgmax", StepBound::meanAtArgmax).shown("mean there", "%-14.4e").number("ciLowAtArgmax", StepBound::ciLowAtArgmax)
            .string("ciMethod", b -> b.ciMethod().label()).number("dpDelta", StepBound::dpDelta).number("inverseN", StepBound::inverseN)
            .textOnly("log10 1/n", "%.3f", b -> Math.log10(b.inverseN())).integer("steps", StepBound::steps)
            .number("composedEpsilon", StepBound::composedEpsilon).number("composedDelta", StepBound::composedDelta);

    /** The columns of one assignment's row: n, T, the assignment, eps, then the estimate's values. */
    public static final Columns<AssignmentRow> ASSIGNMENT = Columns.<AssignmentRow>of().integer("n", a -> a.bound().n())
            .integer("T", a -> a.bound().T()).string("assignment", a -> a.estimate().assignment()).number("epsilon", a -> a.bound().epsilon())
            .then(ESTIMATE_VALUES.on(AssignmentRow::estimate));

    /** Every assignment's row of the bounds, in order. */
    public static List<AssignmentRow> assignmentRows(List<StepBound> bounds) {
        List<AssignmentRow> out = new ArrayList<>();
        for (StepBound b : bounds) {
            b.assignments().forEach(e -> out.add(new AssignmentRow(b, e)));
        }
        return out;
    }

    /** The bounds as a {@code Dataset<Row>} of {@link #SUMMARY}'s columns. */
    public static Dataset<Row> summaries(SparkSession spark, List<StepBound> bounds) {
        return SUMMARY.dataset(spark, bounds);
    }

    /** Every assignment's estimate as a {@code Dataset<Row>} of {@link #ASSIGNMENT}'s columns. */
    public static Dataset<Row> assignments(SparkSession spark, List<StepBound> bounds) {
        return ASSIGNMENT.dataset(spark, assignmentRows(bounds));
    }
}
