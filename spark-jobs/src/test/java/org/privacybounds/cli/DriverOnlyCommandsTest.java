package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.bayes.BayesAudit;
import org.privacybounds.bayes.ChainAudit;
import org.privacybounds.bayes.Mechanism;
import org.privacybounds.bayes.PosteriorFamily;
import org.privacybounds.jobs.quantized.QuantizedSgdJob;
import org.privacybounds.jobs.smoothed.SmoothedRunner;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.quantized.CodeGrid;
import org.privacybounds.quantized.MonteCarloMean;
import org.privacybounds.quantized.OutputRounding;
import org.privacybounds.quantized.QuantizedDistribution;
import org.privacybounds.quantized.SamplingAverageMechanism;
import org.privacybounds.quantized.SmoothedSgd;
import org.privacybounds.smoothed.ElectionPrivacy;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.UtilityForm;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.SmoothedValue;
import org.privacybounds.testing.SparkLine;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Commands whose work fits the driver start no Spark on a local master (no session here: this class has no fixture), and
 * still write every output, Parquet included. Only driver-capable commands run here, so no session is left behind.
 */
class DriverOnlyCommandsTest {
    @Test
    void driverSizedCommandsRunWithoutSpark(@TempDir Path tmp) throws Exception {
        assertFalse(SparkSession.getDefaultSession().isDefined() || SparkSession.getActiveSession().isDefined(), "no session before the test");
        SparkTestSession.Run r = SparkTestSession.run("smoothed", "--n", "3000", "--lost", "3", "--epsilon", "0.5,2", "--distributions",
                "0.944667,0.055333;0.533392,0.466608", "--master", "local[2]", "--json", "--out", tmp.resolve("s").toString());
        assertEquals(0, r.exitCode(), r.err());
        assertFalse(SparkSession.getDefaultSession().isDefined(), "smoothed started Spark");
        DistributionSet hull = DistributionSet.of(List.of(new double[] {0.944667, 0.055333}, new double[] {0.533392, 0.466608}),
                List.of("a", "b"), "Pi");
        List<SmoothedValue> want = SmoothedRunner.runLocal(3000, 2997, hull, new double[] {0.5, 2}, 1, msg -> { });
        JsonNode results = r.json().get("results");
        for (int e = 0; e < 2; e++) {
            assertEquals(want.get(e).log10Delta(), results.get(e).get("log10Delta").asDouble(), 0);
        }
        JsonNode manifest = new ObjectMapper().readTree(Files.readString(tmp.resolve("s/manifest.json")));
        assertFalse(manifest.has("sparkApplicationId") && !manifest.get("sparkApplicationId").isNull(), manifest.toString());
        assertTrue(manifest.get("stageSeconds").has("setup"));
        assertTrue(Files.exists(tmp.resolve("s/results.parquet/_SUCCESS")));
        assertTrue(Files.readString(tmp.resolve("s/results.csv")).startsWith("n,T,epsilon,delta,log10Delta,argmaxAssignment,"));

        SparkTestSession.Run p = SparkTestSession.run("pabi", "--steps", "1:1:20", "--correlation", "inv", "--strategy", "average,minorant",
                "--master", "local[1]", "--json", "--out", tmp.resolve("p").toString());
        assertEquals(0, p.exitCode(), p.err());
        assertTrue(p.err().contains("1 driver threads"), p.err());
        assertFalse(SparkSession.getDefaultSession().isDefined(), "pabi started Spark");
        assertTrue(Files.exists(tmp.resolve("p/rows.parquet/_SUCCESS")));
        assertEquals(2 * 20, p.json().get("rows").size());

        // bayes-audit: the rows are core-math's BayesAudit rows
        SparkTestSession.Run b = SparkTestSession.run("bayes-audit", "--n", "20", "--epsilon", "1", "--json", "--out", tmp.resolve("b").toString());
        assertEquals(0, b.exitCode(), b.err());
        assertFalse(SparkSession.getDefaultSession().isDefined(), "bayes-audit started Spark");
        BayesAudit.Setup setup = new BayesAudit.Setup(new double[] {1}, 1e-6, Mechanism.SmoothBeta.STATEMENT, new double[] {0.5});
        PosteriorFamily family = new PosteriorFamily(20);
        List<BayesAudit.Row> audit = BayesAudit.rows(20, ChainAudit.run(family, setup.configs(family), 0, 21), setup, 0.3, 0.7);
        for (int i = 0; i < 3; i++) {
            assertEquals(audit.get(i).maxLogRatio(), b.json().get("rows").get(i).get("maxLogRatio").asDouble(), 0);
        }
        assertTrue(Files.exists(tmp.resolve("b/rows.parquet/_SUCCESS")));

        // quantized-sgd: the bounds are QuantizedSgdJob's on the driver, for any number of threads
        SparkTestSession.Run q = SparkTestSession.run("quantized-sgd", "--distributions", "gauss:0:0.12,gauss:0.2:0.12", "--n", "49", "--epsilon", "1",
                "--trials", "20", "--seed", "42", "--master", "local[2]", "--json");
        assertEquals(0, q.exitCode(), q.err());
        assertFalse(SparkSession.getDefaultSession().isDefined(), "quantized-sgd started Spark");
        QuantizedSgdJob.Request req = new QuantizedSgdJob.Request(new QuantizedDistribution[] {QuantizedDistribution.gaussian(0, 0.12, 8),
            QuantizedDistribution.gaussian(0.2, 0.12, 8)}, new CodeGrid(8), OutputRounding.ROUND, SamplingAverageMechanism.Neighbors.ALL,
                new double[] {1}, 20, new SmoothedSgd.Endpoints(), 0.99, MonteCarloMean.Interval.BERNSTEIN, 1, 42L);
        SmoothedSgd.StepBound one = QuantizedSgdJob.runLocal(49, 7, req, 1).get(0);
        assertEquals(one.smoothedDelta(), q.json().get("rows").get(0).get("smoothedDelta").asDouble(), 0);
        assertEquals(one.argmaxAssignment(), q.json().get("rows").get(0).get("argmaxAssignment").asText());

        // election-history (the README's first command) reads its file on the driver; a short row is an error before any work
        Path data = SparkTestSession.root().resolve("datasets/smoothed_dp_paper_election_history_1900_2020.csv");
        SparkTestSession.Run h = SparkTestSession.run("election-history", "--data", data.toString(), "--years", "2016:2020", "--json");
        assertEquals(0, h.exitCode(), h.err());
        assertFalse(SparkSession.getDefaultSession().isDefined(), "election-history started Spark");
        JsonNode y2020 = h.json().get("rows").get(1);
        assertEquals(2020, y2020.get("year").asInt());
        long a = 0;
        long bVotes = 0;
        for (String line : Files.readAllLines(data)) {
            if (line.startsWith("2020,")) {
                a = Long.parseLong(line.split(",")[1]);
                bVotes = Long.parseLong(line.split(",")[2]);
            }
        }
        ElectionPrivacy.Result want2020 = ElectionPrivacy.compute(a, bVotes, new BigDecimal("0.002"), 0.51, Sampling.WITHOUT_REPLACEMENT,
                UtilityForm.FIGURE1);
        assertEquals(LogMath.toLog10(want2020.logDelta()), y2020.get("log10Delta").asDouble(), 0);
        Path bad = tmp.resolve("bad.csv");
        Files.writeString(bad, "year,votes_a,votes_b\n2016,10,20\n2020,30\n");
        SparkTestSession.Run e = SparkTestSession.run("election-history", "--data", bad.toString());
        assertEquals(2, e.exitCode(), e.err());
        assertTrue(e.err().contains("row 3 has 2 fields"), e.err());
    }

