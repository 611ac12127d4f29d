package org.privacybounds.jobs.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.testing.PlotAssertions;
import org.privacybounds.testing.SparkLine;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;

/** darrm-optimize, darrm-verify and darrm-aggregate: contracts, spec values, the distributed scan, bad input. */
class DarrmCommandsTest extends SparkTestSession {
    @Test
    void optimizeContractAndSpecValues(@TempDir Path tmp) {
        Run r = run("darrm-optimize", "--k", "11", "--m", "3", "--epsilon", "0.1", "--delta-mech", "1e-5", "--json", "--out", tmp.resolve("o").toString());
        assertEquals(0, r.exitCode(), r.err());
        JsonNode j = r.json();
        assertEquals("darrm-optimize", j.get("command").asText());
        double[] want = {0.939241, 0.542340, 1, 1, 0.977696, 1};
        for (int l = 6; l <= 11; l++) {
            assertEquals(want[l - 6], j.get("gamma").get(l).asDouble(), 1e-5);
            assertEquals(j.get("gamma").get(l).asDouble(), j.get("gamma").get(11 - l).asDouble(), 0);
        }
        assertEquals(-0.424403, j.get("objective").asDouble(), 1e-6);
        assertEquals(31824, j.get("constraints").asLong());
        assertTrue(j.get("rounds").asInt() >= 1);
        JsonNode c = j.get("certificate");
        assertTrue(c.get("maxCost").asDouble() <= c.get("bound").asDouble());
        assertEquals(8, c.get("worstMultiset").size());
        assertTrue(c.get("arithmetic").asText().startsWith("decimal intervals with directed rounding, 60 digits"), c.get("arithmetic").asText());
        assertEquals("yes", c.get("verdict").asText());
        // the DaRRM paper's Figure 2 setting (N = 4e5): 0.0377; ours from 1e4 draws, within 5 standard errors
        assertEquals(0.0377, j.get("error").asDouble(), 5 * j.get("errorStandardError").asDouble() + 2e-4);
        for (String f : new String[] {"result.json", "gamma.csv", "gamma.png", "error.png"}) {
            assertTrue(Files.isRegularFile(tmp.resolve("o").resolve(f)), f);
        }
        // error.png: the methods on a categorical axis, each with its 95 % interval as an error bar
        JsonNode err = PlotAssertions.figure(tmp.resolve("o").resolve("error.png"));
        assertEquals("category", err.get("x").get("scale").asText());
        assertEquals(List.of("gamma_opt", "gamma_sub", "gamma_const"), PlotAssertions.tickLabels(err, "x"));
        JsonNode opt = err.get("series").get(0).get("points").get(0);
        assertEquals(0, opt.get(0).asDouble());
        assertEquals(j.get("error").asDouble(), opt.get(1).asDouble(), 1e-12);
        assertEquals(1.96 * j.get("errorStandardError").asDouble(), opt.get(2).asDouble(), 1e-12);
        assertEquals(0, err.get("y").get("min").asDouble());
        JsonNode gammaFig = PlotAssertions.figure(tmp.resolve("o").resolve("gamma.png"));
        assertEquals(12, gammaFig.get("series").get(0).get("points").size());
        assertEquals(j.get("gamma").get(5).asDouble(), gammaFig.get("series").get(0).get("points").get(5).get(1).asDouble(), 1e-15);
        // the optimized gamma verifies (reading darrm-optimize's own result.json)
        Run v = run("darrm-verify", "--k", "11", "--m", "3", "--epsilon", "0.1", "--delta-mech", "1e-5", "--gamma-file",
                tmp.resolve("o").resolve("result.json").toString(), "--json");
        assertEquals(0, v.exitCode(), v.err());
        assertTrue(v.json().get("dp").asBoolean());
    }

    /** Default options that once ended in a stack trace: the certified path scales gamma until the 60-digit check passes. */
    @Test
    void highPrecisionCheckAlwaysFinishes() {
        SparkLine.checkedOnSpark35Only("the driver's 60-digit certification");
        for (String[] a : new String[][] {{"--k", "9", "--m", "1.5", "--epsilon", "0.25", "--delta-mech", "1e-3"}, {"--k", "11", "--m", "3", "--epsilon", "40"}}) {
            String[] args = new String[a.length + 2];
            args[0] = "darrm-optimize";
            System.arraycopy(a, 0, args, 1, a.length);
            args[args.length - 1] = "--json";
            Run r = run(args);
            assertEquals(0, r.exitCode(), r.err());
            JsonNode cert = r.json().get("certificate");
            assertTrue(cert.get("maxCost").asDouble() <= cert.get("bound").asDouble());
            assertTrue(cert.get("highPrecisionRescalings").asInt() >= 1, cert.toString());
            assertTrue(cert.get("highPrecisionRescaleFactor").asDouble() > 1 - 1e-12);
        }
        Run over = run("darrm-optimize", "--k", "11", "--m", "3", "--epsilon", "300");
        assertEquals(2, over.exitCode(), over.err());
        assertTrue(over.err().contains("--m x --epsilon = 900.0"), over.err());
    }

