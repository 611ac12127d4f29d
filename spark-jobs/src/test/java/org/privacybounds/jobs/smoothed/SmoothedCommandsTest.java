package org.privacybounds.jobs.smoothed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.jobs.common.InputFiles;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.ReferenceAlgorithm1;
import org.privacybounds.smoothed.sdp.multicategory.MonotoneBounds;
import org.privacybounds.testing.PlotAssertions;
import org.privacybounds.testing.SparkLine;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

class SmoothedCommandsTest extends SparkTestSession {
    static String jurisdictions() {
        return root().resolve("datasets/president_2020_biden_trump_57_jurisdictions_538.csv").toString();
    }

    @Test
    void beyondExactReachTheCommandReportsCertifiedBoundsAroundTheExactValue(@TempDir Path tmp) throws Exception {
        // (the three-category enumeration on Spark is checked on both lines by threeCategoriesOnTheExecutorsMatchFullEnumeration)
        SparkLine.checkedOnSpark35Only("the bounds' arithmetic on the driver against the exact enumeration");
        // n = 120, three categories, three vertices: every assignment takes about 10 core-seconds by the estimate (2 cores); with
        // --max-work 6 the command reports certified bounds (a second of work), and the exact run (default limit) must lie between them
        String[] base = {"smoothed", "--n", "120", "--sample-size", "100", "--epsilon", "0.5,2", "--distributions", "0.2,0.3,0.5;0.6,0.3,0.1;0.1,0.1,0.8",
            "--json"};
        Run bounded = run(append(base, "--max-work", "6"));
        assertEquals(0, bounded.exitCode(), bounded.err());
        assertTrue(bounded.err().matches("(?s)smoothed: every assignment would take about [0-9]+ s of core time and about [0-9]+ [KM]B of driver"
                + " memory, more than --max-work or the heap allows; reporting certified bounds instead \\(at most about [0-9]+ s of core time,"
                + " every side's budget spent; the sides often meet sooner\\)\n.*"), bounded.err());
        // past the enumeration's reach its cost is not estimated: the notice says so (it said "forever of core time")
        Run far = run("smoothed", "--n", "200000", "--eta", "0.998", "--epsilon", "1", "--distributions", "0.2,0.3,0.5;0.6,0.3,0.1;0.1,0.1,0.8",
                "--dry-run");
        assertEquals(0, far.exitCode(), far.err());
        assertTrue(far.err().startsWith("smoothed: every assignment is out of reach at n = 200,000 (the exact enumeration runs up to n = 100,000);"
                + " reporting certified bounds instead (at most about "), far.err());
        // a rerun into the finished --out with other eps is refused in one line: the notice is held until a run begins (it came first)
        String into = tmp.resolve("bounded").toString();
        assertEquals(0, run(append(base, "--max-work", "6", "--out", into)).exitCode());
        Run refused = run("smoothed", "--n", "120", "--sample-size", "100", "--epsilon", "1", "--distributions", "0.2,0.3,0.5;0.6,0.3,0.1;0.1,0.1,0.8",
                "--max-work", "6", "--out", into);
        assertEquals(2, refused.exitCode(), refused.err());
        assertTrue(refused.err().startsWith("error: --out = " + into + ": already holds the finished result of other parameters"), refused.err());
        assertEquals(1, refused.err().strip().lines().count(), refused.err());
        // a vertex with a category of share 0: the value is the DP delta with no evaluation, so nothing is estimated for it and a
        // tight --max-work does not refuse it (smoothed-sweep estimated 94 s for a run of none)
        String zero = "0.5,0.3,0.1,0.1;0.4,0.4,0.15,0.05;0.45,0.35,0,0.2";
        Run dp = run("smoothed", "--n", "20000", "--eta", "0.99", "--epsilon", "1", "--distributions", zero, "--max-work", "1", "--json");
        assertEquals(0, dp.exitCode(), dp.err());
        assertTrue(dp.err().matches("(?s)smoothed: every assignment would take about [0-9,]+ years of core time and about [0-9,]+ TB of driver memory,"
                + " more than --max-work or the heap allows; but vertex pi3 has a share of 0 of category 3, so delta_SDP is the DP delta, exactly \\(no"
                + " evaluation needed\\)\n.*"), dp.err());
        assertEquals(0.99, dp.json().get("results").get(0).get("delta").asDouble(), 1e-12);
        Run dpSweep = run("smoothed-sweep", "--n", "5000,20000", "--eta", "0.99", "--epsilon", "1", "--distributions", zero, "--max-work", "1",
                "--json", "--out", tmp.resolve("zero").toString());
        assertEquals(0, dpSweep.exitCode(), dpSweep.err());
        assertEquals(0.99, dpSweep.json().get("rows").get(1).get("delta").asDouble(), 1e-12);
        Run exact = run(base);
        assertEquals(0, exact.exitCode(), exact.err());
        for (int i = 0; i < 2; i++) {
            JsonNode b = bounded.json().get("results").get(i);
            double x = exact.json().get("results").get(i).get("log10Delta").asDouble();
            assertTrue(exact.json().get("results").get(i).get("method").asText().startsWith("exact"));
            assertTrue(b.get("method").asText().startsWith("bounds (every assignment is beyond --max-work)"), b.get("method").asText());
            assertTrue(b.get("log10LowerDelta").asDouble() <= x + 1e-12, b + " vs " + x);
            assertTrue(b.get("log10Delta").asDouble() >= x - 1e-12, b + " vs " + x);
            assertEquals(b.get("log10Delta").asDouble() - b.get("log10LowerDelta").asDouble(), b.get("log10Gap").asDouble(), 1e-12);
            // how far the lower bound may lie below its own assignment's value: never more than the gap
            double own = b.get("lowerDeltaRelativeError").asDouble();
            assertTrue(own >= 0 && own <= Math.expm1(b.get("log10Gap").asDouble() * Math.log(10)) + 1e-12, b.toString());
            assertTrue(b.get("method").asText().contains("at most " + MonotoneBounds.factorText(Math.log1p(own) / Math.log(10)) + " times lowerDelta"), b.toString());
        }
        // smoothed-sweep takes the same way at the same n, with the lower bound in its rows and in results.csv
        Run sweep = run("smoothed-sweep", "--n", "120", "--sample-size", "100", "--epsilon", "0.5,2", "--distributions",
                "0.2,0.3,0.5;0.6,0.3,0.1;0.1,0.1,0.8", "--max-work", "6", "--json", "--out", tmp.resolve("sweep").toString());
        assertEquals(0, sweep.exitCode(), sweep.err());
        assertTrue(sweep.err().contains("at 1 of the 1 n every assignment is beyond --max-work"), sweep.err());
        // its estimate is the sides' whole budget, which the bounds seldom spend: the line says so before the estimate
        assertTrue(sweep.err().contains("estimated below with every side's budget spent (the sides often meet sooner)"), sweep.err());
        for (int i = 0; i < 2; i++) {
            JsonNode row = sweep.json().get("rows").get(i);
            JsonNode b = bounded.json().get("results").get(i);
            assertEquals(b.get("log10Delta").asDouble(), row.get("log10Delta").asDouble(), 0);
            assertEquals(b.get("log10LowerDelta").asDouble(), row.get("log10LowerDelta").asDouble(), 0);
        }
        List<String> csv = Files.readAllLines(tmp.resolve("sweep/results.csv"));
        assertTrue(csv.get(0).endsWith(",log10LowerDelta,lowerDeltaRelativeError"), csv.get(0));
        String[] cells = csv.get(1).split(",");
        assertEquals(sweep.json().get("rows").get(0).get("log10LowerDelta").asDouble(), Double.parseDouble(cells[cells.length - 2]), 0);
        assertEquals(sweep.json().get("rows").get(0).get("lowerDeltaRelativeError").asDouble(), Double.parseDouble(cells[cells.length - 1]), 0);
    }

