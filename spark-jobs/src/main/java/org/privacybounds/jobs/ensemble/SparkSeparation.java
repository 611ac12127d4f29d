package org.privacybounds.jobs.ensemble;

import java.util.List;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.DarrmOptimizer;

/**
 * The separation scan over all of P on Spark: the multisets are partitioned on their leading one or
 * two interior counts (one task scans every multiset below its prefix, reusing partial
 * Poisson-binomial products), each task keeps its largest rows, and the partial results are merged.
 * Below {@link #LOCAL_LIMIT} multisets the driver scans alone (Spark's scheduling would dominate).
 */
public final class SparkSeparation implements DarrmOptimizer.Separation {
    static final long LOCAL_LIMIT = 200_000;

    private final ConstraintSet set;
    private final double em;
    private final JavaSparkContext jsc;
    private final JavaRDD<int[]> prefixes;

    public SparkSeparation(JavaSparkContext jsc, ConstraintSet set, double em, int partitions) {
        this.set = set;
        this.em = em;
        this.jsc = jsc;
        if (set.size() <= LOCAL_LIMIT || jsc == null) {
            prefixes = null;
        } else {
            List<int[]> p = set.prefixes(set.k() > 60 ? 1 : 2);
            int parts = partitions > 0 ? partitions : Math.min(p.size(), 8 * jsc.defaultParallelism());
            prefixes = jsc.parallelize(p, parts).cache();
        }
    }

    boolean distributed() {
        return prefixes != null;
    }

    @Override
    public ConstraintSet.ScanResult scan(double[] x, double threshold, int keep) {
        if (prefixes == null) {
            return set.scanAll(x, em, threshold, keep);
        }
        Broadcast<double[]> bx = jsc.broadcast(x);
        ConstraintSet s = set;
        double e = em;
        try {
            return prefixes.map(p -> s.scan(p, bx.value(), e, threshold, keep)).reduce((a, b) -> a.merge(b, keep));
        } finally {
            bx.destroy();
        }
    }

    public void close() {
        if (prefixes != null) {
            prefixes.unpersist();
        }
    }
}