    /**
     * K = 21, m = 5, eps = 0.1, pure DP, gamma_DSub: the worst cost equals the bound exactly (e^0.5 - 1), which the 60-digit
     * check without an allowance called "not DP". Now: dp true, decided as an exact tie, on both arithmetic paths.
     */
    @Test
    void anExactTieIsDpOnBothPaths() {
        for (String mode : new String[] {"high", "double"}) {
            Run r = run("darrm-verify", "--k", "21", "--m", "5", "--epsilon", "0.1", "--delta-mech", "0", "--family", "dsub", "--verify", mode, "--json");
            assertEquals(0, r.exitCode(), r.err());
            JsonNode j = r.json();
            assertTrue(j.get("dp").asBoolean(), mode);
            assertEquals("yes", j.get("verdict").asText());
            assertTrue(j.get("guarantee").asText().endsWith("-DP: yes"), j.get("guarantee").asText());
            JsonNode c = j.get("certificate");
            assertTrue(c.get("exactTie").asBoolean(), mode);
            assertEquals(36, c.get("exactTies").asInt(), mode);
            assertEquals(0, c.get("undecided").asInt());
            assertEquals(c.get("boundDecimal").asText(), c.get("maxCostDecimal").asText());
            // the bound from the decimal typed: e^0.5 - 1 to 60 digits
            assertTrue(c.get("boundDecimal").asText().startsWith("0.6487212707001281468486507878141635716537761007101480115750"), c.toString());
        }
        Run text = run("darrm-verify", "--k", "21", "--m", "5", "--epsilon", "0.1", "--family", "dsub");
        assertTrue(text.out().contains("exactly (an exact tie") && text.out().contains(": (m eps, delta)-DP"), text.out());
    }

