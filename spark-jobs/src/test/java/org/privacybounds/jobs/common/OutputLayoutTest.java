package org.privacybounds.jobs.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.testing.SparkTestSession;
import org.privacybounds.testing.SparkTestSession.Run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The output layout of scheduled runs: manifest.json, _SUCCESS last, no-op reruns, dry runs. */
class OutputLayoutTest {
    static final String[] PROFILE = {"profile", "--counts", "1000,1000", "--eta", "0.998", "--epsilon", "0.04,1"};

    static String[] with(String[] base, String... more) {
        return Stream.concat(Stream.of(base), Stream.of(more)).toArray(String[]::new);
    }

    @Test
    void manifestRecordsTheRun(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("p");
        Run r = SparkTestSession.run(with(PROFILE, "--out", out.toString()));
        assertEquals(0, r.exitCode(), r.err());
        JsonNode m = new ObjectMapper().readTree(out.resolve("manifest.json").toFile());
        assertEquals("profile", m.get("command").asText());
        assertEquals("1000,1000", m.get("parameters").get("counts").asText());
        assertEquals("0.04,1", m.get("parameters").get("epsilon").asText());
        assertEquals("ceil", m.get("parameters").get("rounding").asText()); // defaults are parameters too
        assertFalse(m.get("parameters").has("out"), "where a run writes is not a parameter");
        assertEquals(out.toString(), m.get("execution").get("out").asText());
        assertEquals(System.getProperty("privacybounds.sparkVersion"), m.get("sparkVersion").asText());
        assertTrue(m.get("gitCommit").asText().matches("[0-9a-f]{40}|unknown"), m.get("gitCommit").asText());
        assertEquals(2, m.get("rowCounts").get("results.csv").asInt());
        assertTrue(m.get("stageSeconds").has("compute") && m.get("stageSeconds").has("write"));
        assertTrue(m.get("endTime").asText().compareTo(m.get("startTime").asText()) >= 0);
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(1, s.count(), "no temporary folder is left beside the output");
        }
    }

    @Test
    void rerunIntoAFinishedFolderIsANoOpUnlessOverwrite(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("p");
        assertEquals(0, SparkTestSession.run(with(PROFILE, "--out", out.toString())).exitCode());
        String manifest = Files.readString(out.resolve("manifest.json"));
        // same parameters (written differently: option order; --json): no-op, the stored result on stdout
        Run again = SparkTestSession.run("profile", "--epsilon", "0.04,1", "--eta", "0.998", "--counts", "1000,1000", "--out", out.toString(), "--json");
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(again.err().contains("nothing to do"), again.err());
        assertEquals(0.36187901313187326, again.json().get("results").get(0).get("delta").asDouble(), 1e-15);
        assertEquals(manifest, Files.readString(out.resolve("manifest.json")), "a no-op rerun leaves the folder untouched");
        // other parameters: an error naming --out, exit 2, folder untouched
        Run other = SparkTestSession.run(with(PROFILE, "--out", out.toString(), "--sampling", "with"));
        assertEquals(2, other.exitCode());
        assertTrue(other.err().startsWith("error: --out = "), other.err());
        assertTrue(other.err().contains("other parameters"), other.err());
        assertEquals(manifest, Files.readString(out.resolve("manifest.json")));
        // --overwrite recomputes
        Run over = SparkTestSession.run(with(PROFILE, "--out", out.toString(), "--sampling", "with", "--overwrite"));
        assertEquals(0, over.exitCode(), over.err());
        assertEquals("with", new ObjectMapper().readTree(out.resolve("manifest.json").toFile()).get("parameters").get("sampling").asText());
    }

    @Test
    void aFolderThatIsNotAFinishedRunIsRefused(@TempDir Path tmp) throws Exception {
        Path out = Files.createDirectories(tmp.resolve("p"));
        Files.writeString(out.resolve("mine.txt"), "user data");
        Run r = SparkTestSession.run(with(PROFILE, "--out", out.toString()));
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("was not written by privacy-bounds"), r.err());
        assertEquals("user data", Files.readString(out.resolve("mine.txt")));
    }

    @Test
    void aKilledRunsTemporaryFolderIsRemovedByTheNextRun(@TempDir Path tmp) throws Exception {
        Path stale = Files.createDirectories(tmp.resolve(".p.tmp-0000"));
        Files.writeString(stale.resolve("results.csv"), "half");
        assertEquals(0, SparkTestSession.run(with(PROFILE, "--out", tmp.resolve("p").toString())).exitCode());
        assertFalse(Files.exists(stale));
    }

    @Test
    void dryRunChecksEverythingAndWritesNothing(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("p");
        Run r = SparkTestSession.run(with(PROFILE, "--out", out.toString(), "--dry-run", "--json"));
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.json().get("dryRun").asBoolean());
        assertEquals("1000,1000", r.json().get("parameters").get("counts").asText());
        assertFalse(Files.exists(out));
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(0, s.count());
        }
        // the dry run validates values, not only syntax
        Run bad = SparkTestSession.run("profile", "--counts", "5,-1", "--eta", "0.5", "--epsilon", "1", "--dry-run");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().startsWith("error: --counts"), bad.err());
        Run missing = SparkTestSession.run("smoothed-sweep", "--n", "100", "--eta", "0.998", "--epsilon", "1", "--distributions-from-votes",
                tmp.resolve("none.csv").toString(), "--dry-run");
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().startsWith("error: --distributions-from-votes"), missing.err());
        // a finished folder: the dry run says the run would be a no-op
        assertEquals(0, SparkTestSession.run(with(PROFILE, "--out", out.toString())).exitCode());
        Run noop = SparkTestSession.run(with(PROFILE, "--out", out.toString(), "--dry-run"));
        assertEquals(0, noop.exitCode());
        assertTrue(noop.err().contains("would be a no-op"), noop.err());
    }
}