    @Test
    void aZeroShareBeyondExactReachIsTheDpDeltaOnBothSides() {
        // the second vertex has no records of category 3: all records there give h_3 = 0, where delta is the DP delta, T/n
        Run r = run("smoothed", "--n", "120", "--sample-size", "100", "--epsilon", "0.5,2", "--distributions", "0.2,0.3,0.5;0.6,0.4,0;0.1,0.1,0.8",
                "--max-work", "6", "--json");
        assertEquals(0, r.exitCode(), r.err());
        for (int i = 0; i < 2; i++) {
            JsonNode b = r.json().get("results").get(i);
            assertEquals(Math.log10(100 / 120.0), b.get("log10Delta").asDouble(), 1e-12);
            assertEquals(Math.log10(100 / 120.0), b.get("log10LowerDelta").asDouble(), 1e-12);
            assertEquals(0, b.get("log10Gap").asDouble(), 0);
            assertEquals("[0,120,0]", b.get("lowerArgmaxAssignment").toString());
            assertTrue(b.get("method").asText().contains("(exact: every record on vertex 2 (pi2), whose category 3 has share 0"), b.get("method").asText());
        }
    }

    /**
     * Warren county's returns spell Jo Jorgensen "Jorgensen/Cohe": read as published, Warren has no Jorgensen votes, and its
     * share of 0 makes delta_SDP the DP delta. The notice names the candidate and --alias; with the alias the votes count.
     */
    @Test
    void aCandidateSpelledOtherwiseInOneCountyIsNamedWithTheAliasThatCountsIt(@TempDir Path tmp) throws Exception {
        Path returns = Files.createDirectories(tmp.resolve("returns"));
        for (String county : new String[] {"warren", "fulton"}) {
            String name = "20201103__pa__general__" + county + "__precinct.csv";
            Files.copy(root().resolve("datasets/pa_2020_general_precincts").resolve(name), returns.resolve(name));
        }
        String[] args = {"smoothed", "--eta", "0.9", "--epsilon", "1", "--distributions-from-precincts", returns.toString(), "--candidates",
            "Joseph R. Biden,Donald J. Trump,Jo Jorgensen", "--precinct-points", "county", "--no-other", "--json"};
        Run zero = run(append(args, "--n", "100000"));
        assertEquals(0, zero.exitCode(), zero.err());
        assertTrue(zero.err().contains("but vertex Warren has a share of 0 of Jo Jorgensen, so delta_SDP is the DP delta, exactly (no evaluation"
                + " needed; where returns spell a candidate otherwise, --alias SPELLING=CANDIDATE counts those votes)"), zero.err());
        assertEquals(0.9, zero.json().get("results").get(0).get("delta").asDouble(), 1e-12);
        Run aliased = run(append(args, "--n", "60", "--alias", "Jorgensen/Cohe=Jo Jorgensen"));
        assertEquals(0, aliased.exitCode(), aliased.err());
        double delta = aliased.json().get("results").get(0).get("delta").asDouble();
        assertTrue(delta > 0 && delta < 0.9 - 1e-3, aliased.json().toString()); // 0.890 (Jorgensen at 1.7 % of Warren)
    }