    /** darrm-aggregate prints (m eps, delta) per query only for a gamma that provably gives it; the plain majority is refused. */
    @Test
    void aggregateRefusesAGammaThatIsNotDp(@TempDir Path tmp) throws Exception {
        Path votes = tmp.resolve("votes.csv");
        Files.writeString(votes, "a,b,c\n1,1,0\n0,0,1\n");
        Run r = run("darrm-aggregate", "--k", "3", "--m", "1", "--epsilon", "0.5", "--gamma", "1,1,1,1", "--votes", votes.toString(), "--out",
                tmp.resolve("o").toString());
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().startsWith("error: --gamma = values: DaRRM with this gamma is not (m eps, delta) = (0.5, 0)-DP"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(!Files.exists(tmp.resolve("o")));
        Run ok = run("darrm-aggregate", "--k", "3", "--m", "1", "--epsilon", "0.5", "--family", "sub", "--votes", votes.toString(), "--json");
        assertEquals(0, ok.exitCode(), ok.err());
        assertEquals("yes", ok.json().get("gammaVerdict").asText());
    }

    @Test
    void distributedScanEqualsTheLocalOne() {
        // K = 23, Delta > 0: 2,035,800 multisets, scanned on Spark; the same optimum as a driver-only run, for 3 and 16 partitions
        ConstraintSet set = ConstraintSet.of(23, 0.1, 1e-5);
        double m = 5;
        double delta = -Math.expm1(m * Math.log1p(-1e-5));
        double em = Math.exp(m * 0.1);
        DarrmOptimizer.Result local = DarrmOptimizer.optimize(set, m, delta, DarrmOptimizer.objective(23, 0.75),
                (x, th, keep) -> set.scanAll(x, em, th, keep), null);
        for (String parts : new String[] {"3", "16"}) {
            Run r = run("darrm-optimize", "--k", "23", "--m", "5", "--epsilon", "0.1", "--delta-mech", "1e-5", "--verify", "double", "--partitions", parts,
                    "--error-samples", "100", "--json");
            assertEquals(0, r.exitCode(), r.err());
            JsonNode j = r.json();
            assertEquals(2035800, j.get("constraints").asLong());
            assertEquals(local.objective(), j.get("objective").asDouble(), 1e-12);
            for (int l = 0; l <= 23; l++) {
                assertEquals(local.gamma()[l], j.get("gamma").get(l).asDouble(), 1e-12, "l = " + l);
            }
            assertTrue(j.get("certificate").get("maxCost").asDouble() <= j.get("certificate").get("bound").asDouble());
        }
    }

    @Test
    void verifyAndAggregate(@TempDir Path tmp) throws Exception {
        Run sub = run("darrm-verify", "--k", "11", "--m", "3", "--epsilon", "0.1", "--family", "sub", "--json");
        assertEquals(0, sub.exitCode(), sub.err());
        assertTrue(sub.json().get("dp").asBoolean());
        // the plain majority (gamma = 1) of 11 pure-DP votes is not 3 eps-DP
        Run one = run("darrm-verify", "--k", "11", "--m", "3", "--epsilon", "0.1", "--gamma", "1,1,1,1,1,1,1,1,1,1,1,1", "--json");
        assertEquals(0, one.exitCode(), one.err());
        assertFalse(one.json().get("dp").asBoolean());
        JsonNode c = one.json().get("certificate");
        assertTrue(c.get("maxCost").asDouble() > c.get("bound").asDouble());

        StringBuilder b = new StringBuilder();
        for (int t = 1; t <= 11; t++) {
            b.append(t == 1 ? "" : ",").append("t").append(t);
        }
        b.append('\n');
        SplittableRandom r = new SplittableRandom(4);
        for (int q = 0; q < 300; q++) {
            double p = r.nextDouble();
            for (int t = 0; t < 11; t++) {
                b.append(t == 0 ? "" : ",").append(r.nextDouble() < p ? 8 : 5);
            }
            b.append('\n');
        }
        Path votes = tmp.resolve("votes.csv");
        Files.writeString(votes, b.toString());
        String[] base = {"darrm-aggregate", "--votes", votes.toString(), "--k", "11", "--m", "3", "--epsilon", "0.0892", "--delta-mech", "1e-4", "--delta",
            "3e-4", "--family", "sub", "--positive-label", "8", "--seed", "9", "--json"};
        Run a1 = run(with(base, "--partitions", "1", "--out", tmp.resolve("a1").toString()));
        assertEquals(0, a1.exitCode(), a1.err());
        Run a4 = run(with(base, "--partitions", "4", "--out", tmp.resolve("a4").toString()));
        assertEquals(0, a4.exitCode(), a4.err());
        assertEquals(Files.readString(tmp.resolve("a1").resolve("labels.csv")), Files.readString(tmp.resolve("a4").resolve("labels.csv")));
        JsonNode j = a1.json();
        assertEquals(300, j.get("queries").asLong());
        // Table 2 (m = 3, MNIST): per query (0.2676, 0.0003); 300 queries by Theorem 2.3 with delta' = 1e-4
        assertEquals(0.2676, j.get("perQuery").get("epsilon").asDouble(), 1e-12);
        assertTrue(j.get("total").get("general").get("epsilon").asDouble() < j.get("total").get("simple").get("epsilon").asDouble());
        double agree = j.get("agreementWithMajority").asDouble();
        assertTrue(agree > 0.5 && agree < 1, "gamma_Sub releases the majority often, not always: " + agree);
        // gamma = 1 (m = K: no noise needed) releases exactly the majority
        Run exact = run("darrm-aggregate", "--votes", votes.toString(), "--k", "11", "--m", "11", "--epsilon", "0.0892", "--family", "dsub",
                "--positive-label", "8", "--json");
        assertEquals(0, exact.exitCode(), exact.err());
        assertEquals(1.0, exact.json().get("agreementWithMajority").asDouble());
    }

    @Test
    void badInputIsAClearError(@TempDir Path tmp) throws Exception {
        Path bad = tmp.resolve("bad.csv");
        Files.writeString(bad, "a,b,c\n1,0,1\n1,0\n");
        String[][] cases = {
            {"--m", "darrm-optimize", "--k", "11", "--m", "12", "--epsilon", "0.1"},
            {"--epsilon", "darrm-optimize", "--k", "11", "--m", "3", "--epsilon", "0"},
            {"--delta-mech", "darrm-optimize", "--k", "11", "--m", "3", "--epsilon", "0.1", "--delta-mech", "1"},
            {"--k", "darrm-optimize", "--k", "10", "--m", "3", "--epsilon", "0.1"},
            {"--gamma", "darrm-verify", "--k", "3", "--m", "1", "--epsilon", "0.1", "--gamma", "1,1,1"},
            {"--gamma", "darrm-verify", "--k", "3", "--m", "1", "--epsilon", "0.1", "--gamma", "1,1.5,1.5,1"},
            {"--gamma", "darrm-verify", "--k", "3", "--m", "1", "--epsilon", "0.1", "--gamma", "1,0.5,0.4,1"},
            {"--votes", "darrm-aggregate", "--votes", bad.toString(), "--k", "3", "--m", "1", "--epsilon", "0.1", "--family", "sub"},
        };
        for (String[] c : cases) {
            Path out = tmp.resolve("o" + c[0].length() + c.length);
            String[] args = with(Arrays.copyOfRange(c, 1, c.length), "--out", out.toString());
            Run r = run(args);
            assertEquals(2, r.exitCode(), String.join(" ", args) + "\n" + r.err());
            assertTrue(r.err().startsWith("error: " + c[0]), r.err());
            assertFalse(Files.exists(out));
        }
        Run w = run("darrm-aggregate", "--votes", bad.toString(), "--k", "3", "--m", "1", "--epsilon", "0.1", "--family", "sub");
        assertEquals(2, w.exitCode());
        assertTrue(w.err().contains("row 3 has 2 fields but the header has 3"), w.err());
    }

    private static String[] with(String[] base, String... more) {
        String[] a = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, a, base.length, more.length);
        return a;
    }
}
