package org.privacybounds.jobs.bayes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.testing.PlotAssertions;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;

class BayesAuditCommandTest extends SparkTestSession {
    static JsonNode row(JsonNode rows, String mechanism, int n, double eps) {
        for (JsonNode r : rows) {
            if (r.get("mechanism").asText().equals(mechanism) && r.get("n").asInt() == n && r.get("epsilon").asDouble() == eps) {
                return r;
            }
        }
        throw new AssertionError(mechanism + " " + n + " " + eps);
    }

    @Test
    void jsonContractAndTheAuditsFindings() {
        Run r = run("bayes-audit", "--n", "10,100", "--epsilon", "0.1,1", "--delta", "1e-6", "--statements-up-to", "60", "--search-up-to", "30", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode j = r.json();
        assertEquals("bayes-audit", j.get("command").asText());
        assertEquals(1e-6, j.get("parameters").get("delta").asDouble());
        JsonNode rows = j.get("rows");
        assertEquals(2 * 2 * 3, rows.size());
        for (JsonNode x : rows) {
            for (String f : new String[] {"mechanism", "n", "epsilon", "maxLogRatio", "witness", "worstCaseDelta", "log10WorstCaseDelta",
                "expectedHellinger", "isPureDP"}) {
                assertTrue(x.has(f), f);
            }
            // no mechanism exceeds its eps in this setting: delta at the nominal eps is exactly 0
            assertTrue(x.get("isPureDP").asBoolean(), x.toString());
            assertEquals(0.0, x.get("worstCaseDelta").asDouble());
            JsonNode w = x.get("witness");
            assertEquals(1, Math.abs(w.get("k").asInt() - w.get("kNeighbor").asInt()));
        }
        // realised loss / eps of the local mechanism (0.635 at n = 10, 0.86 at n = 100, recomputed)
        assertEquals(0.635, row(rows, "local", 10, 0.1).get("maxLogRatio").asDouble() / 0.1, 0.001);
        assertEquals(0.86, row(rows, "local", 100, 0.1).get("maxLogRatio").asDouble() / 0.1, 0.005);
        assertTrue(row(rows, "global", 100, 1).get("maxLogRatio").asDouble() <= 1);
        // utility: the local mechanism releases closer posteriors than the global one
        assertTrue(row(rows, "local", 100, 1).get("expectedHellinger").asDouble() < row(rows, "global", 100, 1).get("expectedHellinger").asDouble());
        // at eps/2 the delta is positive and the smoothed delta is below the worst case
        JsonNode half = row(rows, "local", 100, 1).get("atFractions").get(0);
        assertEquals(0.5, half.get("epsilon").asDouble());
        assertTrue(half.get("worstCaseDelta").asDouble() > 0);
        assertTrue(half.get("log10SmoothedDelta").asDouble() < half.get("log10WorstCaseDelta").asDouble());
        JsonNode st = j.get("statements");
        assertTrue(st.get("statementIHoldsFromN2").asBoolean() && st.get("statementIIHolds").asBoolean() && st.get("statementIIIHoldsFromN4").asBoolean());
        assertEquals("[2,3]", st.get("statementIIIFailsAtN").toString());
        for (JsonNode s : j.get("search")) {
            assertTrue(s.get("firstViolationN").isNull());
            assertTrue(s.get("maxRealisedOverNominal").asDouble() < 1);
        }
    }

    @Test
    void resultsDoNotDependOnThePartitioning() {
        String[] base = {"bayes-audit", "--n", "37,200", "--epsilon", "0.5,3", "--loss-fractions", "0.25,0.9", "--json"};
        JsonNode a = run(concat(base, "--partitions", "1")).json().get("rows");
        JsonNode b = run(concat(base, "--partitions", "13")).json().get("rows");
        assertEquals(a, b);
    }

    @Test
    void writesCsvJsonParquetAndPlots(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("audit");
        Run r = run("bayes-audit", "--n", "20:20:60", "--epsilon", "1", "--statements-up-to", "20", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        for (String f : new String[] {"rows.csv", "fractions.csv", "statements.csv", "result.json", "manifest.json", "privacy-loss.png", "utility.png",
            "rows.parquet/_SUCCESS", "_SUCCESS"}) {
            assertTrue(Files.exists(out.resolve(f)), f);
        }
        assertEquals(1 + 3 * 3, Files.readAllLines(out.resolve("rows.csv")).size());
        assertEquals(9, spark.read().parquet(out.resolve("rows.parquet").toString()).count());
        // privacy-loss.png: loss / nominal eps, one reference line at 1; utility.png: a log axis with labelled ticks
        JsonNode loss = PlotAssertions.figure(out.resolve("privacy-loss.png"));
        assertEquals(List.of("global, eps = 1", "local, eps = 1", "smooth, eps = 1", "nominal eps (ratio 1)"), PlotAssertions.names(loss));
        assertEquals(1.0, loss.get("series").get(3).get("points").get(0).get(1).asDouble());
        JsonNode first = Json.MAPPER.readTree(out.resolve("result.json").toFile()).get("rows").get(0);
        assertEquals(first.get("maxLogRatio").asDouble() / first.get("epsilon").asDouble(),
                PlotAssertions.series(loss, first.get("mechanism").asText() + ", eps = 1").get("points").get(0).get(1).asDouble(),
                1e-12);
        JsonNode util = PlotAssertions.figure(out.resolve("utility.png"));
        assertEquals("log10", util.get("y").get("scale").asText());
        assertTrue(util.get("y").get("ticks").size() >= 2);
    }

    @Test
    void badInputIsAClearError() {
        String[][] bad = {{"--n", "0", "--epsilon", "1"}, {"--n", "10", "--epsilon", "0"}, {"--n", "10", "--epsilon", "1", "--delta", "1"},
            {"--n", "10", "--epsilon", "1", "--delta", "0"}, {"--n", "10", "--epsilon", "1", "--smooth-beta", "other"}};
        String[] option = {"--n", "--epsilon", "--delta", "--delta", "--smooth-beta"};
        for (int i = 0; i < bad.length; i++) {
            Run r = run(concat(new String[] {"bayes-audit"}, bad[i]));
            assertEquals(2, r.exitCode(), r.err());
            assertTrue(r.err().startsWith("error: " + option[i] + " = "), r.err());
        }
    }

    static String[] concat(String[] a, String... b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