    /** Chester county's returns list the three named candidates only: its "other" is 0, and the notice names --no-other. */
    @Test
    void aCountyWithNoOtherVotesIsNamedWithTheOptionThatDropsThem(@TempDir Path tmp) throws Exception {
        Path returns = Files.createDirectories(tmp.resolve("returns"));
        String name = "20201103__pa__general__chester__precinct.csv";
        Files.copy(root().resolve("datasets/pa_2020_general_precincts").resolve(name), returns.resolve(name));
        Run r = run("smoothed", "--eta", "0.9", "--epsilon", "1", "--n", "100000", "--distributions-from-precincts", returns.toString(), "--candidates",
                "Joseph R. Biden,Donald J. Trump,Jo Jorgensen", "--precinct-points", "county", "--json");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("but vertex Chester has a share of 0 of other, so delta_SDP is the DP delta, exactly (no evaluation needed;"
                + " --no-other drops the other candidates' votes, which some returns do not list)"), r.err());
        assertEquals(0.9, r.json().get("results").get(0).get("delta").asDouble(), 1e-12);
    }

    @Test
    void everyRecordReleasedBeyondExactReachIsOneOnBothSides() {
        SparkLine.checkedOnSpark35Only("the bounds' arithmetic on the driver");
        Run r = run("smoothed", "--n", "1000000", "--lost", "0", "--epsilon", "1", "--distributions", "0.45,0.45,0.10;0.50,0.42,0.08;0.40,0.52,0.08",
                "--json");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("but T = n releases every record, so delta_SDP is 1, exactly (no evaluation needed)"), r.err());
        JsonNode b = r.json().get("results").get(0);
        assertEquals(0, b.get("log10Delta").asDouble(), 0);
        assertEquals(0, b.get("log10LowerDelta").asDouble(), 0);
        assertTrue(b.get("method").asText().contains("(exact: T = n records are sampled without replacement"), b.get("method").asText());
    }

    @Test
    void moreRefinementSecondsNarrowTheGap(@TempDir Path tmp) throws Exception {
        SparkLine.checkedOnSpark35Only("the bounds' arithmetic on the driver");
        // three categories at n = 5,000: certified bounds; a side's refinement budget is --refine-seconds per eps, echoed
        String[] base = {"smoothed", "--n", "5000", "--eta", "0.998", "--epsilon", "1", "--distributions", "0.45,0.45,0.10;0.50,0.42,0.08;0.40,0.52,0.08",
            "--json"};
        Run brief = run(append(base, "--refine-seconds", "0.01"));
        // the longer run as text, its numbers from the result.json of its --out (what --json prints)
        Path out = tmp.resolve("longer");
        Run text = run(append(Arrays.copyOf(base, base.length - 1), "--refine-seconds", "0.5", "--out", out.toString()));
        assertEquals(0, brief.exitCode(), brief.err());
        assertEquals(0, text.exitCode(), text.err());
        assertEquals(0.01, brief.json().get("parameters").get("refineSeconds").asDouble(), 0);
        JsonNode a = brief.json().get("results").get(0);
        JsonNode longer = new Run(0, Files.readString(out.resolve("result.json")), "").json();
        assertEquals(0.5, longer.get("parameters").get("refineSeconds").asDouble(), 0);
        JsonNode b = longer.get("results").get(0);
        assertTrue(b.get("log10Gap").asDouble() < a.get("log10Gap").asDouble(), a + " vs " + b);
        assertTrue(b.get("log10Delta").asDouble() < a.get("log10Delta").asDouble(), a + " vs " + b);
        // the text output says how to narrow a gap above 1e-6 (here 0.04 and 0.016, which more seconds narrow), and says
        // nothing where the two sides meet (a zero share)
        assertTrue(text.out().contains("log10 gaps up to ") && text.out().contains("a larger --refine-seconds narrows"), text.out());
        double printed = Double.parseDouble(text.out().replaceAll("(?s).*log10 gaps up to (\\S+) after.*", "$1"));
        assertEquals(b.get("log10Gap").asDouble(), printed, 0.01 * printed, "the text's gap is the result's");
        assertTrue(printed > 1e-6 && printed < 0.1, text.out());
        // where --max-work holds the sides below --refine-seconds, the option to raise is --max-work
        Run held = run(append(Arrays.copyOf(base, base.length - 1), "--max-work", "2"));
        assertTrue(held.out().contains("a larger --max-work (it holds the sides below --refine-seconds 40) narrows"), held.out());
        Run met = run("smoothed", "--n", "20000", "--eta", "0.998", "--epsilon", "1", "--distributions", "0.45,0.45,0.10;0.50,0.50,0");
        assertEquals(0, met.exitCode(), met.err());
        assertTrue(met.out().contains("log10 gap to the lower bound 0") && !met.out().contains("--refine-seconds"), met.out());
    }

    /**
     * Every assignment exactly at n = 1,000 (two vertices of three categories) is about 15 core-minutes: the command names the
     * --max-work that takes the certified bounds instead, and that run is not refused and closes (log10 gap 1.3e-7 in 0.6 s).
     * At n = 300 (34 core-seconds) it says nothing.
     */
    @Test
    void aLongExactRunNamesTheMaxWorkOfTheCertifiedBounds() {
        String[] base = {"smoothed", "--eta", "0.998", "--epsilon", "1", "--distributions", "0.45,0.45,0.10;0.50,0.42,0.08"};
        Run dry = run(append(base, "--n", "1000", "--dry-run"));
        assertEquals(0, dry.exitCode(), dry.err());
        // (15 min on 2 cores: the estimate counts the ranges of assignments per core, each building its tables)
        assertTrue(dry.err().matches("(?s).*smoothed: every assignment exactly takes about [0-9.]+ (min|h) of core time; --max-work 60 would report"
                + " certified bounds.*"), dry.err());
        Run small = run(append(base, "--n", "300", "--dry-run"));
        assertEquals(0, small.exitCode(), small.err());
        assertFalse(small.err().contains("--max-work 60 would"), small.err());
        // a sweep says it of the long n: the short n stay exact and the sweep fits the --max-work it names
        String[] sweepBase = {"smoothed-sweep", "--eta", "0.998", "--epsilon", "1", "--distributions", "0.45,0.45,0.10;0.50,0.42,0.08", "--dry-run"};
        Run sweep = run(append(sweepBase, "--n", "300,1000"));
        assertEquals(0, sweep.exitCode(), sweep.err());
        assertTrue(sweep.err().matches("(?s).*smoothed-sweep: every assignment exactly takes about [0-9.]+ (min|h) of core time at n = 1,000;"
                + " --max-work [0-9]+ would report certified bounds from both sides there instead \\(the whole sweep at most about [0-9.]+ (s|min)"
                + " of core time\\).*"), sweep.err());
        // beside an n bounded already, a --max-work that low would cut its refinement: the long n alone instead
        Run beside = run(append(sweepBase, "--n", "1000,10000"));
        assertTrue(beside.err().matches("(?s).*smoothed-sweep: every assignment exactly takes about [0-9.]+ (min|h) of core time at n = 1,000;"
                + " alone, smoothed --n 1000 --max-work 60 \\(at most about [0-9.]+ s\\) would report certified bounds from both sides instead.*"),
                beside.err());
        Run shortSweep = run(append(sweepBase, "--n", "300,400"));
        assertFalse(shortSweep.err().contains("would report certified bounds"), shortSweep.err());
        Run bounds = run(append(base, "--n", "1000", "--max-work", "60", "--json"));
        assertEquals(0, bounds.exitCode(), bounds.err());
        JsonNode r = bounds.json().get("results").get(0);
        assertTrue(r.get("method").asText().startsWith("bounds (every assignment is beyond --max-work)") && r.get("log10Gap").asDouble() < 1e-6, r.toString());
    }

    private static String[] append(String[] a, String... more) {
        String[] out = Arrays.copyOf(a, a.length + more.length);
        System.arraycopy(more, 0, out, a.length, more.length);
        return out;
    }

    @Test
    void smoothedJsonMatchesFullEnumerationAndNamesTheVertices() {
        Run r = run("smoothed", "--n", "300", "--sample-size", "290", "--epsilon", "0.5,2", "--distributions", "0.3,0.7;0.8,0.2;0.5,0.5", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode j = r.json();
        assertEquals(2, j.get("hull").get("vertices").size(), "the interior point is not a vertex");
        DistributionSet v = DistributionSet.of(List.of(new double[] {0.3, 0.7}, new double[] {0.8, 0.2}), List.of("a", "b"), "x");
        var ref = ReferenceAlgorithm1.enumerate(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 290), 300, v, new double[] {0.5, 2});
        for (int e = 0; e < 2; e++) {
            JsonNode res = j.get("results").get(e);
            assertEquals(ref.get(e).log10Delta(), res.get("log10Delta").asDouble(), 1e-9);
            assertEquals(301, res.get("evaluated").asLong() + res.get("excluded").asLong());
        }
    }

    /** Three categories and three vertices run on the executors and equal Algorithm 1 record by record. */
    @Test
    void threeCategoriesOnTheExecutorsMatchFullEnumeration() {
        Run r = run("smoothed", "--n", "14", "--sample-size", "11", "--epsilon", "0.5,2", "--distributions", "0.2,0.3,0.5;0.6,0.3,0.1;0.1,0.1,0.8", "--json",
                "--partitions", "3");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("assignments: "), r.err());
        DistributionSet v = DistributionSet.of(List.of(new double[] {0.2, 0.3, 0.5}, new double[] {0.6, 0.3, 0.1}, new double[] {0.1, 0.1, 0.8}),
                List.of("a", "b", "c"), "x");
        var ref = ReferenceAlgorithm1.enumerate(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 11), 14, v, new double[] {0.5, 2});
        for (int e = 0; e < 2; e++) {
            JsonNode res = r.json().get("results").get(e);
            assertEquals(ref.get(e).log10Delta(), res.get("log10Delta").asDouble(), 1e-12);
            assertEquals(120, res.get("evaluated").asLong(), "every assignment of 14 records to 3 vertices");
        }
    }

    @Test
    void jurisdictionsOf2020HaveDcAndNe3AsVertices() {
        Run r = run("smoothed", "--n", "50000", "--eta", "0.998", "--epsilon", "7", "--distributions-from-votes", jurisdictions(), "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode hull = r.json().get("hull");
        assertEquals("DC", hull.get("labels").get(0).asText());
        assertEquals("NE-3", hull.get("labels").get(1).asText());
        assertEquals(317323.0 / (317323 + 18586), hull.get("vertices").get(0).get(0).asDouble(), 1e-15);
        JsonNode res = r.json().get("results").get(0);
        // all voters on the DC vertex, log10 delta_SDP = -2.48 at n = 5e4, eps = 7 (an independent computation)
        assertEquals(-2.48, res.get("log10Delta").asDouble(), 0.01);
        assertEquals("[50000,0]", res.get("argmaxAssignment").toString());
        assertTrue(res.get("excluded").asLong() > 40000, "most assignments excluded by the bound");
        // --compose 10
        Run c = run("smoothed", "--n", "50000", "--eta", "0.998", "--epsilon", "7", "--distributions-from-votes", jurisdictions(),
                "--compose", "10", "--json");
        JsonNode cr = c.json().get("results").get(0);
        assertEquals(70.0, cr.get("composedEpsilon").asDouble(), 1e-12);
        assertEquals(res.get("log10Delta").asDouble() + 1, cr.get("log10ComposedDelta").asDouble(), 1e-12);
    }

    /**
     * Three categories from vote counts: the 2020 states' Biden, Trump and other votes, the same as the hull given inline, also
     * with the counts written in groups of three.
     */
    @Test
    void threeVoteColumnsGiveThreeCategoryDistributions(@TempDir Path tmp) throws Exception {
        String states = root().resolve("datasets/examples/president_2020_states_three_way.csv").toString();
        Run r = run("smoothed", "--n", "12", "--eta", "0.9", "--epsilon", "1,3", "--distributions-from-votes", states, "--votes-columns",
                "biden,trump,other", "--label-column", "state_po", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode hull = r.json().get("hull");
        assertEquals(51, hull.get("inputDistributions").asInt());
        List<String> labels = new ArrayList<>();
        hull.get("labels").forEach(l -> labels.add(l.asText()));
        assertEquals(List.of("AK", "DC", "FL", "VT", "WV", "WY"), labels);
        JsonNode dc = hull.get("vertices").get(1);
        assertEquals(3, dc.size());
        double total = 317323 + 18586 + 8447;
        assertEquals(317323 / total, dc.get(0).asDouble(), 1e-16);
        assertEquals(18586 / total, dc.get(1).asDouble(), 1e-16);
        assertEquals(8447 / total, dc.get(2).asDouble(), 1e-16);
        // the same vertices given as --distributions: the same delta_SDP, digit for digit
        StringBuilder inline = new StringBuilder();
        for (JsonNode v : hull.get("vertices")) {
            inline.append(inline.length() > 0 ? ";" : "").append(v.get(0).asText()).append(',').append(v.get(1).asText()).append(',').append(v.get(2).asText());
        }
        Run same = run("smoothed", "--n", "12", "--eta", "0.9", "--epsilon", "1,3", "--distributions", inline.toString(), "--json");
        assertEquals(0, same.exitCode(), same.err());
        for (int i = 0; i < 2; i++) {
            JsonNode a = r.json().get("results").get(i);
            assertEquals(a.get("delta").asDouble(), same.json().get("results").get(i).get("delta").asDouble(), 0);
            assertTrue(a.get("delta").asDouble() > 0 && a.get("delta").asDouble() <= a.get("dpDelta").asDouble(), a.toString());
        }
        // counts as some offices publish them, in groups of three ("1,089,300" quoted): the same hull
        List<String> lines = Files.readAllLines(Path.of(states));
        List<String> grouped = new ArrayList<>(List.of(lines.get(0)));
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split(",");
            grouped.add(c[0] + "," + String.format(Locale.ROOT, "\"%,d\"", Long.parseLong(c[1])) + "," + c[2] + "," + c[3]);
        }
        assertTrue(grouped.contains("AL,\"849,624\",1441170,32488"), grouped.toString());
        Path groupedFile = Files.write(tmp.resolve("grouped.csv"), grouped);
        Run g = run("smoothed", "--n", "12", "--eta", "0.9", "--epsilon", "1,3", "--distributions-from-votes", groupedFile.toString(), "--votes-columns",
                "biden,trump,other", "--label-column", "state_po", "--json");
        assertEquals(0, g.exitCode(), g.err());
        assertEquals(hull.get("vertices"), g.json().get("hull").get("vertices"));
        Path broken = Files.write(tmp.resolve("broken.csv"), List.of(lines.get(0), lines.get(1), "XX,\"1,23\",5,6"));
        Run b = run("smoothed", "--n", "12", "--eta", "0.9", "--epsilon", "1", "--distributions-from-votes", broken.toString(), "--votes-columns",
                "biden,trump,other", "--label-column", "state_po");
        assertEquals(2, b.exitCode(), b.err());
        assertTrue(b.err().startsWith("error: --distributions-from-votes = row 3 column biden = '1,23': vote counts must be non-negative numbers"), b.err());
        for (String cols : new String[] {"biden", "biden,biden", "biden,trump,biden"}) {
            Run bad = run("smoothed", "--n", "12", "--eta", "0.9", "--epsilon", "1", "--distributions-from-votes", states, "--votes-columns", cols);
            assertEquals(2, bad.exitCode(), bad.err());
            assertTrue(bad.err().startsWith("error: --votes-columns = " + cols + ": must name two or more different columns"), bad.err());
        }
    }

    /**
     * The 2020 states' three-way hull: the regions of assignments that bind lie near Florida (at least n - K of the records on
     * it), where each region's smallest count's extra over G goes in levels. At n = 3e4, eps 0.5 the log10 gap is 3.0e-7 (7.6 s
     * as a user runs it), one region's bound made smaller by the levels. (At n = 5e4 the gap is 2.5e-7 in 18 s, eight bounds
     * made smaller, and with that extra taken at one Chernoff count it was 3.6e-3; at n = 1e5, eps 0.5, where two regions' split
     * parts all stayed above the lower bound until bounded again on more budget, 8.1e-5, and at 3e5, eps 2, 2.3e-9: 61 and 46 s,
     * measured as a user runs them, not here.)
     */
    @Test
    void theStatesHullClosesWhereTheRegionsThatBindGetTheBudget() {
        SparkLine.checkedOnSpark35Only("the bounds' arithmetic on the driver");
        String states = root().resolve("datasets/examples/president_2020_states_three_way.csv").toString();
        Run r = run("smoothed", "--n", "30000", "--eta", "0.998", "--epsilon", "0.5", "--distributions-from-votes", states, "--votes-columns",
                "biden,trump,other", "--label-column", "state_po", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode x = r.json().get("results").get(0);
        assertEquals(-0.240506031, x.get("log10LowerDelta").asDouble(), 1e-8, x.toString());
        assertTrue(x.get("log10Gap").asDouble() <= 1e-5, x.toString());
        assertTrue(x.get("method").asText().contains("regions"), x.get("method").asText());
        assertTrue(x.get("method").asText().matches(".*taken over levels of its distribution.*\\(([1-9][0-9]*) bounds made smaller so\\).*"),
                x.get("method").asText());
    }

    /** Only profile computes Algorithm 4's noise: the other commands neither offer nor accept --noise. */
    @Test
    void noiseIsOfferedOnlyWhereItIsComputed() {
        for (String c : new String[] {"smoothed", "smoothed-sweep", "utility"}) {
            Run h = run(c, "--help");
            assertEquals(0, h.exitCode());
            assertTrue(!h.out().contains("--noise"), c + " --help offers --noise");
        }
        Run r = run("smoothed", "--n", "20", "--lost", "1", "--epsilon", "1", "--distributions", "0.5,0.5", "--noise", "exponential");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("Unknown options: '--noise'"), r.err());
        assertTrue(run("profile", "--help").out().contains("--noise-epsilon"));
    }

    @Test
    void symmetricFoldIsExplicit() {
        Run r = run("smoothed", "--n", "1000", "--eta", "0.998", "--rounding", "round", "--epsilon", "1",
                "--distributions-from-votes", root().resolve("datasets/smoothed_dp_paper_election_history_1900_2020.csv").toString(),
                "--votes-columns", "votes_a,votes_b", "--label-column", "year", "--symmetric", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode hull = r.json().get("hull");
        assertTrue(hull.get("method").asText().startsWith("symmetric"));
        assertEquals(0.5, hull.get("vertices").get(0).get(0).asDouble(), 0);
        assertEquals("1924 (folded)", hull.get("labels").get(1).asText()); // Coolidge 65.2 % of the two-party vote, the most lopsided year
    }

    @Test
    void aTwelveEpsilonSweepPlotsTwelveColoursAndItsLegendBesideThePlot(@TempDir Path tmp) throws Exception {
        Run r = run("smoothed-sweep", "--n", "600,1200", "--eta", "0.99", "--epsilon", "0.1,0.5,1:1:10", "--distributions", "0.3,0.7;0.9,0.1",
                "--out", tmp.resolve("s").toString());
        assertEquals(0, r.exitCode(), r.err());
        JsonNode fig = PlotAssertions.figure(tmp.resolve("s/smoothed-sweep.png"));
        List<String> eps = new ArrayList<>();
        for (String e : new String[] {"0.1", "0.5", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}) {
            eps.add("eps = " + e);
        }
        List<String> all = new ArrayList<>(eps);
        all.add("1/n");
        all.add("DP delta (any eps)");
        assertEquals(all, PlotAssertions.names(fig));
        PlotAssertions.distinctColours(fig, eps);
        // neighbouring eps are told apart by more than colour: every eps its own marker and dash
        Set<Integer> variants = new HashSet<>();
        for (String e : eps) {
            variants.add(PlotAssertions.series(fig, e).get("variant").asInt());
        }
        assertEquals(eps.size(), variants.size());
        // the title carries the setting: the sampling and where Pi comes from
        assertTrue(fig.get("title").asText().contains("eta = 0.99") && fig.get("title").asText().contains("given distributions"), fig.get("title").asText());
        assertEquals("log10", fig.get("y").get("scale").asText());
        assertEquals("linear", fig.get("x").get("scale").asText(), "n spans less than two decades");
        JsonNode rows = run("smoothed-sweep", "--n", "600,1200", "--eta", "0.99", "--epsilon", "0.1", "--distributions", "0.3,0.7;0.9,0.1", "--json")
                .json().get("rows");
        assertEquals(rows.get(1).get("log10Delta").asDouble(),
                PlotAssertions.series(fig, "eps = 0.1").get("points").get(1).get(1).asDouble(), 1e-12);
    }

    @Test
    void sweepResumesWithIdenticalOutput(@TempDir Path tmp) throws Exception {
        String[] args = {"smoothed-sweep", "--n", "600:200:1200", "--eta", "0.99", "--epsilon", "0.5,2", "--distributions", "0.3,0.7;0.9,0.1",
                "--json", "--out", tmp.resolve("a").toString()};
        Run full = run(args);
        assertEquals(0, full.exitCode(), full.err());
        assertEquals(8, full.json().get("rows").size());
        assertTrue(Files.exists(tmp.resolve("a/smoothed-sweep.png")) && Files.exists(tmp.resolve("a/results.parquet/_SUCCESS")));
        assertFalse(Files.exists(tmp.resolve(".a.work")), "work folder removed after success");
        // simulate a crash after two n: their results are in the work folder, the output is not written
        Path work = tmp.resolve(".b.work");
        Files.createDirectories(work);
        String[] argsB = args.clone();
        argsB[argsB.length - 1] = tmp.resolve("b").toString();
        // a first run that fails on its third n would leave exactly this: run the first two n alone into the work folder
        Run partial = run("smoothed-sweep", "--n", "600:200:800", "--eta", "0.99", "--epsilon", "0.5,2", "--distributions", "0.3,0.7;0.9,0.1",
                "--json", "--out", tmp.resolve("p").toString());
        assertEquals(0, partial.exitCode());
        JsonNode prow = partial.json().get("rows");
        // the work folder's key (parameters and input hashes) and, in every stage file, its SHA-256
        String key = "{\"parameters\":" + parametersOf(full.json()) + ",\"inputs\":{}}";
        Files.writeString(work.resolve("parameters.json"), key);
        String hash = InputFiles.sha256(key.getBytes(StandardCharsets.UTF_8));
        Files.writeString(work.resolve("n=600.json"), "{\"key\":\"" + hash + "\",\"rows\":[" + prow.get(0) + "," + prow.get(1) + "]}");
        Files.writeString(work.resolve("n=800.json"), "{\"key\":\"" + hash + "\",\"rows\":[" + prow.get(2) + "," + prow.get(3) + "]}");
        Run resumed = run(argsB);
        assertEquals(0, resumed.exitCode(), resumed.err());
        assertTrue(resumed.err().contains("(2 resumed)"), resumed.err() + "\nwork: " + work);
        JsonNode a = full.json().get("rows");
        JsonNode b = resumed.json().get("rows");
        for (int i = 0; i < a.size(); i++) {
            ((ObjectNode) a.get(i)).remove("seconds");
            ((ObjectNode) b.get(i)).remove("seconds");
        }
        assertEquals(a, b);
    }

    @Test
    void smoothedWritesCsvJsonAndParquet(@TempDir Path tmp) {
        Path out = tmp.resolve("s");
        Run r = run("smoothed", "--n", "200", "--lost", "4", "--epsilon", "1,2", "--distributions", "0.3,0.7;0.8,0.2", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(Files.exists(out.resolve("_SUCCESS")) && Files.exists(out.resolve("result.json")) && Files.exists(out.resolve("results.csv")));
        assertEquals(2, spark.read().parquet(out.resolve("results.parquet").toString()).count());
    }

    static String parametersOf(JsonNode result) {
        return Json.write(result.get("parameters"));
    }

    @Test
    void badInputIsNamed() {
        String[][] cases = {
                {"smoothed", "--n", "100", "--eta", "0.9", "--epsilon", "1", "--distributions", "0.3,0.6"},
                {"smoothed", "--n", "100", "--eta", "0.9", "--epsilon", "1", "--distributions", "-0.1,1.1"},
                {"smoothed", "--n", "0", "--eta", "0.9", "--epsilon", "1", "--distributions", "0.3,0.7"},
                {"smoothed", "--n", "5000000000", "--eta", "0.9", "--epsilon", "1", "--distributions", "0.2,0.3,0.5;0.6,0.3,0.1"},
                {"smoothed", "--n", "100", "--eta", "0.9", "--epsilon", "1", "--distributions-file", "/nonexistent.csv"},
                {"smoothed-sweep", "--n", "100:-1:50", "--eta", "0.9", "--epsilon", "1", "--distributions", "0.3,0.7"},
                {"smoothed", "--n", "100", "--eta", "0.9", "--epsilon", "1", "--distributions", "0.3,0.7", "--refine-seconds", "0"},
                {"smoothed", "--n", "100", "--eta", "0.9", "--epsilon", "1", "--distributions-from-precincts", "/nonexistent-folder",
                    "--refine-seconds", "NaN"},
                {"smoothed-sweep", "--n", "100", "--eta", "0.9", "--epsilon", "1", "--distributions", "0.3,0.7", "--refine-seconds", "1e9"},
                // an estimate of minutes: the missing returns are the one line, no estimate before them
                {"smoothed", "--n", "1000000", "--lost", "2000", "--epsilon", "1", "--distributions-from-precincts", "/nonexistent-folder",
                    "--candidates", "Joseph R. Biden,Donald J. Trump,Jo Jorgensen"},
        };
        String[] named = {"--distributions", "--distributions", "--n", "--n", "--distributions-file", "--n", "--refine-seconds", "--refine-seconds",
            "--refine-seconds", "--distributions-from-precincts"};
        for (int i = 0; i < cases.length; i++) {
            Run r = run(cases[i]);
            assertEquals(2, r.exitCode(), String.join(" ", cases[i]) + "\n" + r.err());
            assertTrue(r.err().startsWith("error: " + named[i]), r.err());
        }
    }
}
