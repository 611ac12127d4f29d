package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.testing.SparkLine;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.univocity.parsers.csv.CsvParser;
import com.univocity.parsers.csv.CsvParserSettings;

/**
 * What every command writes stays the same, value for value: for each case, the JSON printed on stdout and every file of
 * its --out folder (JSON, the plots' data, CSV, Parquet read back as rows) are compared with the recorded outputs under
 * {@code src/test/resources/golden/}. Only what differs between two runs of the same code is left out: wall-clock times
 * (keys and columns named *seconds*, *time*), the git commit, the Java and Spark versions, Spark's application id, the random names Spark gives its part files, and the
 * paths of the repository and of the output folder (replaced by $ROOT and $OUT). Run with {@code -Dprivacybounds.golden.update=true}
 * to record the outputs of the current code (after checking that a difference is intended).
 */
class GoldenOutputsTest extends SparkTestSession {
    private static final Pattern VARYING = Pattern.compile("(?i).*(seconds|time|timings|elapsed|millis)[a-z]*");
    private static final List<String> RUN_FACTS = List.of("gitCommit", "gitDirty", "sparkVersion", "javaVersion", "projectVersion", "sparkApplicationId");

    @TempDir
    static Path tmp;

    @BeforeAll
    static void onlyOnce() {
        Assumptions.assumeFalse(SparkLine.isSpark4(), "recorded outputs are checked on the Spark 3.5 build");
        System.setProperty("privacybounds.home", root().toString()); // default data files, as the launcher sets it
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                c("profile", "profile", "--counts", "1000,1000", "--eta", "0.998", "--epsilon", "0.0400053346136992,1,7"),
                c("profile-noisy", "profile", "--counts", "12,8", "--sample-size", "2", "--noise", "exponential", "--noise-epsilon", "10",
                        "--epsilon", "1"),
                c("utility", "utility", "--counts", "74216154,81268924", "--eta", "0.998", "--threshold", "0.5,0.51,0.6", "--form", "eq3"),
                c("election-history", "election-history", "--data", "datasets/smoothed_dp_paper_election_history_1900_2020.csv", "--years",
                        "1996:2020", "--lost-fraction", "0.002", "--threshold", "0.51"),
                c("precincts", "precincts", "--data", "datasets/pa_2020_general_precincts/20201103__pa__general__fulton__precinct.csv",
                        "--candidates", "Joseph R. Biden,Donald J. Trump", "--exclude", "Under Votes,Over Votes", "--sample-fraction", "0.5",
                        "--epsilon", "1,2"),
                c("smoothed-large-n", "smoothed", "--n", "100000", "--eta", "0.998", "--epsilon", "0.5,1,2,7", "--distributions-from-votes",
                        "datasets/president_2020_biden_trump_57_jurisdictions_538.csv"),
                c("smoothed-three", "smoothed", "--n", "12", "--lost", "2", "--epsilon", "1", "--distributions",
                        "0.2,0.3,0.5;0.6,0.3,0.1;0.1,0.8,0.1"),
                c("smoothed-three-way-bounds", "smoothed", "--n", "20000", "--eta", "0.998", "--epsilon", "0.5,2", "--distributions-from-votes",
                        "datasets/examples/president_2020_states_three_way.csv", "--votes-columns", "biden,trump,other", "--label-column", "state_po",
                        "--max-work", "600"),
                c("smoothed-sweep", "smoothed-sweep", "--n", "10000:10000:50000", "--eta", "0.998", "--epsilon", "0.5,1,2,7",
                        "--distributions-from-votes", "datasets/president_2020_biden_trump_57_jurisdictions_538.csv"),
                c("quantized-profile", "quantized-profile", "--codes-file", "datasets/examples/batch.csv", "--codes-column", "code",
                        "--epsilon", "1", "--histogram"),
                c("quantized-sgd", "quantized-sgd", "--distributions", "gauss:0:0.12,gauss:0.2:0.12", "--n", "49", "--epsilon", "1",
                        "--trials", "50", "--seed", "42"),
                c("pufferfish-sensitivity", "pufferfish-sensitivity", "--data", "datasets/uci_student_mat.csv", "--value-column", "G3",
                        "--secret-column", "paid", "--scale", "8"),
                c("pabi", "pabi", "--steps", "1:1:20", "--correlation", "const:0.2", "--correlation", "inv", "--alpha", "2", "--sigma", "1",
                        "--step-size", "1"),
                c("darrm-optimize", "darrm-optimize", "--k", "11", "--m", "3", "--epsilon", "0.1", "--delta-mech", "1e-5"),
                c("darrm-verify", "darrm-verify", "--k", "11", "--m", "3", "--epsilon", "0.1", "--family", "sub"),
                c("darrm-aggregate", "darrm-aggregate", "--votes", "datasets/examples/votes.csv", "--k", "11", "--m", "3", "--epsilon",
                        "0.0892", "--delta-mech", "1e-4", "--family", "sub", "--positive-label", "8"),
                c("private-teachers", "private-teachers", "--k", "11", "--m", "3", "--queries", "20,50", "--draws", "3", "--seed", "1"),
                c("dp-sgd-accountant", "dp-sgd-accountant", "--sampling-rate", "0.05", "--noise-multiplier", "0.8", "--steps", "200",
                        "--delta", "1e-6", "--orders", "2:1:16"),
                c("bayes-audit", "bayes-audit", "--n", "10,30", "--epsilon", "0.1,1", "--delta", "1e-6"));
    }

    /** A case: its name, then the command line. */
    private static Arguments c(String name, String... commandLine) {
        return Arguments.of(name, commandLine);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void outputsAreUnchanged(String name, String[] commandLine) throws IOException {
        Path out = tmp.resolve(name);
        List<String> args = new ArrayList<>();
        for (String a : commandLine) {
            args.add(a.startsWith("datasets/") ? root().resolve(a).toString() : a);
        }
        args.addAll(List.of("--json", "--out", out.toString()));
        Run r = run(args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.err());

        Map<String, String> got = new TreeMap<>();
        got.put("stdout.json", json(r.out(), out));
        try (Stream<Path> files = Files.walk(out)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                String rel = out.relativize(f).toString();
                String fileName = f.getFileName().toString();
                if (rel.contains(".parquet/") || fileName.endsWith(".png") || fileName.startsWith(".") || fileName.equals("_SUCCESS")) {
                    continue;
                }
                if (fileName.startsWith("part-")) {
                    // a Spark-written folder (precincts.csv/, precincts.json/): its parts' rows, in order, under the folder's name
                    String folder = out.relativize(f.getParent()).toString();
                    String rows = fileName.endsWith(".csv") ? csv(Files.readString(f), out) : paths(Files.readString(f), out);
                    got.merge(folder + ".parts", rows, String::concat);
                    continue;
                }
                String text = Files.readString(f);
                got.put(rel, fileName.endsWith(".json") ? json(text, out) : fileName.endsWith(".csv") ? csv(text, out) : text);
            }
        }
        try (Stream<Path> dirs = Files.list(out)) {
            for (Path d : dirs.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList()) {
                got.put(d.getFileName() + ".rows.json", parquet(d, out));
            }
        }

        if (got.get("stdout.json").equals(got.get("result.json"))) {
            got.put("stdout.json", "the same as result.json\n");
        }
        Path golden = root().resolve("spark-jobs/src/test/resources/golden").resolve(name);
        if (Boolean.getBoolean("privacybounds.golden.update")) {
            Files.createDirectories(golden);
            try (Stream<Path> old = Files.list(golden)) {
                for (Path p : old.toList()) {
                    Files.delete(p);
                }
            }
            for (Map.Entry<String, String> e : got.entrySet()) {
                Files.writeString(golden.resolve(e.getKey().replace('/', '_')), e.getValue());
            }
            return;
        }
        assertTrue(Files.isDirectory(golden), "no recorded outputs for " + name + " (run with -Dprivacybounds.golden.update=true)");
        Map<String, String> want = new TreeMap<>();
        try (Stream<Path> files = Files.list(golden)) {
            for (Path f : files.sorted().toList()) {
                want.put(f.getFileName().toString(), Files.readString(f));
            }
        }
        Map<String, String> gotFlat = new TreeMap<>();
        got.forEach((k, v) -> gotFlat.put(k.replace('/', '_'), v));
        assertEquals(want.keySet(), gotFlat.keySet(), name + ": the files written");
        for (String k : want.keySet()) {
            assertEquals(want.get(k), gotFlat.get(k), name + ": " + k);
        }
    }

    /** JSON with keys in a fixed order, times and run facts dropped, paths replaced. */
    static String json(String text, Path out) throws IOException {
        JsonNode n = Json.MAPPER.readTree(text);
        return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(normalize(n, out)) + "\n";
    }

    static JsonNode normalize(JsonNode n, Path out) {
        if (n.isObject()) {
            ObjectNode sorted = Json.MAPPER.createObjectNode();
            List<String> keys = new ArrayList<>();
            for (Iterator<String> it = n.fieldNames(); it.hasNext();) {
                keys.add(it.next());
            }
            keys.sort(null);
            for (String k : keys) {
                if (VARYING.matcher(k).matches() || RUN_FACTS.contains(k)) {
                    continue;
                }
                sorted.set(paths(k, out), normalize(n.get(k), out));
            }
            return sorted;
        }
        if (n.isArray()) {
            ArrayNode a = Json.MAPPER.createArrayNode();
            n.forEach(e -> a.add(normalize(e, out)));
            return a;
        }
        if (n.isTextual()) {
            return new TextNode(paths(n.asText(), out));
        }
        return n;
    }

    static String paths(String s, Path out) {
        return s.replace(out.toString(), "$OUT").replace(root().toString(), "$ROOT")
                .replaceAll("part-(\\d+)-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", "part-$1-UUID"); // Spark names its part files at random
    }

    /** CSV rows as JSON arrays (parsed, so quoted commas stay in their cell), the columns of times dropped. */
    static String csv(String text, Path out) throws IOException {
        CsvParserSettings settings = new CsvParserSettings();
        settings.setNullValue("");
        settings.setMaxCharsPerColumn(-1);
        List<String[]> rows = new CsvParser(settings).parseAll(new StringReader(text));
        if (rows.isEmpty()) {
            return "";
        }
        String[] header = rows.get(0);
        StringBuilder b = new StringBuilder();
        for (String[] row : rows) {
            ArrayNode a = Json.MAPPER.createArrayNode();
            for (int i = 0; i < row.length; i++) {
                if (i >= header.length || !VARYING.matcher(header[i]).matches()) {
                    a.add(paths(row[i], out));
                }
            }
            b.append(Json.MAPPER.writeValueAsString(a)).append('\n');
        }
        return b.toString();
    }

    /** The rows of a Parquet folder as sorted JSON lines, with the schema first, time columns dropped. */
    static String parquet(Path dir, Path out) {
        Dataset<Row> d = spark.read().parquet(dir.toString());
        List<Column> cols = new ArrayList<>();
        for (String c : d.columns()) {
            if (!VARYING.matcher(c).matches()) {
                cols.add(d.col(c));
            }
        }
        Dataset<Row> kept = d.select(cols.toArray(Column[]::new));
        StringBuilder b = new StringBuilder(kept.schema().treeString()).append('\n');
        List<String> lines = new ArrayList<>(kept.toJSON().collectAsList());
        lines.sort(null); // part files may be listed in any order
        for (String line : lines) {
            b.append(paths(line, out)).append('\n');
        }
        return b.toString();
    }
}