    /**
     * Precinct returns are read on Spark; where the command started Spark on a local master for them, the certified bounds then
     * run on the driver's threads: the run starts no Spark job beyond those of reading the returns (as many as its dry run's),
     * and its values are those of the same hull given as --distributions (no Spark at all). Each session a run started is stopped.
     */
    @Test
    void precinctBoundsOnALocalMasterRunOnTheDriversThreads(@TempDir Path tmp) throws Exception {
        SparkLine.checkedOnSpark35Only("the choice of where the bounds run, the same code on both lines");
        assertFalse(SparkSession.getDefaultSession().isDefined() || SparkSession.getActiveSession().isDefined(), "no session before the test");
        Path dir = Files.createDirectories(tmp.resolve("pa"));
        for (String c : new String[] {"forest", "sullivan", "fulton"}) {
            String f = "20201103__pa__general__" + c + "__precinct.csv";
            Files.copy(SparkTestSession.root().resolve("datasets/pa_2020_general_precincts").resolve(f), dir.resolve(f));
        }
        String[] common = {"--n", "20000", "--eta", "0.998", "--epsilon", "1", "--refine-seconds", "1", "--master", "local[2]", "--json"};
        String[] precincts = Stream.concat(Stream.of("smoothed", "--distributions-from-precincts", dir.toString(), "--precinct-points", "county",
                "--candidates", "Joseph R. Biden,Donald J. Trump", "--exclude", "Under Votes,Over Votes"), Arrays.stream(common)).toArray(String[]::new);
        SparkTestSession.Run r;
        int jobs;
        try {
            r = SparkTestSession.run(precincts);
            assertEquals(0, r.exitCode(), r.err());
            assertTrue(r.err().contains("reporting certified bounds instead"), r.err());
            jobs = jobsAndStop();
            SparkTestSession.Run dry = SparkTestSession.run(Stream.concat(Arrays.stream(precincts), Stream.of("--dry-run")).toArray(String[]::new));
            assertEquals(0, dry.exitCode(), dry.err());
            assertEquals(jobsAndStop(), jobs, "Spark jobs of the run and of reading its returns alone");
        } finally {
            // no session left behind for the classes after this one, whatever failed
            if (SparkSession.getDefaultSession().isDefined()) {
                jobsAndStop();
            }
        }
        List<String> vertices = new ArrayList<>();
        r.json().get("hull").get("vertices").forEach(v -> {
            List<String> shares = new ArrayList<>();
            v.forEach(x -> shares.add(Double.toString(x.asDouble())));
            vertices.add(String.join(",", shares));
        });
        SparkTestSession.Run given = SparkTestSession.run(Stream.concat(Stream.of("smoothed", "--distributions", String.join(";", vertices)),
                Arrays.stream(common)).toArray(String[]::new));
        assertEquals(0, given.exitCode(), given.err());
        assertFalse(SparkSession.getDefaultSession().isDefined(), "smoothed with --distributions started Spark");
        for (String field : new String[] {"log10Delta", "log10LowerDelta", "log10Gap", "argmaxAssignment"}) {
            assertEquals(given.json().get("results").get(0).get(field), r.json().get("results").get(0).get(field), field);
        }
    }

