package org.privacybounds.jobs.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.testing.MadeUpSchemeFileSystem;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * --out and input files named by URIs: file:// is local; a scheme with a Hadoop FileSystem (here a made-up one registered like a
 * connector) is written through it with _SUCCESS last and read back for reruns; a scheme without one is exit 2 naming the
 * connector.
 */
class ObjectStoreOutputTest extends SparkTestSession {
    @TempDir
    static Path store;

    @BeforeAll
    static void register() {
        System.setProperty("pbtest.root", store.toString());
        System.setProperty("spark.hadoop.fs.pbtest.impl", MadeUpSchemeFileSystem.class.getName());
        System.setProperty("spark.hadoop.fs.pbtest.impl.disable.cache", "true");
    }

    @AfterAll
    static void unregister() {
        System.clearProperty("spark.hadoop.fs.pbtest.impl");
        System.clearProperty("spark.hadoop.fs.pbtest.impl.disable.cache");
    }

    private static String[] history(String... more) {
        return historyAt("0.51", more);
    }

    private static String[] historyAt(String threshold, String... more) {
        String[] base = {"election-history", "--data", root().resolve("datasets/smoothed_dp_paper_election_history_1900_2020.csv").toString(),
            "--years", "2000:2020", "--lost-fraction", "0.002", "--threshold", threshold};
        String[] all = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void writesThroughTheFileSystemOfTheScheme() throws Exception {
        Run r = run(history("--out", "pbtest://bucket/pb/p1", "--json"));
        assertEquals(0, r.exitCode(), r.err());
        Path written = store.resolve("bucket/pb/p1");
        for (String f : List.of("_SUCCESS", "manifest.json", "result.json", "rows.csv", "election-history.png", "rows.parquet")) {
            assertTrue(Files.exists(written.resolve(f)), f + " in " + written);
        }
        assertFalse(Files.exists(Path.of("pbtest:")), "nothing written to a local folder named after the scheme");
        try (Stream<Path> s = Files.list(store.resolve("bucket/pb"))) {
            assertEquals(List.of("p1"), s.map(p -> p.getFileName().toString()).toList(), "no temporary folder left beside the result");
        }
        JsonNode stored = Json.MAPPER.readTree(written.resolve("result.json").toFile());
        assertEquals(r.json().get("rows"), stored.get("rows"));
        assertTrue(r.err().contains("wrote pbtest://bucket/pb/p1"), r.err());

        // a rerun with the same parameters and inputs reads the remote manifest and is a no-op; other parameters are refused
        Run again = run(history("--out", "pbtest://bucket/pb/p1", "--json"));
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(again.err().contains("already holds the finished result"), again.err());
        assertEquals(r.json().get("rows"), again.json().get("rows"));
        Run other = run(historyAt("0.6", "--out", "pbtest://bucket/pb/p1"));
        assertEquals(2, other.exitCode(), other.err());
        assertTrue(other.err().contains("other parameters"), other.err());
        Run replaced = run(historyAt("0.6", "--out", "pbtest://bucket/pb/p1", "--overwrite", "--json"));
        assertEquals(0, replaced.exitCode(), replaced.err());
        assertEquals(0.6, Json.MAPPER.readTree(written.resolve("manifest.json").toFile()).get("parameters").get("threshold")
                .asDouble());
    }

    @Test
    void refusesToReplaceAFolderItDidNotWrite() throws Exception {
        Files.createDirectories(store.resolve("bucket/mine"));
        Files.writeString(store.resolve("bucket/mine/notes.txt"), "keep me");
        Run r = run(history("--out", "pbtest://bucket/mine", "--overwrite"));
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("not written by privacy-bounds"), r.err());
        assertEquals("keep me", Files.readString(store.resolve("bucket/mine/notes.txt")));
    }

    @Test
    void readsInputsThroughTheFileSystemOfTheScheme() throws Exception {
        Path bucket = Files.createDirectories(store.resolve("inputs"));
        Files.copy(root().resolve("datasets/president_2020_biden_trump_57_jurisdictions_538.csv"), bucket.resolve("p2020.csv"));
        Run local = run("smoothed", "--n", "300", "--eta", "0.9", "--epsilon", "1", "--distributions-from-votes",
                root().resolve("datasets/president_2020_biden_trump_57_jurisdictions_538.csv").toString(), "--json");
        Run remote = run("smoothed", "--n", "300", "--eta", "0.9", "--epsilon", "1", "--distributions-from-votes", "pbtest://inputs/p2020.csv", "--json");
        assertEquals(0, remote.exitCode(), remote.err());
        assertEquals(local.json().get("results"), remote.json().get("results"));
        // an option of type Path (converted for every command) reads the same way
        Files.copy(root().resolve("datasets/uci_student_mat.csv"), bucket.resolve("student.csv"));
        String[] pf = {"pufferfish-sensitivity", "--value-column", "G3", "--secret-column", "paid", "--scale", "8", "--json", "--data"};
        Run pfLocal = run(concat(pf, root().resolve("datasets/uci_student_mat.csv").toString()));
        Run pfRemote = run(concat(pf, "pbtest://inputs/student.csv"));
        assertEquals(0, pfRemote.exitCode(), pfRemote.err());
        assertEquals(pfLocal.json().get("sensitivities"), pfRemote.json().get("sensitivities"));
        Run pfMissing = run(concat(pf, "pbtest://inputs/nope.csv"));
        assertEquals(2, pfMissing.exitCode());
        assertTrue(pfMissing.err().contains("--data") && pfMissing.err().contains("no such file"), pfMissing.err());
        Run missing = run("smoothed", "--n", "300", "--eta", "0.9", "--epsilon", "1", "--distributions-from-votes", "pbtest://inputs/none.csv");
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("--distributions-from-votes") && missing.err().contains("no such file"), missing.err());
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void aSchemeWithoutAConnectorIsExitTwoNamingIt() {
        Run r = run(history("--out", "s3a://bucket/pb/p1"));
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("--out") && r.err().contains("s3a") && r.err().contains("hadoop-aws"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(Files.exists(Path.of("s3a:")), "no local folder named s3a:");
        Run gs = run(history("--out", "gs://bucket/x"));
        assertEquals(2, gs.exitCode());
        assertTrue(gs.err().contains("gcs-connector"), gs.err());
    }

    @Test
    void fileUrisAreLocalPaths(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("with space");
        Run r = run(history("--out", out.toUri().toString()));
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        Run in = run("smoothed", "--n", "300", "--eta", "0.9", "--epsilon", "1", "--distributions-from-votes",
                root().resolve("datasets/president_2020_biden_trump_57_jurisdictions_538.csv").toUri().toString(), "--json");
        assertEquals(0, in.exitCode(), in.err());
    }
}
