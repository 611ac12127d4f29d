package org.privacybounds.jobs.precincts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.smoothed.PrecinctPrivacy;
import org.privacybounds.testing.PlotAssertions;
import org.privacybounds.testing.SparkLine;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * precincts on published county files as they are (headers in other orders, candidate first, thousands separators, another
 * spelling of a candidate), against histograms summed here from the raw rows and core-math's exact values.
 */
class PrecinctsCommandTest extends SparkTestSession {
    static final String[] COUNTIES = {"warren", "chester", "fulton", "cameron"};
    static final String CANDIDATES = "Joseph R. Biden,Donald J. Trump,Jo Jorgensen";
    static final String EXCLUDE = "Under Votes,Over Votes,Overvote,Not Assigned";

    static Path counties(Path tmp) throws Exception {
        return counties(tmp, COUNTIES);
    }

    static Path counties(Path tmp, String... counties) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("pa"));
        for (String c : counties) {
            String name = "20201103__pa__general__" + c + "__precinct.csv";
            Files.copy(root().resolve("datasets/pa_2020_general_precincts").resolve(name), dir.resolve(name));
        }
        return dir;
    }

    static Map<String, long[]> expected(Path dir) throws Exception {
        return PrecinctsCommandTestSupport.byPrecinct(dir);
    }

    @Test
    void everyCountyFileAsPublished(@TempDir Path tmp) throws Exception {
        Path dir = counties(tmp);
        Run r = run("precincts", "--data", dir.toString(), "--candidates", CANDIDATES, "--alias", "Jorgensen/Cohe=Jo Jorgensen", "--exclude", EXCLUDE,
                "--lost-fraction", "0.002", "--epsilon", "0.5,2", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode j = r.json();
        assertEquals("[\"Joseph R. Biden\",\"Donald J. Trump\",\"Jo Jorgensen\",\"other\"]", j.get("categories").toString());
        Map<String, long[]> want = expected(dir);
        JsonNode ps = j.get("precincts");
        assertEquals(want.size(), ps.size());
        assertEquals(want.size(), j.get("precinctCount").asInt());
        PrecinctPrivacy.Setting s = PrecinctPrivacy.Setting.lostFraction(new BigDecimal("0.002"), new double[] {0.5, 2}, 0.51);
        String previous = "";
        int checked = 0;
        for (JsonNode p : ps) {
            String key = p.get("county").asText() + "|" + p.get("precinct").asText();
            assertTrue(key.compareTo(previous) > 0 || previous.isEmpty(), "sorted by county and precinct: " + previous + " then " + key);
            previous = key;
            long[] counts = want.get(key);
            int[] c = new int[4];
            for (int i = 0; i < 4; i++) {
                assertEquals(counts[i], p.get("counts").get(i).asLong(), key);
                c[i] = (int) counts[i];
            }
            if (checked++ % 7 == 0 && p.get("n").asLong() > 0) {
                PrecinctPrivacy.Result e = PrecinctPrivacy.evaluate(c, s);
                assertEquals(e.sampleSize(), p.get("sampleSize").asInt());
                for (int k = 0; k < 2; k++) {
                    JsonNode v = p.get("results").get(k);
                    assertEquals(e.values().get(k).log10Delta(), v.get("log10Delta").asDouble(), 1e-12, key);
                    assertTrue(v.get("relativeErrorBound").asDouble() <= 1e-9);
                    assertTrue(v.get("worstNeighbour").has("from"));
                }
            }
        }
        // Chester writes 1,089 for 1089: read as a count, not refused
        assertTrue(ps.findValuesAsText("county").contains("Chester"));
        // Jorgensen/Cohe is not left in 'other'
        for (JsonNode o : j.get("otherNames")) {
            assertTrue(!o.get("candidate").asText().startsWith("Jorgensen"), o.toString());
        }
        JsonNode all = j.get("summary").get("overall").get(0);
        assertEquals(0.5, all.get("epsilon").asDouble());
        assertTrue(all.get("log10DeltaQuantiles").get("median").asDouble() <= 0);
    }

    @Test
    void theResultDoesNotDependOnPartitions(@TempDir Path tmp) throws Exception {
        SparkLine.checkedOnSpark35Only("our repartitioning's determinism");
        // the three small counties: Chester's 230 precincts, of the four counties' 286, are most of the work
        Path dir = counties(tmp, "warren", "fulton", "cameron");
        String[] base = {"precincts", "--data", dir.toString(), "--candidates", CANDIDATES, "--exclude", EXCLUDE, "--sample-fraction", "0.3", "--epsilon", "1",
            "--json", "--partitions"};
        String one = run(with(base, "1")).out();
        String seven = run(with(base, "7")).out();
        assertTrue(one.contains("\"precincts\":["), one.substring(0, Math.min(200, one.length())));
        assertEquals(one, seven);
    }

    @Test
    void writesFilesAndRefusesBadReturns(@TempDir Path tmp) throws Exception {
        Path dir = counties(tmp);
        Path out = tmp.resolve("out");
        Run r = run("precincts", "--data", dir.toString(), "--candidates", CANDIDATES, "--exclude", EXCLUDE, "--lost-fraction", "0.002", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        for (String f : List.of("result.json", "summary.csv", "precincts.png", "precincts.parquet/_SUCCESS", "precincts.csv/_SUCCESS", "precincts.json/_SUCCESS",
                "manifest.json", "_SUCCESS")) {
            assertTrue(Files.exists(out.resolve(f)), f);
        }
        assertTrue(r.out().contains("(all)"), r.out());
        JsonNode fig = PlotAssertions.figure(out.resolve("precincts.png"));
        assertEquals("log10", fig.get("x").get("scale").asText());
        // bars: each bin's outline is (lo, 0) (lo, c) (hi, c) ... (hi, 0); the bars end at delta = 1 (log10 0) at most
        long plotted = 0;
        JsonNode pts = fig.get("series").get(0).get("points");
        for (int i = 1; i + 1 < pts.size(); i += 2) {
            plotted += pts.get(i).get(1).asLong();
            assertEquals(pts.get(i).get(1).asDouble(), pts.get(i + 1).get(1).asDouble(), 0, "a bar is flat");
            assertEquals(0.25, pts.get(i + 1).get(0).asDouble() - pts.get(i).get(0).asDouble(), 1e-12, "a bar is a quarter decade wide");
        }
        for (JsonNode p : pts) {
            assertTrue(p.get(0).asDouble() <= 0, "delta <= 1: " + p);
        }
        JsonNode result = Json.MAPPER.readTree(out.resolve("result.json").toFile());
        long withBallots = result.get("precinctCount").asLong() - result.get("precinctsWithoutBallots").asLong();
        Matcher m = Pattern.compile("\\(([\\d,]+) precincts(; ([\\d,]+) with delta exactly 0 not drawn)?\\)")
                .matcher(fig.get("series").get(0).get("name").asText());
        assertTrue(m.find(), fig.get("series").get(0).get("name").asText());
        long drawn = Long.parseLong(m.group(1).replace(",", ""));
        long zero = m.group(3) == null ? 0 : Long.parseLong(m.group(3).replace(",", ""));
        assertEquals(drawn, plotted, "every precinct with delta > 0 is in one bar");
        assertEquals(withBallots, drawn + zero, "and with the exact zeros, every precinct with ballots");
        assertTrue(fig.get("title").asText().contains(String.format(Locale.ROOT, "%,d precincts with ballots", withBallots)), fig.get("title").asText());
        assertTrue(fig.get("x").get("max").asDouble() <= 0, "the axis ends at delta = 1");
        // a file of its own with other column names, a count that is not a number, a missing column
        Path own = Files.writeString(tmp.resolve("own.csv"), "Ward,Race,Name,Total,County\n1,Mayor,A,10,X\n1,Mayor,B,7,X\n2,Mayor,A,4,X\n2,Mayor,B,n/a,X\n");
        String[] args = {"precincts", "--data", own.toString(), "--office", "mayor", "--candidates", "A,B", "--precinct-column", "ward", "--office-column", "race",
            "--candidate-column", "name", "--votes-column", "total", "--lost-fraction", "0.1", "--json"};
        Run bad = run(args);
        assertEquals(2, bad.exitCode(), bad.err());
        assertTrue(bad.err().contains("own.csv") && bad.err().contains("'n/a'") && bad.err().contains("precinct '2'"), bad.err());
        Files.writeString(own, Files.readString(own).replace("n/a", "3"));
        Run ok = run(args);
        assertEquals(0, ok.exitCode(), ok.err());
        assertEquals("[4,3,0]", ok.json().get("precincts").get(1).get("counts").toString());
        Run missing = run("precincts", "--data", own.toString(), "--candidates", "A,B", "--lost-fraction", "0.1");
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("--precinct-column = precinct: is not a column of " + own + " "), missing.err()); // the path as given
        Run both = run("precincts", "--data", own.toString(), "--candidates", "A,B", "--lost-fraction", "0.1", "--sample-fraction", "0.5");
        assertEquals(2, both.exitCode());
    }

    /** Pi from the precincts' shares: bounded from both sides when the hull has more vertices than --max-vertices. */
    @Test
    void smoothedTakesPiFromPrecincts(@TempDir Path tmp) throws Exception {
        Path dir = counties(tmp);
        String[] base = {"smoothed", "--n", "6", "--lost", "1", "--epsilon", "1", "--distributions-from-precincts", dir.toString(), "--candidates",
            "Joseph R. Biden,Donald J. Trump", "--exclude", EXCLUDE, "--json"};
        Run bounded = run(with(base, "--max-vertices", "3"));
        assertEquals(0, bounded.exitCode(), bounded.err());
        JsonNode r = bounded.json().get("results").get(0);
        assertTrue(r.get("method").asText().startsWith("bounds:"), r.toString());
        double up = r.get("log10Delta").asDouble();
        double low = r.get("log10LowerDelta").asDouble();
        assertTrue(low <= up + 1e-12, low + " > " + up);
        assertEquals(3, bounded.json().get("hull").get("vertices").size());
        int hullVertices = bounded.json().get("hull").get("hullVertices").asInt();
        assertTrue(hullVertices > 3, "precinct shares of four counties: " + hullVertices + " hull vertices");
        // the exact hull lies between the bounds
        Run exact = run(with(base, "--max-vertices", Integer.toString(hullVertices)));
        assertEquals(0, exact.exitCode(), exact.err());
        double ex = exact.json().get("results").get(0).get("log10Delta").asDouble();
        assertTrue(low <= ex + 1e-12 && ex <= up + 1e-12, low + " <= " + ex + " <= " + up);
        Run sweep = run("smoothed-sweep", "--n", "30:10:40", "--lost", "3", "--epsilon", "1", "--distributions-from-precincts", dir.toString(), "--candidates",
                "A,B");
        assertEquals(2, sweep.exitCode());
    }

    /**
     * Three categories (the two candidates and the rest) from precinct returns at an n beyond every assignment: certified bounds,
     * as from any other source (the check before reading had taken the enumeration's estimate and refused).
     */
    @Test
    void smoothedBoundsThreeCategoriesFromPrecinctsBeyondEveryAssignment(@TempDir Path tmp) throws Exception {
        // (reading Pi from precincts on Spark is checked on both lines by smoothedTakesPiFromPrecincts)
        SparkLine.checkedOnSpark35Only("the bounds from a precinct hull");
        Path dir = counties(tmp);
        Run r = run("smoothed", "--n", "100000", "--lost", "200", "--epsilon", "1", "--distributions-from-precincts", dir.toString(), "--candidates",
                "Joseph R. Biden,Donald J. Trump", "--exclude", EXCLUDE, "--precinct-points", "county", "--refine-seconds", "1", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode x = r.json().get("results").get(0);
        assertTrue(x.get("method").asText().startsWith("bounds (every assignment is beyond --max-work)"), x.toString());
        assertEquals(3, r.json().get("hull").get("vertices").get(0).size(), r.json().get("hull").toString());
        assertTrue(x.get("log10LowerDelta").asDouble() <= x.get("log10Delta").asDouble() + 1e-12, x.toString());
        assertTrue(x.get("log10Gap").asDouble() < 1, x.toString());
        // a folder that is not there: one line naming the option it was given as
        Run missing = run("smoothed", "--n", "100000", "--lost", "200", "--epsilon", "1", "--distributions-from-precincts",
                tmp.resolve("absent").toString(), "--candidates", "Joseph R. Biden,Donald J. Trump");
        assertEquals(2, missing.exitCode(), missing.err());
        assertTrue(missing.err().contains("error: --distributions-from-precincts = " + tmp.resolve("absent")), missing.err());
    }

    private static String[] with(String[] base, String... more) {
        String[] a = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, a, base.length, more.length);
        return a;
    }
}