    /** The Spark jobs the default session has run, after which it is stopped. */
    private static int jobsAndStop() {
        SparkSession s = SparkSession.getDefaultSession().get();
        int jobs = s.sparkContext().statusTracker().getJobIdsForGroup(null).length;
        s.stop();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
        return jobs;
    }

    /** n past 2^31 - 1 is refused in one line that names the limit, by both commands, before any work. */
    @Test
    void nPastTheLimitIsRefusedWithItsLimit(@TempDir Path tmp) throws Exception {
        String[][] runs = {{"smoothed", "--n", "10000000001"}, {"smoothed-sweep", "--n", "1000,30000000000"}};
        for (String[] head : runs) {
            String[] args = Stream.concat(Arrays.stream(head), Stream.of("--eta", "0.998", "--epsilon", "1",
                    "--distributions", "0.944667,0.055333;0.533392,0.466608", "--out", tmp.resolve(head[0]).toString())).toArray(String[]::new);
            SparkTestSession.Run r = SparkTestSession.run(args);
            assertEquals(2, r.exitCode(), r.err());
            assertTrue(r.err().contains("--n") && r.err().contains("[1, 10000000000]"), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertFalse(Files.exists(tmp.resolve(head[0])), "nothing written");
        }
    }

    @Test
    void nPastTheIntRangeRunsWithLongCounts(@TempDir Path tmp) throws Exception {
        // 3e9 records (past 2^31 - 1): the large-n method with long counts and Loader's log-pmfs past Commons Statistics' range
        SparkLine.checkedOnSpark35Only("core-math's long counts");
        SparkTestSession.Run r = SparkTestSession.run("smoothed", "--n", "3000000000", "--eta", "0.998", "--epsilon", "7", "--distributions",
                "0.944667,0.055333;0.533392,0.466608", "--out", tmp.resolve("s").toString(), "--json");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(3_000_000_000L, r.json().get("n").asLong());
        assertEquals(2_994_000_000L, r.json().get("T").asLong());
        // the value measured when long counts came in (a regression pin: the pieces are checked against 50-digit sums in
        // core-math; eps = 0.5 gave 10^-12688.38172 there). At eps = 7 ln delta spans thousands of nats over a window: the
        // scan's tilted sums (one scale flushed every term that matters to zero, and the run did not end)
        JsonNode v7 = r.json().get("results").get(0);
        assertEquals("[3000000000,0]", v7.get("argmaxAssignment").toString());
        assertEquals(-147222.84036, v7.get("log10Delta").asDouble(), 1e-4);
        assertTrue(v7.get("relativeErrorBound").asDouble() < 1e-8);
    }
}
