package org.privacybounds.jobs.teachers;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.teachers.DpSgd;
import org.privacybounds.teachers.KnowledgeTransfer;
import org.privacybounds.teachers.LabelledImages;
import org.privacybounds.teachers.LogisticModel;

/**
 * Teachers trained on the executors: one task per teacher, each on its own shard, its randomness from (seed, teacher,
 * private or not) alone, so the same seed gives the same teachers for any number of partitions or executors. The caller
 * owns the {@link SparkSession}.
 *
 * <pre>{@code
 * TeacherTraining.Split split = TeacherTraining.split(images, 11, 0.2, 7L);
 * int[][] votes = TeacherTraining.votes(spark, split, DpSgd.Config.dpSgd(12, 1, 0.5, 5, 0.5), 7L, 0);
 * }</pre>
 */
public final class TeacherTraining {
    private TeacherTraining() {
    }

    /** The public query pool (held out) and the K teachers' disjoint shards. */
    public record Split(LabelledImages queries, LabelledImages[] shards) implements Serializable {
    }

    /**
     * Shuffles the images with {@code seed}, holds out {@code round(holdout n)} of them as the query pool and deals the rest
     * round-robin into K shards (sizes differ by at most one).
     */
    public static Split split(LabelledImages all, int k, double holdout, long seed) {
        int n = all.size();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        SplittableRandom r = new SplittableRandom(KnowledgeTransfer.mix(seed, -1, -1));
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int q = (int) Math.round(holdout * n);
        LabelledImages queries = all.subset(Arrays.copyOf(order, q));
        LabelledImages[] shards = new LabelledImages[k];
        for (int t = 0; t < k; t++) {
            List<Integer> idx = new ArrayList<>();
            for (int i = q + t; i < n; i += k) {
                idx.add(order[i]);
            }
            shards[t] = all.subset(idx.stream().mapToInt(Integer::intValue).toArray());
        }
        return new Split(queries, shards);
    }

    /** Teacher t's seed for a run seed (private and non-private teachers differ). */
    public static long teacherSeed(long seed, int teacher, boolean privateTraining) {
        return KnowledgeTransfer.mix(seed, teacher, privateTraining ? 1 : 0);
    }

    /** Trains the K teachers of {@code split} with {@code config} on the executors; returns [teacher][query] 0/1 votes. */
    public static int[][] votes(SparkSession spark, Split split, DpSgd.Config config, long seed, int partitions) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        Broadcast<Split> data = jsc.broadcast(split);
        int k = split.shards().length;
        List<Integer> teachers = new ArrayList<>();
        for (int t = 0; t < k; t++) {
            teachers.add(t);
        }
        int parts = partitions > 0 ? partitions : Math.min(k, Math.max(1, jsc.defaultParallelism()));
        List<int[]> rows = jsc.parallelize(teachers, parts).map(t -> {
            Split s = data.value();
            LogisticModel m = DpSgd.train(s.shards()[t], config, teacherSeed(seed, t, config.privateTraining()));
            int[] v = m.predict(s.queries());
            int[] row = Arrays.copyOf(v, v.length + 1);
            row[v.length] = t;
            return row;
        }).collect();
        int[][] out = new int[k][];
        for (int[] row : rows) {
            out[row[row.length - 1]] = Arrays.copyOf(row, row.length - 1);
        }
        data.destroy();
        return out;
    }
}
