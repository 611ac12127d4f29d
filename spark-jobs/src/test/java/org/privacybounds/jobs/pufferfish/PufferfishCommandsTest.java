package org.privacybounds.jobs.pufferfish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.testing.PlotAssertions;
import org.privacybounds.testing.SparkLine;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;

/** pufferfish-sensitivity on the real UCI files (Table 1) and pabi (Figures 5-6), contracts and bad input. */
class PufferfishCommandsTest extends SparkTestSession {
    private static String data(String file) {
        return root().resolve("datasets").resolve(file).toString();
    }

    @Test
    void table1FromTheRealFiles() {
        SparkLine.checkedOnSpark35Only("Table 1's values (the plot's test reads the same files on both lines)");
        Run r = run("pufferfish-sensitivity", "--table1", "--datasets", root().resolve("datasets").toString(), "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode t = r.json().get("table1");
        assertEquals(3, t.size());
        // Table 1 rows 1-3 (recomputed from the UCI files)
        assertEquals(395, t.get(0).get("rows").asInt());
        assertEquals(20, t.get(0).get("range").asDouble());
        assertEquals(8, t.get(0).get("wInf").asDouble());
        assertEquals(2.275966, t.get(0).get("w2").asDouble(), 1e-6);
        assertTrue(t.get(0).get("w2Status").asText().startsWith("misprint"));
        assertEquals(303, t.get(1).get("rows").asInt());
        assertEquals(13, t.get(1).get("wInf").asDouble());
        assertEquals("[\"0\",\"2\"]", t.get(1).get("wInfPair").toString());
        assertEquals(7.802859, t.get(1).get("w2").asDouble(), 1e-6);
        assertEquals("[\"0\",\"4\"]", t.get(1).get("w2Pair").toString());
        assertTrue(t.get(1).get("wInfStatus").asText().startsWith("misprint"));
        assertEquals("matches", t.get(1).get("w2Status").asText());
        assertEquals(32561, t.get(2).get("rows").asInt());
        assertEquals(1, t.get(2).get("wInf").asDouble());
        assertEquals(0.416400, t.get(2).get("w2").asDouble(), 1e-6);
        assertEquals("[\"Asian-Pac-Islander\",\"Other\"]", t.get(2).get("w2Pair").toString());
        assertEquals("matches", t.get(2).get("w2Status").asText());
    }

    @Test
    void table1WritesItsPlot(@TempDir Path tmp) throws Exception {
        Run r = run("pufferfish-sensitivity", "--table1", "--datasets", root().resolve("datasets").toString(), "--out", tmp.resolve("t1").toString());
        assertEquals(0, r.exitCode(), r.err());
        JsonNode fig = PlotAssertions.figure(tmp.resolve("t1").resolve("table1.png"));
        assertEquals(List.of("Student Scores", "Heart Disease", "Adult"), PlotAssertions.tickLabels(fig, "x"));
        // Student Scores: W_inf = 8 of Delta = 20; Adult: W_2 = 0.4164 of Delta = 1
        assertEquals(0.4, PlotAssertions.series(fig, "Delta_G / Delta (GWM, W_inf)").get("points").get(0).get(1).asDouble(), 1e-12);
        assertEquals(0.416400, PlotAssertions.series(fig, "Delta_G,2 / Delta (Cauchy, W_2)").get("points").get(2).get(1).asDouble(), 1e-6);
        assertEquals(0, fig.get("y").get("min").asDouble());
        assertTrue(fig.get("y").get("max").asDouble() >= 1);
        // --datasets is an input of --table1 (its content decides a rerun) and of nothing else
        JsonNode inputs = Json.MAPPER.readTree(tmp.resolve("t1/manifest.json").toFile()).get("inputs");
        assertTrue(inputs.has("datasets"), inputs.toString());
        Run one = run("pufferfish-sensitivity", "--data", root().resolve("datasets/uci_student_mat.csv").toString(), "--value-column", "G3",
                "--secret-column", "paid", "--scale", "8", "--out", tmp.resolve("one").toString());
        assertEquals(0, one.exitCode(), one.err());
        JsonNode oneInputs = Json.MAPPER.readTree(tmp.resolve("one/manifest.json").toFile()).get("inputs");
        List<String> names = new ArrayList<>();
        oneInputs.fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("data"), names, oneInputs.toString());
    }

