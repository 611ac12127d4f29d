package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.testing.SparkLine;
import org.privacybounds.testing.SparkTestSession;

/** What a user reads: no command, dry runs that read the data, errors naming paths as given, tables that say what they show. */
class WhatUsersSeeTest extends SparkTestSession {
    @Test
    void noCommandIsAnErrorWithTheUsage() {
        Run r = run();
        assertEquals(2, r.exitCode());
        assertTrue(r.err().startsWith("error: no command given"), r.err());
        assertTrue(r.err().contains("Commands:"), r.err());
        assertEquals("", r.out());
    }

    /** darrm-aggregate's votes are 5 and 8: without --positive-label a dry run says so at once, naming the file as typed. */
    @Test
    void aDryRunReadsTheDataFiles(@TempDir Path tmp) throws Exception {
        Path votes = Files.createDirectories(tmp.resolve("in")).resolve("votes.csv");
        Files.copy(root().resolve("datasets/examples/votes.csv"), votes);
        String given = votes.toString();
        Run dry = run("darrm-aggregate", "--votes", given, "--k", "11", "--m", "3", "--epsilon", "0.0892", "--delta-mech", "1e-4", "--family", "opt",
                "--dry-run");
        assertEquals(2, dry.exitCode(), dry.err());
        assertTrue(dry.err().startsWith("error: --votes = " + given + " row 2 value '5': votes must be 0 or 1 (or give --positive-label)"), dry.err());
        Run ok = run("darrm-aggregate", "--votes", given, "--positive-label", "8", "--k", "11", "--m", "3", "--epsilon", "0.0892", "--delta-mech", "1e-4",
                "--family", "opt", "--dry-run");
        assertEquals(0, ok.exitCode(), ok.err());
        assertTrue(ok.err().contains("dry run: the arguments and every data file they name are valid"), ok.err());
        // a vote count that is not a number, found by a dry run of precincts (read through Spark)
        Path returns = tmp.resolve("returns.csv");
        Files.writeString(returns, "county,precinct,office,candidate,votes\nX,1,President,A,3\nX,1,President,B,n/a\n");
        Run bad = run("precincts", "--data", returns.toString(), "--candidates", "A,B", "--lost-fraction", "0.1", "--dry-run");
        assertEquals(2, bad.exitCode(), bad.err());
        assertTrue(bad.err().contains(returns.toString()) && bad.err().contains("'n/a'"), bad.err());
    }

    /** A long table stops at 200 rows and says where the rest is; a long name does not push the columns out of line. */
    @Test
    void longTablesSayWhereTheRestIs(@TempDir Path tmp) throws Exception {
        Path cov = tmp.resolve("a-covariance-file-with-a-long-name.csv");
        Files.copy(root().resolve("datasets/examples/cov.csv"), cov);
        Run r = run("pabi", "--steps", "1:1:13", "--correlation", "file:" + cov, "--correlation", "const:0.2", "--strategy", "per-step,minorant",
                "--sigma", "1,2,3,4,5,6,7,8,9,10");
        assertEquals(0, r.exitCode(), r.err());
        String[] lines = r.out().strip().split("\\R");
        assertTrue(lines[lines.length - 1].matches("\\.\\.\\. [\\d,]+ more rows: rerun with --out DIR for every row in DIR/rows\\.csv, or with --json"),
                lines[lines.length - 1]);
        // every row's T column starts where the header's does
        int header = -1;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("set ")) {
                header = i;
                break;
            }
        }
        int col = lines[header].indexOf(" T ") + 1;
        for (int i = header + 1; i < lines.length - 1; i++) {
            assertTrue(Character.isDigit(lines[i].charAt(col)) && lines[i].charAt(col - 1) == ' ', "column T out of line: " + lines[i]);
        }
    }

    @Test
    void theNoisyProfileShowsItsRealisedEpsilon() {
        Run r = run("profile", "--counts", "12,8", "--sample-size", "2", "--noise", "exponential", "--noise-epsilon", "10", "--epsilon", "1");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("realisedEps"), r.out());
        assertTrue(r.out().contains("0.282057"), r.out());
    }

    /** A bounded smoothed row says "bound", not a relative error above 1 or "0 / 0" assignments. */
    @Test
    void boundedSmoothedRowsSayBound() {
        Run r = run("smoothed", "--n", "12", "--lost", "2", "--epsilon", "1", "--distributions",
                "0.2,0.3,0.5;0.6,0.3,0.1;0.1,0.8,0.1;0.3,0.3,0.4;0.5,0.1,0.4", "--max-vertices", "3");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains(" bound "), r.out());
        assertFalse(r.out().contains("0 / 0"), r.out());
        assertTrue(r.out().contains("log10 gap to the lower bound"), r.out());
    }

    /**
     * Beyond every assignment with the hull bounded (4 vertices, --max-vertices 3), the gap's last lines name --max-vertices at
     * the hull's count as well as --refine-seconds: the enclosing simplex is usually most of such a gap.
     */
    @Test
    void aBoundedHullsGapNamesTheMaxVerticesOfTheHull() {
        SparkLine.checkedOnSpark35Only("the bounds' text");
        Run r = run("smoothed", "--n", "5000", "--lost", "50", "--epsilon", "1", "--distributions",
                "0.2,0.3,0.5;0.6,0.3,0.1;0.1,0.8,0.1;0.3,0.3,0.4;0.5,0.1,0.4", "--max-vertices", "3", "--refine-seconds", "0.5");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("(every assignment)") && r.out().contains("a larger --refine-seconds narrows"), r.out());
        assertTrue(r.out().contains("the hull having 4 vertices: --max-vertices 4 bounds over the hull itself instead"), r.out());
        Run hull = run("smoothed", "--n", "5000", "--lost", "50", "--epsilon", "1", "--distributions",
                "0.2,0.3,0.5;0.6,0.3,0.1;0.1,0.8,0.1;0.3,0.3,0.4;0.5,0.1,0.4", "--max-vertices", "4", "--refine-seconds", "0.5");
        assertEquals(0, hull.exitCode(), hull.err());
        assertFalse(hull.out().contains("--max-vertices"), hull.out());
    }
}
