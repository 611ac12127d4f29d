package org.privacybounds.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.bayes.BayesAudit;
import org.privacybounds.bayes.ChainAudit;
import org.privacybounds.bayes.Mechanism;
import org.privacybounds.bayes.PosteriorFamily;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.ensemble.DarrmSetting;
import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.jobs.precincts.PrecinctJob;
import org.privacybounds.jobs.quantized.QuantizedSgdJob;
import org.privacybounds.pufferfish.DiscreteLaw;
import org.privacybounds.pufferfish.Noise;
import org.privacybounds.pufferfish.Releases;
import org.privacybounds.pufferfish.Sensitivities;
import org.privacybounds.quantized.CodeGrid;
import org.privacybounds.quantized.MonteCarloMean;
import org.privacybounds.quantized.OutputRounding;
import org.privacybounds.quantized.QuantizedDistribution;
import org.privacybounds.quantized.SamplingAverageMechanism;
import org.privacybounds.quantized.SmoothedSgd;
import org.privacybounds.rdp.DpSgdAccountant;
import org.privacybounds.smoothed.PrecinctPrivacy;
import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The Java lines of README.md and docs/library.md, as written there (DocsTest checks that every Java block of the documentation
 * appears in a test), against core-math and the commands that print the same numbers.
 */
class ReadmeApiTest extends SparkTestSession {
    @Test
    @SuppressWarnings("unused")
    void readmeTour() {
        SparkSession spark = SparkSession.builder().master("local[2]").appName("my-audit").getOrCreate();
        StructType schema = new StructType().add("county", DataTypes.StringType).add("precinct", DataTypes.StringType)
                .add("counts", DataTypes.createArrayType(DataTypes.LongType));
        Dataset<Row> counts = spark.createDataFrame(List.of(RowFactory.create("Warren", "1", new Long[] {1200L, 800L}),
                RowFactory.create("Fulton", "1", new Long[] {5L, 95L})), schema);          // your (county, precinct, counts) rows
        PrecinctPrivacy.Setting half = new PrecinctPrivacy.Setting(PrecinctPrivacy.Draw.SAMPLE_FRACTION, new BigDecimal("0.5"),
                new double[] {1.0}, 0.5);                                                  // half the ballots published, eps = 1
        Dataset<Row> privacy = PrecinctJob.evaluate(spark, counts, half, List.of("A", "B"), 2);   // one row per precinct
        privacy.select("county", "precinct", "n", "sampleSize", "results.delta").show();

        List<Row> rows = privacy.collectAsList();
        assertEquals(2, rows.size());
        // sorted by county: Fulton, then Warren
        int[][] expected = {{5, 95}, {1200, 800}};
        for (int i = 0; i < 2; i++) {
            Row r = rows.get(i);
            PrecinctPrivacy.Result core = PrecinctPrivacy.evaluate(expected[i], half);
            assertEquals(core.n(), r.getLong(r.fieldIndex("n")));
            assertEquals(core.sampleSize(), r.getLong(r.fieldIndex("sampleSize")));
            Row first = r.<Row>getList(r.fieldIndex("results")).get(0);
            assertEquals(core.values().get(0).log10Delta(), first.getDouble(first.fieldIndex("log10Delta")), 0);
        }
        assertEquals(1000, rows.get(1).getLong(rows.get(1).fieldIndex("sampleSize")));
    }

    @Test
    void libraryFirstSteps() {
        StructType schema = new StructType().add("county", DataTypes.StringType).add("precinct", DataTypes.StringType)
                .add("counts", DataTypes.createArrayType(DataTypes.LongType));
        Dataset<Row> counts = spark.createDataFrame(List.of(RowFactory.create("Warren", "1", new Long[] {1200L, 800L})), schema);
        // core-math: delta_eps(x) when 1,000 of 2,000 ballots (1,200 for A, 800 for B) are published
        ProfileValue v = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 1000).profile(new int[] {1200, 800}, 1.0);
        System.out.println(v.delta() + " " + v.method());                      // 3.80e-82, exact sum in log space
        // core-math: eps of DP-SGD, and 10 runs of it composed
        DpSgdAccountant.Result r = DpSgdAccountant.account(0.01, 1.1, 1000, 1e-5, DpSgdAccountant.defaultOrders());
        Guarantee ten = Composition.basic(Guarantee.of(r.epsilon(), 1e-5, r.method(), 0), 10);
        // spark-jobs, on a SparkSession you own: every row (county, precinct, counts array<long>) of a DataFrame
        PrecinctPrivacy.Setting half = new PrecinctPrivacy.Setting(PrecinctPrivacy.Draw.SAMPLE_FRACTION, new BigDecimal("0.5"),
                new double[] {1.0}, 0.5);
        Dataset<Row> privacy = PrecinctJob.evaluate(spark, counts, half, List.of("A", "B"), 2);   // one row per precinct

