package org.privacybounds.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.bayes.BayesAudit;
import org.privacybounds.bayes.ChainAudit;
import org.privacybounds.bayes.Mechanism;
import org.privacybounds.bayes.PosteriorFamily;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.ensemble.DarrmSetting;
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
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;

/** The README's "Use as a library" lines per subject, as written there, against the commands that print the same numbers. */
class ReadmeApiTest extends SparkTestSession {
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
                0.99, MonteCarloMean.BERNSTEIN, 1, 42L);
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