    /** The reported false claim: GAWM's PP delta must contain the approximation's own delta. */
    @Test
    void approximateReleaseClaimsItsOwnDelta(@TempDir Path tmp) throws Exception {
        SparkLine.checkedOnSpark35Only("GAWM's delta");
        StringBuilder csv = new StringBuilder("s,x\n");
        csv.append("A,0\n".repeat(97)).append("B,0\n".repeat(94)).append("B,100\n".repeat(3));
        Path f = tmp.resolve("two-secrets.csv");
        Files.writeString(f, csv);
        Run r = run("pufferfish-sensitivity", "--data", f.toString(), "--value-column", "x", "--secret-column", "s", "--scale", "1",
                "--approx-delta", "0.05", "--noise", "laplace", "--pp-delta", "1e-5", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode gawm = null;
        for (JsonNode a : r.json().get("alternatives")) {
            if (a.get("mechanism").asText().startsWith("GAWM")) {
                gawm = a;
            }
        }
        assertEquals(0.05, gawm.get("approximationDelta").asDouble());
        assertEquals(2 * Math.log(1 / 0.95) + Math.log(1e5), gawm.get("ppEpsilon").asDouble(), 1e-9);
        // the exact hockey-stick of this release at that epsilon is 3/97 = 0.0309 (ReleaseGuaranteeTest); 2e-5 was printed before
        assertEquals(0.05 + 0.95e-5, gawm.get("ppDelta").asDouble(), 1e-15);
        assertTrue(gawm.get("ppDelta").asDouble() >= 3 / 97.0);
    }

    @Test
    void sensitivityContractScaleAndCalibration(@TempDir Path tmp) throws Exception {
        SparkLine.checkedOnSpark35Only("the sensitivity contract's arithmetic");
        Run r = run("pufferfish-sensitivity", "--data", data("uci_student_mat.csv"), "--value-column", "G3", "--secret-column", "paid", "--scale", "8",
                "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode j = r.json();
        assertEquals("pufferfish-sensitivity", j.get("command").asText());
        assertEquals("G3", j.get("parameters").get("valueColumn").asText());
        JsonNode s = j.get("sensitivities");
        assertEquals(20, s.get("range").asDouble());
        assertEquals(8, s.get("wInf").asDouble());
        assertEquals(2.275966, s.get("w2").asDouble(), 1e-6);
        assertEquals("[\"no\",\"yes\"]", s.get("wInfPair").toString());
        assertEquals("[\"no\",\"yes\"]", s.get("w2Pair").toString());
        JsonNode rel = j.get("releases");
        assertEquals(3, rel.size());
        // Gaussian GWM: alpha Delta_G^2 / (2 sigma^2) = 2 * 64 / 128 = 1; Laplace: spec row 5 scaled (Delta/b = 1) = 0.619124
        assertEquals("gaussian", rel.get(0).get("noise").asText());
        assertEquals(1.0, rel.get(0).get("epsilon").asDouble(), 1e-12);
        assertEquals(2.0, rel.get(0).get("alpha").asDouble());
        assertEquals(0.619124, rel.get(1).get("epsilon").asDouble(), 1e-6);
        // Cauchy mechanism, alpha = 2: log(1 + W_2^2 / (2 * 8^2)), W_2^2 = 200643/38734
        assertEquals("cauchy", rel.get(2).get("noise").asText());
        assertEquals(Math.log1p(200643.0 / 38734 / 128), rel.get(2).get("epsilon").asDouble(), 1e-12);

        // calibration: the scale for epsilon 1 gives back epsilon 1 (and the Gaussian sd is 8 sqrt(2 / 2) = 8)
        Run c = run("pufferfish-sensitivity", "--data", data("uci_student_mat.csv"), "--value-column", "G3", "--secret-column", "paid",
                "--target-epsilon", "1", "--json", "--out", tmp.resolve("o").toString());
        assertEquals(0, c.exitCode(), c.err());
        JsonNode cr = c.json().get("releases");
        assertEquals(8, cr.get(0).get("scale").asDouble(), 1e-9);
        for (JsonNode x : cr) {
            assertEquals(1, x.get("epsilon").asDouble(), 1e-9, x.toString());
            assertTrue(x.get("epsilon").asDouble() <= 1 + 1e-15);
        }
        for (String f : new String[] {"result.json", "pairs.csv", "releases.csv", "counts.csv", "conditional-laws.png"}) {
            assertTrue(Files.isRegularFile(tmp.resolve("o").resolve(f)), f);
        }
        assertTrue(Files.isDirectory(tmp.resolve("o").resolve("counts.parquet")));
        // the conditional laws: one series per secret, probabilities in [0, 1], the columns named in the title
        JsonNode laws = PlotAssertions.figure(tmp.resolve("o").resolve("conditional-laws.png"));
        assertEquals(2, laws.get("series").size());
        for (JsonNode series : laws.get("series")) {
            for (JsonNode p : series.get("points")) {
                assertTrue(p.get(1).asDouble() >= 0 && p.get(1).asDouble() <= 1, series.get("name") + ": " + p);
            }
        }
        assertTrue(laws.get("title").asText().contains("G3") && laws.get("title").asText().contains("paid"), laws.get("title").asText());
        String counts = Files.readString(tmp.resolve("o").resolve("counts.csv"));
        assertTrue(counts.contains("no,0.0,30"), "30 students without paid classes scored 0");
    }

    @Test
    void pabiContractAndFigures(@TempDir Path tmp) {
        Run r = run("pabi", "--steps", "1,10,100", "--correlation", "const:0.2", "--correlation", "inv,invsq", "--strategy", "average,minorant", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode j = r.json();
        assertEquals("pabi", j.get("command").asText());
        JsonNode rows = j.get("rows");
        assertEquals(3 * 2 * 3, rows.size());
        // Figure 5 values (recomputed) (T = 10, 100), dpEpsilon = 1/T and groupEpsilon = T
        assertEquals(10, rows.get(1).get("T").asInt());
        assertEquals("average", rows.get(1).get("strategy").asText());
        assertEquals(0.784, rows.get(1).get("epsilon").asDouble(), 1e-9);
        assertEquals(4.3264, rows.get(2).get("epsilon").asDouble(), 1e-9);
        assertEquals(0.1, rows.get(1).get("dpEpsilon").asDouble(), 1e-12);
        assertEquals(10, rows.get(1).get("groupEpsilon").asDouble(), 1e-12);
        // the minorant equals the average when the prefix sums are concave
        assertEquals(rows.get(2).get("epsilon").asDouble(), rows.get(5).get("epsilon").asDouble(), 1e-9);
        assertEquals(0.857886, rows.get(7).get("epsilon").asDouble(), 1e-6);
        assertEquals(0.269089, rows.get(8).get("epsilon").asDouble(), 1e-6);
        assertEquals(0.240178, rows.get(13).get("epsilon").asDouble(), 1e-6);
        assertEquals(0.0267317, rows.get(14).get("epsilon").asDouble(), 1e-7);

        Run f = run("pabi", "--figure", "5", "--out", tmp.resolve("f5").toString());
        assertEquals(0, f.exitCode(), f.err());
        JsonNode fig = PlotAssertions.figure(tmp.resolve("f5").resolve("figure5.png"));
        // legends name rho, not the option text; T = 1..100 labelled every 10 (no run-together labels)
        assertEquals(List.of("rho = 0", "rho = 0.1", "rho = 0.2", "rho = 0.8", "rho = 1", "DP (rho = 0)", "group DP (rho = 1)"), PlotAssertions.names(fig));
        assertEquals(List.of("0", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"), PlotAssertions.tickLabels(fig, "x"));
        PlotAssertions.distinctColours(fig, List.of("rho = 0", "rho = 0.1", "rho = 0.2", "rho = 0.8", "rho = 1"));
        assertEquals("log10", fig.get("y").get("scale").asText());
        assertEquals(Math.log10(0.01), PlotAssertions.series(fig, "DP (rho = 0)").get("points").get(99).get(1).asDouble(), 1e-9); // eps = 1/T
        assertTrue(Files.isRegularFile(tmp.resolve("f5").resolve("rows.csv")));

        Run f6 = run("pabi", "--figure", "6", "--out", tmp.resolve("f6").toString());
        assertEquals(0, f6.exitCode(), f6.err());
        JsonNode fig6 = PlotAssertions.figure(tmp.resolve("f6").resolve("figure6.png"));
        assertEquals(6, fig6.get("series").size(), PlotAssertions.names(fig6).toString());

        Run own = run("pabi", "--steps", "1:1:50", "--correlation", "const:0.2", "--correlation", "inv", "--sigma", "0.5,1", "--out",
                tmp.resolve("own").toString());
        assertEquals(0, own.exitCode(), own.err());
        JsonNode pabi = PlotAssertions.figure(tmp.resolve("own").resolve("pabi.png"));
        assertTrue(pabi.get("title").asText().contains("alpha"), pabi.get("title").asText());
        for (JsonNode series : pabi.get("series")) {
            for (JsonNode p : series.get("points")) {
                assertTrue(p.get(0).asDouble() >= 1 && p.get(0).asDouble() <= 50, series.get("name") + ": " + p);
            }
        }
    }

    @Test
    void pabiCovarianceFile(@TempDir Path tmp) throws Exception {
        // AR(1) covariance 0.5^|t-s| of 5 scalar records: rho_t = 0.5^(t-1), s_t non-increasing
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            for (int k = 0; k < 5; k++) {
                b.append(k == 0 ? "" : ",").append(Math.pow(0.5, Math.abs(i - k)));
            }
            b.append('\n');
        }
        Path cov = tmp.resolve("cov.csv");
        Files.writeString(cov, b.toString());
        Run r = run("pabi", "--steps", "5", "--correlation", "file:" + cov, "--strategy", "per-step", "--json");
        assertEquals(0, r.exitCode(), r.err());
        double want = 2 / 2.0 * (1 + 0.25 + 0.0625 + 0.015625 + 0.00390625);
        assertEquals(want, r.json().get("rows").get(0).get("epsilon").asDouble(), 1e-12);
        Files.writeString(cov, "1,2\n2,1\n");
        Run bad = run("pabi", "--steps", "2", "--correlation", "file:" + cov);
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("positive definite"), bad.err());
    }

    @Test
    void badInputIsAClearError(@TempDir Path tmp) throws Exception {
        SparkLine.checkedOnSpark35Only("the driver's checks of these options");
        String student = data("uci_student_mat.csv");
        String[][] cases = {
            {"--alpha", "pufferfish-sensitivity", "--data", student, "--value-column", "G3", "--secret-column", "paid", "--alpha", "1"},
            {"--scale", "pufferfish-sensitivity", "--data", student, "--value-column", "G3", "--secret-column", "paid", "--scale", "-2"},
            {"--secrets", "pufferfish-sensitivity", "--data", student, "--value-column", "G3", "--secret-column", "paid", "--secrets", "no,maybe"},
            {"--value-column", "pufferfish-sensitivity", "--data", student, "--value-column", "Mjob", "--secret-column", "paid"},
            {"--value-column", "pufferfish-sensitivity", "--data", student, "--value-column", "nope", "--secret-column", "paid"},
            {"--alpha", "pabi", "--steps", "10", "--correlation", "inv", "--alpha", "0.5"},
            {"--sigma", "pabi", "--steps", "10", "--correlation", "inv", "--sigma", "-1"},
            {"--correlation", "pabi", "--steps", "10", "--correlation", "const:2"},
            {"strategy", "pabi", "--steps", "10", "--correlation", "inv", "--secret-index", "3"},
            {"--secret-index = 50: must be in 1..T = 10", "pabi", "--steps", "10", "--correlation", "inv", "--secret-index", "50"},
            {"--secret-index = 0: must be in 1..T = 10", "pabi", "--steps", "1:1:10", "--correlation", "const:0.5", "--secret-index", "0"},
        };
        for (String[] c : cases) {
            String[] args = Arrays.copyOfRange(c, 1, c.length);
            Path out = tmp.resolve("o" + c.length);
            String[] withOut = Arrays.copyOf(args, args.length + 2);
            withOut[args.length] = "--out";
            withOut[args.length + 1] = out.toString();
            Run r = run(withOut);
            assertEquals(2, r.exitCode(), String.join(" ", args) + "\n" + r.err());
            assertTrue(r.err().startsWith("error: " + c[0]) || r.err().contains(c[0]), r.err());
            assertFalse(Files.exists(out), "no partial output");
        }
        Run nonNumeric = run("pufferfish-sensitivity", "--data", student, "--value-column", "Mjob", "--secret-column", "paid");
        assertTrue(nonNumeric.err().contains("must be numeric"), nonNumeric.err());
        Run empty = run("pufferfish-sensitivity", "--data", student, "--value-column", "G3", "--secret-column", "paid", "--secrets", "no,maybe");
        assertTrue(empty.err().contains("is empty"), empty.err());
    }
}