        assertEquals(1, privacy.count());
        Row first = privacy.first().<Row>getList(privacy.first().fieldIndex("results")).get(0);
        assertEquals(v.log10Delta(), first.getDouble(first.fieldIndex("log10Delta")), 1e-9);
        assertEquals(3.80e-82, v.delta(), 0.005e-82);
        Run p = run("profile", "--counts", "1200,800", "--sample-size", "1000", "--epsilon", "1", "--json");
        assertEquals(0, p.exitCode(), p.err());
        assertEquals(p.json().get("results").get(0).get("log10Delta").asDouble(), v.log10Delta(), 0);
        Run a = run("dp-sgd-accountant", "--sampling-rate", "0.01", "--noise-multiplier", "1.1", "--steps", "1000", "--delta", "1e-5", "--json");
        assertEquals(0, a.exitCode(), a.err());
        assertEquals(a.json().get("epsilon").asDouble(), r.epsilon(), 0);
        assertEquals(10 * r.epsilon(), ten.epsilon(), 1e-12 * ten.epsilon());
        assertEquals(1e-4, ten.delta(), 1e-18);
    }

    @Test
    void pufferfish(@TempDir Path dir) throws Exception {
        // pufferfish: a grade released with Laplace noise (scale 8) when the secret is a yes/no attribute
        Map<String, DiscreteLaw> laws = Map.of("yes", DiscreteLaw.of(12, 14, 15, 15), "no", DiscreteLaw.of(8, 10, 15));
        Releases.Family f = Releases.of(Releases.Setting.atScale(new Noise.Laplace(1), 2, 8.0, 1e-5), laws,
                Sensitivities.of(laws, 2, Double.NaN), Double.NaN);
        double ppEps = f.primary().pp().epsilon();                        // (ppEps, 1e-5)-Pufferfish private

        Path csv = dir.resolve("grades.csv");
        Files.writeString(csv, "G3,paid\n12,yes\n14,yes\n15,yes\n15,yes\n8,no\n10,no\n15,no\n");
        Run r = run("pufferfish-sensitivity", "--data", csv.toString(), "--value-column", "G3", "--secret-column", "paid", "--scale", "8",
                "--noise", "laplace", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode rel = r.json().get("releases").get(0);
        assertEquals(rel.get("ppEpsilon").asDouble(), ppEps, 1e-12 * ppEps);
        assertEquals(rel.get("epsilon").asDouble(), f.primary().epsilon(), 1e-12 * f.primary().epsilon());
    }

    @Test
    void darrm() {
        // DaRRM: 11 teachers, each 0.1-DP; the majority must be 0.3-DP
        DarrmSetting s = DarrmSetting.of(11, 3, 0.1, 0, Double.NaN);
        double[] gamma = DarrmOptimizer.optimize(s.constraints(), s.m(), s.delta(),
                DarrmOptimizer.objective(11, DarrmSetting.UNIFORM_FOLDED_MEAN)).gamma();

        Run r = run("darrm-optimize", "--k", "11", "--m", "3", "--epsilon", "0.1", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode g = r.json().get("gamma");
        assertEquals(12, gamma.length);
        for (int l = 0; l <= 11; l++) {
            assertEquals(g.get(l).asDouble(), gamma[l], 1e-12, "gamma(" + l + ")");
        }
    }

    @Test
    void bayes() {
        // bayes: the exponential mechanisms at n = 20, eps = 1, smoothed over Bernoulli(p), p in [0.3, 0.7]
        BayesAudit.Setup setup = new BayesAudit.Setup(new double[] {1}, 1e-6, Mechanism.SmoothBeta.STATEMENT, new double[] {0.5});
        PosteriorFamily family = new PosteriorFamily(20);
        List<BayesAudit.Row> audit = BayesAudit.rows(20, ChainAudit.run(family, setup.configs(family), 0, 21), setup, 0.3, 0.7);

        Run r = run("bayes-audit", "--n", "20", "--epsilon", "1", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode rows = r.json().get("rows");
        assertEquals(3, audit.size());
        for (int i = 0; i < 3; i++) {
            assertEquals(rows.get(i).get("mechanism").asText(), audit.get(i).mechanism());
            assertEquals(rows.get(i).get("maxLogRatio").asDouble(), audit.get(i).maxLogRatio(), 0);
            assertEquals(rows.get(i).get("smoothedDelta").asDouble(), Math.exp(audit.get(i).logSmoothedDelta()), 0);
            assertEquals(rows.get(i).get("isPureDP").asBoolean(), audit.get(i).pureDp().asBoolean());
        }
    }

    @Test
    void quantizedSgd() {
        // quantized SGD, on your SparkSession: 8-bit gradients, n = 49, T = 7, the paper's endpoint assignments
        QuantizedSgdJob.Request req = new QuantizedSgdJob.Request(new QuantizedDistribution[] {
                QuantizedDistribution.gaussian(0, 0.12, 8), QuantizedDistribution.gaussian(0.2, 0.12, 8)}, new CodeGrid(8),
                OutputRounding.ROUND, SamplingAverageMechanism.Neighbors.ALL, new double[] {1}, 50, new SmoothedSgd.Endpoints(),
                0.99, MonteCarloMean.Interval.BERNSTEIN, 1, 42L);
        Dataset<Row> bounds = QuantizedSgdJob.summaries(spark, QuantizedSgdJob.run(spark, 49, 7, req, 4));

        Run r = run("quantized-sgd", "--distributions", "gauss:0:0.12,gauss:0.2:0.12", "--n", "49", "--epsilon", "1", "--trials", "50",
                "--seed", "42", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode row = r.json().get("rows").get(0);
        Row b = bounds.collectAsList().get(0);
        assertEquals(row.get("smoothedDelta").asDouble(), b.getDouble(bounds.schema().fieldIndex("smoothedDelta")), 0);
        assertEquals(row.get("argmaxAssignment").asText(), b.getString(bounds.schema().fieldIndex("argmaxAssignment")));
        assertEquals(7L, b.getLong(bounds.schema().fieldIndex("T")));
    }
}
