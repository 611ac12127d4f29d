package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.jobs.common.CommonOptions;
import org.privacybounds.jobs.common.InputFiles;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * The CLI under bad input, faults and changed inputs: exit 2 and one line for bad input, nothing of the user's
 * lost, inputs read literally and identified by content, one run per output folder, and work refused up front when it
 * would not finish.
 */
class BadInputAndFaultsTest extends SparkTestSession {
    private static final String[] PROFILE = {"profile", "--counts", "12,8", "--sample-size", "2", "--epsilon", "1"};

    private static String[] with(String[] base, String... more) {
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    /** exit 2, one line on stderr that contains {@code expected}, no stack trace. */
    private static void refused(Run r, String expected) {
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + r.err());
        assertEquals(1, r.err().strip().lines().filter(l -> l.startsWith("error:")).count(), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void overwriteReplacesOnlyFoldersThisToolWrote(@TempDir Path tmp) throws Exception {
        refused(run(with(PROFILE, "--out", ".", "--overwrite")), "must not be the current folder");
        refused(run(with(PROFILE, "--out", "", "--overwrite")), "must name a folder");
        Path cwdParent = Path.of("").toAbsolutePath().getParent();
        refused(run(with(PROFILE, "--out", cwdParent.toString(), "--overwrite")), "must not be the current folder or one of its parents");
        Path user = Files.createDirectories(tmp.resolve("user"));
        Files.writeString(user.resolve("thesis.tex"), "years of work");
        refused(run(with(PROFILE, "--out", user.toString(), "--overwrite")), "was not written by privacy-bounds");
        assertEquals("years of work", Files.readString(user.resolve("thesis.tex")));
        Path file = Files.writeString(tmp.resolve("notes.txt"), "notes");
        refused(run(with(PROFILE, "--out", file.toString(), "--overwrite")), "is a file");
        assertEquals("notes", Files.readString(file));
        // a folder we wrote is replaced; an empty folder is used
        Path ours = tmp.resolve("ours");
        assertEquals(0, run(with(PROFILE, "--out", ours.toString())).exitCode());
        assertEquals(0, run(with(PROFILE, "--out", ours.toString(), "--overwrite")).exitCode());
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertEquals(0, run(with(PROFILE, "--out", empty.toString())).exitCode());
        assertTrue(Files.exists(empty.resolve("manifest.json")));
    }

    @Test
    void inputPathsAreReadLiterally(@TempDir Path tmp) throws Exception {
        // Hadoop would read 'weird[1].csv' as the glob weird1.csv, and 'other*.csv' as every file starting with other
        Files.writeString(tmp.resolve("weird[1].csv"), "s,x\nA,0\nA,1\nB,1\nB,2\n");
        Files.writeString(tmp.resolve("weird1.csv"), "s,x\nA,0\nA,0\nB,5\nB,5\n");
        Files.writeString(tmp.resolve("other*.csv"), "s,x\nA,0\nA,0\nB,5\nB,5\n");
        Files.writeString(tmp.resolve("otherA.csv"), "s,x\nA,0\nA,1\nB,1\nB,2\n");
        Files.writeString(tmp.resolve("a:b.csv"), "s,x\nA,0\nA,1\nB,1\nB,3\n");
        String[][] cases = {{"weird[1].csv", "1.0"}, {"other*.csv", "5.0"}, {"a:b.csv", "2.0"}};
        for (String[] c : cases) {
            Run r = run("pufferfish-sensitivity", "--data", tmp.resolve(c[0]).toString(), "--value-column", "x", "--secret-column", "s", "--scale", "1",
                    "--noise", "laplace", "--json");
            assertEquals(0, r.exitCode(), c[0] + ": " + r.err());
            assertEquals(4, r.json().get("rows").asInt(), c[0]);
            assertEquals(Double.parseDouble(c[1]), r.json().get("sensitivities").get("wInf").asDouble(), c[0]);
        }
        refused(run("pufferfish-sensitivity", "--data", tmp.resolve("missing.csv").toString(), "--value-column", "x", "--secret-column", "s"),
                "no such file");
        refused(run("pufferfish-sensitivity", "--data", tmp.toString(), "--value-column", "x", "--secret-column", "s"), "is a folder");
    }

    @Test
    void resultsFollowTheirInputs(@TempDir Path tmp) throws Exception {
        Path data = tmp.resolve("laws.csv");
        Files.writeString(data, "s,x\nA,0\nA,1\nB,1\nB,2\n");
        String[] args = {"pufferfish-sensitivity", "--data", data.toString(), "--value-column", "x", "--secret-column", "s", "--scale", "1", "--noise",
                "laplace", "--out", tmp.resolve("o").toString()};
        assertEquals(0, run(args).exitCode());
        String manifest = Files.readString(tmp.resolve("o/manifest.json"));
        assertTrue(manifest.contains(InputFiles.sha256(data)), manifest);
        // the same input: a no-op; an edited input: refused without --overwrite, recomputed with it
        Run again = run(args);
        assertEquals(0, again.exitCode());
        assertTrue(again.err().contains("nothing to do"), again.err());
        Files.writeString(data, "s,x\nA,0\nA,1\nB,1\nB,9\n");
        refused(run(args), "input files have changed");
        assertEquals(0, run(with(args, "--overwrite")).exitCode());
        assertTrue(Files.readString(tmp.resolve("o/manifest.json")).contains(InputFiles.sha256(data)));
    }

    @Test
    void oneRunPerOutputFolder(@TempDir Path tmp) throws Exception {
        Path target = tmp.resolve("busy");
        // another run holds the folder's lock (here: this process, as a concurrent run would)
        try (OutputDir held = openFor(target)) {
            refused(run(with(PROFILE, "--out", target.toString())), "is in use by another run (process ");
            assertFalse(Files.exists(target), "nothing written");
        }
        assertEquals(0, run(with(PROFILE, "--out", target.toString())).exitCode(), "the lock is released with its run");
    }

    private static OutputDir openFor(Path target) {
        // a profile run that has started but not finished
        picocli.CommandLine cl = new picocli.CommandLine(new Main());
        cl.parseArgs(with(PROFILE, "--out", target.toString()));
        picocli.CommandLine sub = cl.getSubcommands().get("profile");
        CommonOptions common = (CommonOptions) sub.getCommandSpec().mixins().get("common")
                .userObject();
        return OutputDir.begin(sub.getCommandSpec(), common);
    }

    @Test
    void aDamagedStageIsRecomputed(@TempDir Path tmp) throws Exception {
        Path work = Files.createDirectories(tmp.resolve(".o.work"));
        Files.writeString(work.resolve("parameters.json"), "{\"parameters\":{},\"inputs\":{}}");
        ArrayNode rows = Json.array();
        rows.addObject().put("n", 3);
        OutputDir.keepStage(work, "n=3", rows);
        StringWriter sw = new StringWriter();
        PrintWriter err = new PrintWriter(sw, true);
        assertEquals(rows, OutputDir.finishedStage(work, "n=3", err));
        // a kill while the file was copied elsewhere, a full disk: half a file
        String whole = Files.readString(work.resolve("n=3.json"));
        Files.writeString(work.resolve("n=3.json"), whole.substring(0, whole.length() / 2));
        assertNull(OutputDir.finishedStage(work, "n=3", err));
        assertTrue(sw.toString().contains("discarding damaged stage file n=3.json"), sw.toString());
        assertFalse(Files.exists(work.resolve("n=3.json")));
        // a stage of another run's parameters is not reused
        OutputDir.keepStage(work, "n=3", rows);
        Files.writeString(work.resolve("parameters.json"), "{\"parameters\":{\"n\":4},\"inputs\":{}}");
        assertNull(OutputDir.finishedStage(work, "n=3", err));
    }

    @Test
    void badFilesAreOneLine(@TempDir Path tmp) throws Exception {
        Path bin = tmp.resolve("bin.csv");
        Files.write(bin, new byte[] {0, 1, 2, 'b', 'i', 'n'});
        Path latin = tmp.resolve("latin.csv");
        Files.write(latin, "year,votes_a,votes_b\n2000,10,20\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        Path ragged = Files.writeString(tmp.resolve("ragged.csv"), "year,votes_a,votes_b\n2000,10,20\n2004,5\n");
        Path dupYear = Files.writeString(tmp.resolve("dup-year.csv"), "year,votes_a,votes_b\n2000,10,20\n2000,5,7\n");
        Path dupCol = Files.writeString(tmp.resolve("dup-col.csv"), "year,votes_a,votes_a\n2000,10,20\n");
        Path longLine = Files.writeString(tmp.resolve("long.csv"), "year,votes_a,votes_b\n2000,10,20" + "x".repeat(2 << 20) + "\n");
        Path control = Files.writeString(tmp.resolve("ctl.csv"), "year,votes_a,votes_b\n2000,1\u001b[31m0,20\n");
        String[][] cases = {{bin.toString(), "is binary"}, {latin.toString(), "is not UTF-8 text"}, {ragged.toString(), "row 3 has 2 fields but the header has 3"},
            {dupYear.toString(), "year 2000 appears in more than one row"}, {dupCol.toString(), "names column 'votes_a' twice"},
            {longLine.toString(), "longer than 1 MB"}, {control.toString(), "\\u001b[31m"}};
        for (String[] c : cases) {
            Run r = run("election-history", "--data", c[0], "--votes-columns", "votes_a,votes_b", "--year-column", "year", "--years", "1900:2100");
            refused(r, c[1]);
            assertTrue(r.err().length() < 600, "one short line: " + r.err().length());
        }
        refused(run("election-history", "--votes-columns", "votes_a,votes_a"), "two different columns");
        refused(run("smoothed", "--n", "20", "--lost", "1", "--epsilon", "1", "--distributions", "0.5,0.5", "--partitions", "-1"), "--partitions = -1");
        refused(run("smoothed", "--n", "20", "--lost", "1", "--epsilon", "1", "--distributions", "0.5,0.5", "--partitions", "2147483647"),
                "must be in [0, 100000]");
        refused(run("smoothed", "--n", "20", "--lost", "1", "--epsilon", "1", "--distributions", "0.5,0.5;;0.2,0.8"),
                "--distributions = 0.5,0.5;;0.2,0.8: has an empty distribution (number 2)");
        refused(run(with(PROFILE, "--master", "spark//oops")), "--master = spark//oops");
        refused(run("profile", "--counts", "12,8", "--sample-size", "2", "--epsilon", "1e999999999"), "|exponent| <= 1000");
        refused(run("profile", "--counts", "12,8", "--sample-size", "2", "--epsilon", "0:1e-999999999:1"), "|exponent| <= 1000");
        refused(run("bayes-audit", "--n", "10", "--epsilon", "1e308"), "--epsilon = 1.0E308");
        refused(run("pabi", "--figure", "5", "--alpha", "3"), "fixes --alpha");
        // a file given where a small CSV is expected
        Path dist = Files.writeString(tmp.resolve("dist.csv"), "p,q\n0.3,0.7\n0.5\n");
        refused(run("smoothed", "--n", "20", "--lost", "1", "--epsilon", "1", "--distributions-file", dist.toString()), "row 3 has 1 fields");
    }

    @Test
    void dryRunChecksTheDataFiles(@TempDir Path tmp) throws Exception {
        Path ragged = Files.writeString(tmp.resolve("ragged.csv"), "s,x\nA,0\nB\n");
        refused(run("pufferfish-sensitivity", "--data", ragged.toString(), "--value-column", "x", "--secret-column", "s", "--dry-run"), "row 3 has 1 fields");
        Path good = Files.writeString(tmp.resolve("good.csv"), "s,x\nA,0\nB,1\n");
        refused(run("pufferfish-sensitivity", "--data", good.toString(), "--value-column", "y", "--secret-column", "s", "--dry-run"),
                "--value-column = y");
    }

    @Test
    void workThatWouldNotFinishIsRefusedUpFront() {
        // three categories past 2^31 - 1: no enumeration, and the certified bounds take int counts (two categories at that n
        // run in seconds by the large-n method; at 2^31 - 1 three categories get their bounds in seconds)
        refused(run("smoothed", "--n", "3000000000", "--lost", "1000", "--epsilon", "1", "--distributions", "0.2,0.3,0.5;0.6,0.3,0.1"),
                "--n = 3000000000: three or more categories need n <= 2147483647");
        refused(run("quantized-sgd", "--preset", "fig2-right", "--n", "100", "--epsilon", "1", "--trials", "2000000000"), "--n, --trials and --assignments");
        refused(run("quantized-sgd", "--preset", "fig2-right", "--n", "100", "--epsilon", "1", "--trials", "1000000000"), "--n, --trials and --assignments");
        refused(run("bayes-audit", "--n", "1:1:100000", "--epsilon", "1"), "more than --max-work 24.0 h");
        refused(run("pabi", "--steps", "100", "--correlation", "inv", "--alpha", "2:0.001:3", "--sigma", "1:0.001:2", "--lipschitz", "1:0.01:2"),
                "at most 20,000,000 rows");
        StringBuilder counts = new StringBuilder("1");
        for (int i = 1; i < 50_000; i++) {
            counts.append(",1");
        }
        refused(run("profile", "--counts", counts.toString(), "--sample-size", "10", "--epsilon", "1"), "--counts (50000 categories)");
        // the same run passes with a raised limit (checked in a dry run, which computes nothing)
        Run raised = run("bayes-audit", "--n", "1:1:100000", "--epsilon", "1", "--max-work", "1e12", "--dry-run");
        assertEquals(0, raised.exitCode(), raised.err());
        assertTrue(raised.err().contains("bayes-audit: estimate"), raised.err());
    }

    @Test
    void controlCharactersAreEscapedAndValuesShortened() {
        assertEquals("a\\u001bb\\nc", Main.printable("a\u001bb\nc"));
        for (String[] args : new String[][] {with(PROFILE, "--rounding", "x".repeat(10_000)), {"profile", "--counts", "12,8", "--sample-size", "2",
            "--epsilon", "x".repeat(10_000)}}) {
            Run r = run(args);
            assertEquals(2, r.exitCode(), r.err());
            assertTrue(r.err().length() < 400, r.err());
        }
    }
}
