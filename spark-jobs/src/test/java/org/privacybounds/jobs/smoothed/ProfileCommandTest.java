package org.privacybounds.jobs.smoothed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;

/** profile and utility run on the driver only; the runner is the same as for Spark commands. */
class ProfileCommandTest {
    static SparkTestSession.Run run(String... args) {
        return SparkTestSession.run(args);
    }

    @Test
    void profileJsonFollowsTheContract() {
        SparkTestSession.Run r = run("profile", "--counts", "1000,1000", "--eta", "0.998", "--epsilon", "0.0400053346136992,7", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode j = r.json();
        assertEquals("profile", j.get("command").asText());
        assertEquals("0.998", j.get("parameters").get("eta").asText());
        assertEquals(2000, j.get("n").asInt());
        assertEquals(1996, j.get("T").asInt());
        JsonNode first = j.get("results").get(0);
        assertEquals(0.361877279068545, first.get("delta").asDouble(), 1e-14); // the exact sum in 50-digit arithmetic (mpmath), as in SamplingHistogramMechanismTest
        assertEquals(Math.log10(0.361877279068545), first.get("log10Delta").asDouble(), 1e-13);
        assertEquals(0.998, first.get("dpDelta").asDouble(), 1e-15);
        assertTrue(first.get("remark8Bound").isNull(), "eps below ln(1/(1-eta)): Remark 8 does not apply");
        assertTrue(j.get("results").get(1).get("remark8Bound").asDouble() > 0);
        assertTrue(first.get("relativeErrorBound").asDouble() <= 1e-9);
        JsonNode w = first.get("worstNeighbor");
        assertTrue(w.get("from").asInt() >= 1 && w.get("to").asInt() <= 2);
        assertTrue(w.get("direction").asText().matches("x->x'|x'->x"));
    }

    @Test
    void profileRangesWithReplacementAndThreeCategories() {
        SparkTestSession.Run r = run("profile", "--counts", "600,300,100", "--lost", "5", "--epsilon", "0:0.5:2", "--sampling", "with", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode res = r.json().get("results");
        assertEquals(5, res.size());
        // DP delta with replacement: 1 - (1 - 1/n)^T
        assertEquals(1 - Math.pow(1 - 1.0 / 1000, 995), res.get(0).get("dpDelta").asDouble(), 1e-12);
        for (int i = 1; i < res.size(); i++) {
            assertTrue(res.get(i).get("delta").asDouble() <= res.get(i - 1).get("delta").asDouble());
        }
    }

    @Test
    void algorithm4ReportsRealisedAgainstNominalEpsilon() {
        SparkTestSession.Run r = run("profile", "--counts", "12,8", "--sample-size", "2", "--noise", "exponential", "--noise-epsilon", "10",
                "--epsilon", "1", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode j = r.json();
        assertEquals(1.0, j.get("nominalEpsilon").asDouble(), 1e-15);
        assertEquals(2.693, j.get("dpRealisedEpsilon").asDouble(), 5e-4); // Algorithm 4 is not (eta eps, 0)-DP, as the Smoothed DP paper's Table 1 claims
        assertTrue(j.get("results").get(0).get("realisedEpsilon").asDouble() <= j.get("dpRealisedEpsilon").asDouble() + 1e-12);
    }

    @Test
    void utilityWithLemma10Bounds(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("u");
        SparkTestSession.Run r = run("utility", "--counts", "1000,1000", "--eta", "0.998", "--threshold", "0.51", "--json", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        JsonNode res = r.json().get("results").get(0);
        assertEquals(0.361892478091687, res.get("utility").asDouble(), 1e-14); // Figure 1 setting, 50-digit arithmetic, as in AdjustedUtilityTest
        assertEquals(0.723723915241628, res.get("lemma10Upper").asDouble(), 1e-14);
        assertEquals(0.723723915241628 / 2, res.get("lemma10Lower").asDouble(), 1e-14);
        assertTrue(Files.isRegularFile(out.resolve("_SUCCESS")));
        assertTrue(Files.readString(out.resolve("results.csv")).startsWith("threshold,epsilon,utility"));
    }

    @Test
    void badInputNamesTheParameter() {
        String[][] cases = {
                {"profile", "--counts", "5,-1", "--eta", "0.5", "--epsilon", "1"},
                {"profile", "--counts", "5,1", "--eta", "1.2", "--epsilon", "1"},
                {"profile", "--counts", "5,1", "--sample-size", "7", "--epsilon", "1"},
                {"profile", "--counts", "5,1", "--eta", "0.5", "--epsilon", "-1"},
                {"profile", "--counts", "5,1", "--epsilon", "1"},
                {"profile", "--counts", "5,1", "--eta", "0.5", "--lost", "2", "--epsilon", "1"},
                {"profile", "--counts", "5,1", "--eta", "0.5", "--epsilon", "1", "--sampling", "sometimes"},
                {"utility", "--counts", "5,1", "--eta", "0.5", "--threshold", "1.5"},
        };
        String[] named = {"--counts", "--eta", "--sample-size", "--epsilon", "--eta", "--eta", "--sampling", "--threshold"};
        for (int i = 0; i < cases.length; i++) {
            SparkTestSession.Run r = run(cases[i]);
            assertEquals(2, r.exitCode(), String.join(" ", cases[i]) + "\n" + r.err());
            assertTrue(r.err().startsWith("error: ") && r.err().contains(named[i]), r.err());
        }
    }

    @Test
    void helpShowsOptionsDefaultsAndAnExample() {
        for (String cmd : new String[] {"profile", "utility", "election-history"}) {
            SparkTestSession.Run r = run(cmd, "--help");
            assertEquals(0, r.exitCode());
            assertTrue(r.out().contains("--json") && r.out().contains("Example"), r.out());
        }
        assertTrue(run("election-history", "--help").out().contains("default: 0.51"));
    }
}
