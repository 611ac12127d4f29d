package org.privacybounds.jobs.smoothed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongUnaryOperator;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.SmoothedValue;

/**
 * delta_SDP over a grid of n as a Spark job on a session the caller owns: one row per (n, eps) with the certified value
 * and how it was obtained. The same computation as {@code smoothed-sweep} without its files, resume and plots.
 *
 * <pre>{@code
 * DistributionSet pi = DistributionSet.of(List.of(new double[] {0.3, 0.7}, new double[] {0.9, 0.1}), List.of("a", "b"), "example");
 * Dataset<Row> rows = SmoothedSweepJob.run(spark, new long[] {10_000, 100_000}, n -> SampleSize.fromLost(2, n), Sampling.WITHOUT_REPLACEMENT,
 *         pi, new double[] {0.5, 2}, 4);
 * }</pre>
 */
public final class SmoothedSweepJob {
    /** The rows: n, T, epsilon, delta, log10Delta (exact even when delta underflows), relativeErrorBound, method, argmaxAssignment. */
    public static final StructType SCHEMA = new StructType().add("n", DataTypes.LongType, false).add("T", DataTypes.LongType, false)
            .add("epsilon", DataTypes.DoubleType, false).add("delta", DataTypes.DoubleType, false).add("log10Delta", DataTypes.DoubleType, true)
            .add("relativeErrorBound", DataTypes.DoubleType, false).add("method", DataTypes.StringType, false)
            .add("argmaxAssignment", DataTypes.createArrayType(DataTypes.LongType, false), false);

    private SmoothedSweepJob() {
    }

    /**
     * delta_SDP for every n of {@code ns} and every eps.
     *
     * @param sampleSize T as a function of n (e.g. {@code n -> SampleSize.fromLost(2, n)})
     * @param partitions Spark partitions of the exact stages
     */
    public static Dataset<Row> run(SparkSession spark, long[] ns, LongUnaryOperator sampleSize, Sampling sampling, DistributionSet hull, double[] eps,
            int partitions) {
        List<Row> rows = new ArrayList<>();
        for (long n : ns) {
            long t = sampleSize.applyAsLong(n);
            for (SmoothedValue v : SmoothedRunner.run(spark, n, t, sampling, hull, eps, partitions, line -> { })) {
                double log10 = v.logDelta() / Math.log(10);
                rows.add(RowFactory.create(n, t, v.epsilon(), v.delta(), Double.isFinite(log10) ? log10 : null, v.relativeErrorBound(), v.method(),
                        Arrays.stream(v.argmaxAssignment()).boxed().toArray(Long[]::new)));
            }
        }
        return spark.createDataFrame(rows, SCHEMA);
    }
}
