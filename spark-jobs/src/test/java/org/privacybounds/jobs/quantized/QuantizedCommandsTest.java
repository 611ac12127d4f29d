package org.privacybounds.jobs.quantized;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.quantized.CodeGrid;
import org.privacybounds.quantized.DatabaseSampler;
import org.privacybounds.quantized.MonteCarloMean;
import org.privacybounds.quantized.OutputRounding;
import org.privacybounds.quantized.QuantizedDistribution;
import org.privacybounds.quantized.SamplingAverageMechanism;
import org.privacybounds.quantized.SmoothedSgd;
import org.privacybounds.testing.PlotAssertions;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

class QuantizedCommandsTest extends SparkTestSession {
    private static final String[] SGD = {"quantized-sgd", "--distributions", "gauss:0:0.12,laplace:0.2:0.12", "--n", "49,64", "--trials", "12",
        "--epsilon", "0.5,2", "--assignments", "grid:2", "--steps", "10", "--seed", "7", "--json"};

    private static String withoutTimes(JsonNode j) {
        for (JsonNode r : j.get("rows")) {
            ((ObjectNode) r).remove("seconds");
        }
        return j.toString();
    }

    private static String[] with(String[] base, String... more) {
        String[] a = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, a, base.length, more.length);
        return a;
    }

    @Test
    void sgdContractValuesAndPartitioning() {
        Run r1 = run(with(SGD, "--partitions", "1"));
        assertEquals(0, r1.exitCode(), r1.err());
        JsonNode j = r1.json();
        assertEquals("quantized-sgd", j.get("command").asText());
        assertEquals("[\"gauss:0:0.12\",\"laplace:0.2:0.12\"]", j.get("parameters").get("distributions").toString());
        JsonNode rows = j.get("rows");
        assertEquals(2 * 2, rows.size());
        // the same digits for 1, 2 and 8 partitions
        String want = withoutTimes(j);
        for (String p : new String[] {"2", "8"}) {
            Run r = run(with(SGD, "--partitions", p));
            assertEquals(0, r.exitCode(), r.err());
            assertEquals(want, withoutTimes(r.json()), "partitions = " + p);
        }
        // recompute one assignment's mean from core-math with the documented per-trial seeds
        QuantizedDistribution[] pi = {QuantizedDistribution.gaussian(0, 0.12, 8), QuantizedDistribution.laplace(0.2, 0.12, 8)};
        SamplingAverageMechanism m = new SamplingAverageMechanism(new CodeGrid(8), 7, OutputRounding.ROUND);
        int[] assignment = {25, 24}; // grid:2 at n = 49: n_1 = 49, 25 (round(24.5)), 0
        double[] vals = new double[12];
        for (int t = 0; t < 12; t++) {
            int[] h = DatabaseSampler.histogram(pi, assignment, DatabaseSampler.trialSeed(7, SmoothedSgd.settingKey(49, assignment), t));
            vals[t] = m.profile(h, new double[] {0.5, 2})[0].delta(); // the eps list of the run: sums are grouped by it
        }
        MonteCarloMean mc = MonteCarloMean.of(vals, 7.0 / 49, 0.99);
        JsonNode row = rows.get(0);
        assertEquals(49, row.get("n").asInt());
        assertEquals(7, row.get("T").asInt());
        assertEquals(0.5, row.get("epsilon").asDouble());
        JsonNode as = row.get("assignments");
        assertEquals(3, as.size());
        assertEquals("25+24", as.get(1).get("assignment").asText());
        assertEquals(mc.mean(), as.get(1).get("mean").asDouble(), 0);
        // the default interval is the one with guaranteed coverage; 12 trials leave it at the range
        assertEquals("empirical-bernstein", row.get("ciMethod").asText());
        assertEquals(mc.bernsteinHigh(), as.get(1).get("ciHigh").asDouble(), 0);
        assertEquals(mc.studentHigh(), as.get(1).get("studentHigh").asDouble(), 0);
        assertEquals(mc.bernsteinHigh(), as.get(1).get("bernsteinHigh").asDouble(), 0);
        double maxHigh = 0;
        for (JsonNode a : as) {
            maxHigh = Math.max(maxHigh, a.get("ciHigh").asDouble());
            assertTrue(a.get("ciLow").asDouble() <= a.get("mean").asDouble() && a.get("mean").asDouble() <= a.get("ciHigh").asDouble());
            assertTrue(a.get("maxDelta").asDouble() <= 7.0 / 49);
            assertTrue(a.get("heuristicMean").asDouble() <= a.get("mean").asDouble());
            assertTrue(a.get("maxRelativeError").asDouble() < 1e-9);
        }
        assertEquals(maxHigh, row.get("smoothedDelta").asDouble(), 0);
        assertEquals(5.0, row.get("composedEpsilon").asDouble(), 1e-12);
        assertEquals(Math.min(1, 10 * maxHigh), row.get("composedDelta").asDouble(), 1e-15);
        assertEquals(7.0 / 49, row.get("dpDelta").asDouble(), 1e-15);
        // with the approximate interval (the paper's bands): delta decreases in eps and is below the DP value
        JsonNode t = run(with(SGD, "--ci", "student-t")).json();
        JsonNode trows = t.get("rows");
        assertEquals("student-t-approximate", trows.get(0).get("ciMethod").asText());
        assertEquals(mc.studentHigh(), trows.get(0).get("assignments").get(1).get("ciHigh").asDouble(), 0);
        assertTrue(trows.get(1).get("smoothedDelta").asDouble() < trows.get(0).get("smoothedDelta").asDouble());
        assertTrue(trows.get(0).get("smoothedDelta").asDouble() < 7.0 / 49);
    }

    @Test
    void sgdWritesItsFilesAndResumes(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        Run r = run("quantized-sgd", "--preset", "fig2-right", "--n", "36,49", "--trials", "4", "--epsilon", "1", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        for (String f : new String[] {"result.json", "summary.csv", "rows.csv", "rows.parquet", "quantized-sgd.png", "manifest.json", "_SUCCESS"}) {
            assertTrue(Files.exists(out.resolve(f)), f);
        }
        assertTrue(r.err().contains("quantized-sgd: 2/2 n = 49 done"), r.err());
        JsonNode fig = PlotAssertions.figure(out.resolve("quantized-sgd.png"));
        // with 4 trials the interval's lower limit is 0, which a log axis cannot show: that line is left out, the others drawn
        assertEquals(List.of("mean delta(x), eps = 1", "upper limit (smoothed bound), eps = 1", "1/n", "DP delta bound T/n"),
                PlotAssertions.names(fig));
        assertEquals(Math.log10(1.0 / 49), PlotAssertions.series(fig, "1/n").get("points").get(1).get(1).asDouble(), 1e-12);
        assertEquals(1 + 2, Files.readAllLines(out.resolve("summary.csv")).size());
        assertEquals(1 + 2 * 2, Files.readAllLines(out.resolve("rows.csv")).size());
        assertTrue(Files.readString(out.resolve("rows.csv")).startsWith("n,T,assignment,epsilon,trials,mean,log10Mean,stdError,ciLow,ciHigh,ciMethod,studentLow,studentHigh,bernsteinLow,bernsteinHigh,maxDelta,heuristicMean,heuristicTightFraction,maxRelativeError\n"));
        assertFalse(Files.exists(tmp.resolve(".run.work")), "the work folder is removed after the commit");
    }

    @Test
    void profileContractAndValues(@TempDir Path tmp) throws Exception {
        String codes = "-3,0,0,1,5,7,7,12,-20,4,4,4,2";
        Run r = run("quantized-profile", "--codes", codes, "--batch-size", "4", "--epsilon", "0.5,1", "--histogram", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode j = r.json();
        assertEquals("quantized-profile", j.get("command").asText());
        assertEquals(13, j.get("n").asInt());
        CodeGrid g = new CodeGrid(8);
        int[] h = g.histogram("--codes", QuantizedProfileCommand.parseCodes(codes));
        SamplingAverageMechanism.Value[] v = new SamplingAverageMechanism(g, 4, OutputRounding.ROUND).profile(h, new double[] {0.5, 1});
        JsonNode res = j.get("results");
        for (int e = 0; e < 2; e++) {
            JsonNode x = res.get(e);
            assertEquals(v[e].delta(), x.get("delta").asDouble(), 0);
            assertEquals(Math.log10(v[e].delta()), x.get("log10Delta").asDouble(), 1e-12);
            assertEquals(v[e].worstFrom(), x.get("worstNeighbor").get("from").asInt());
            assertEquals(v[e].worstTo(), x.get("worstNeighbor").get("to").asInt());
            assertEquals(v[e].heuristicDelta(), x.get("heuristicDelta").asDouble(), 0);
            // the mean is a function of the batch histogram: its delta is at most the histogram's
            assertTrue(x.get("delta").asDouble() <= x.get("histogramDelta").asDouble() * (1 + 1e-9));
        }
        // the same database from a CSV file
        Path csv = tmp.resolve("batch.csv");
        Files.writeString(csv, "code,other\n" + String.join("\n", Arrays.stream(codes.split(",")).map(c -> c + ",x").toList()) + "\n");
        Run f = run("quantized-profile", "--codes-file", csv.toString(), "--codes-column", "code", "--batch-size", "4", "--epsilon", "0.5,1", "--json");
        assertEquals(0, f.exitCode(), f.err());
        assertEquals(res.get(1).get("delta").asDouble(), f.json().get("results").get(1).get("delta").asDouble(), 0);
    }

    @Test
    void badInputIsOneLineNamingTheOption(@TempDir Path tmp) throws Exception {
        String[][] cases = {
            {"--distributions", "gauss:0:0", "sigma"},
            {"--distributions", "gauss:0:-0.1", "sigma"},
            {"--bits", "17", "--bits"},
            {"--bits", "0", "--bits"},
            {"--preset", "fig9", "--preset"},
            {"--batch-size", "50", "--batch-size"},
            {"--assignments", "grid:x", "--assignments"},
            {"--ci", "wald", "--ci"},
        };
        for (String[] c : cases) {
            String[] args = c[0].equals("--preset") || c[0].equals("--distributions")
                    ? new String[] {"quantized-sgd", c[0], c[1], "--n", "49", "--epsilon", "1"}
                    : new String[] {"quantized-sgd", "--preset", "fig2-right", c[0], c[1], "--n", "49", "--epsilon", "1"};
            Run r = run(args);
            assertEquals(2, r.exitCode(), String.join(" ", args) + "\n" + r.err());
            assertTrue(r.err().contains(c[2]) && r.err().trim().lines().count() == 1, r.err());
        }
        Run r = run("quantized-profile", "--codes", "1,2,300", "--epsilon", "1");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--codes") && r.err().contains("300"), r.err());
        Path bad = tmp.resolve("bad.csv");
        Files.writeString(bad, "code\n1\nabc\n");
        r = run("quantized-profile", "--codes-file", bad.toString(), "--epsilon", "1");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--codes-file") && r.err().contains("abc"), r.err());
    }
}
