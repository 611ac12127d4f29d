package org.privacybounds.jobs.common;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.apache.spark.sql.SparkSession;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What {@code manifest.json} records about a run: the command, its parameters (every option that
 * can change a result, defaults included), how it was executed, versions, the git commit the jar
 * was built from, start and end time, per-stage timings and row counts. Input files are recorded by
 * content ({@link #inputs()}), not by path. Two runs with equal {@link #parameters()} and input contents
 * compute the same result, which is what makes a rerun into a finished folder a no-op.
 */
public final class RunRecord {
    /** Options that change how or where a run happens, never what it computes. */
    static final List<String> EXECUTION_OPTIONS = List.of("--out", "--overwrite", "--json", "--master", "--verbose", "--dry-run", "--partitions", "--max-work");

    private final String command;
    private final ObjectNode parameters;
    private final ObjectNode inputs;
    private final ObjectNode execution;
    private final List<String> arguments;
    private final Instant start = Instant.now();
    private final ObjectNode stages = Json.object();
    private long lastMark = System.nanoTime();

    private RunRecord(String command, ObjectNode parameters, ObjectNode inputs, ObjectNode execution, List<String> arguments) {
        this.command = command;
        this.parameters = parameters;
        this.inputs = inputs;
        this.execution = execution;
        this.arguments = arguments;
    }

    /** The record of the command being run, from its parsed options. */
    public static RunRecord of(CommandSpec spec) {
        ObjectNode params = Json.object();
        ObjectNode exec = Json.object();
        Map<String, JsonNode> sorted = new TreeMap<>();
        for (OptionSpec o : spec.options()) {
            if (o.usageHelp() || o.versionHelp()) {
                continue;
            }
            JsonNode v = value(o.getValue());
            if (InputFiles.OPTIONS.contains(o.longestName())) {
                // an input is identified by its content (inputs: path, size, SHA-256), not by how its path was written
                continue;
            }
            if (EXECUTION_OPTIONS.contains(o.longestName())) {
                exec.set(o.longestName().substring(2), v);
            } else {
                sorted.put(o.longestName().substring(2), v);
            }
        }
        sorted.forEach(params::set);
        if (spec.userObject() instanceof EffectiveDefaults d) {
            d.effectiveDefaults(params);
        }
        ObjectNode inputs = Json.object();
        for (OptionSpec o : spec.options()) {
            Object v = o.getValue();
            boolean unread = spec.userObject() instanceof InputsRead r && !r.reads(o.longestName());
            if (InputFiles.OPTIONS.contains(o.longestName()) && v != null && !unread) {
                ObjectNode d = InputFiles.describe(v.toString());
                if (d != null) {
                    inputs.set(o.longestName().substring(2), d);
                }
            }
            if (o.longestName().equals("--correlation") && v instanceof Collection<?> c) {
                for (Object x : c) {
                    String t = String.valueOf(x);
                    ObjectNode d = t.startsWith("file:") ? InputFiles.describe(t.substring(5)) : null;
                    if (d != null) {
                        inputs.set("correlation " + t, d);
                    }
                }
            }
        }
        List<String> args = spec.commandLine().getParseResult() == null ? List.of() : spec.commandLine().getParseResult().originalArgs();
        return new RunRecord(spec.name(), params, inputs, exec, args);
    }

    /**
     * A command whose defaults are decided in code (an option group left out means "the default choice"): it writes the
     * values actually used into the parameters, so that a run with the default and one naming it explicitly are the same run.
     */
    /**
     * A command whose input options are not all read by every run (a folder read only in one mode): the inputs it does not
     * read are neither hashed nor recorded, so that a change to them neither costs time nor makes a finished run look stale.
     */
    public interface InputsRead {
        boolean reads(String option);
    }

    public interface EffectiveDefaults {
        void effectiveDefaults(ObjectNode parameters);
    }

    private static JsonNode value(Object v) {
        if (v == null) {
            return Json.MAPPER.nullNode();
        }
        if (v instanceof Number || v instanceof Boolean) {
            return Json.MAPPER.valueToTree(v);
        }
        if (v instanceof Collection<?> c) {
            ArrayNode a = Json.array();
            c.forEach(x -> a.add(value(x)));
            return a;
        }
        if (v.getClass().isArray()) {
            return Json.MAPPER.valueToTree(v);
        }
        if (v instanceof Enum<?> e) {
            // as typed on the command line: the enum's own label, else its name in lower case
            String label = e.toString();
            return Json.MAPPER.getNodeFactory().textNode(label.equals(e.name()) ? e.name().toLowerCase(Locale.ROOT).replace('_', '-') : label);
        }
        return Json.MAPPER.getNodeFactory().textNode(v.toString());
    }

    public String command() {
        return command;
    }

    /** Every option that can change the result, by name without the leading dashes. */
    public ObjectNode parameters() {
        return parameters;
    }

    /** Per input option: the path, size and SHA-256 of the file (or of every file of the folder) it names. */
    public ObjectNode inputs() {
        return inputs;
    }

    /** Records the seconds since the previous mark (or the start) as stage {@code name}. */
    public void mark(String name) {
        long now = System.nanoTime();
        stages.put(name, (now - lastMark) / 1e9);
        lastMark = now;
    }

    /** The manifest of a finished run whose files are in {@code dir}. */
    ObjectNode manifest(Path dir) throws IOException {
        mark("write");
        ObjectNode m = Json.object();
        m.put("command", command);
        m.set("parameters", parameters);
        m.set("inputs", inputs);
        m.set("execution", execution);
        ArrayNode a = m.putArray("arguments");
        arguments.forEach(a::add);
        m.put("projectVersion", projectVersion());
        Properties git = git();
        m.put("gitCommit", git.getProperty("git.commit.id", "unknown"));
        m.put("gitDirty", Boolean.parseBoolean(git.getProperty("git.dirty", "false")));
        m.put("sparkVersion", org.apache.spark.package$.MODULE$.SPARK_VERSION());
        m.put("javaVersion", System.getProperty("java.version"));
        if (SparkSession.getActiveSession().isDefined()) {
            SparkSession s = SparkSession.getActiveSession().get();
            execution.put("master", s.sparkContext().master());
            m.put("sparkApplicationId", s.sparkContext().applicationId());
        }
        m.put("startTime", start.toString());
        Instant end = Instant.now();
        m.put("endTime", end.toString());
        m.put("seconds", (end.toEpochMilli() - start.toEpochMilli()) / 1e3);
        m.put("jvmUptimeSecondsAtStart", (start.toEpochMilli() - ManagementFactory.getRuntimeMXBean().getStartTime()) / 1e3);
        m.set("stageSeconds", stages);
        ObjectNode rows = m.putObject("rowCounts");
        ArrayNode files = m.putArray("files");
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                String rel = dir.relativize(p).toString().replace('\\', '/');
                if (rel.endsWith(".crc") || rel.contains("/.")) {
                    continue;
                }
                files.add(rel);
                if (rel.endsWith(".csv")) {
                    try (Stream<String> lines = Files.lines(p)) {
                        rows.put(rel, Math.max(0, lines.count() - 1));
                    }
                }
            }
        }
        m.put("units", "seconds are wall-clock; rowCounts are data rows per CSV file (header excluded)");
        return m;
    }

    static String projectVersion() {
        String v = RunRecord.class.getPackage().getImplementationVersion();
        return v == null ? "development build" : v;
    }

    private static Properties git() {
        Properties p = new Properties();
        try (InputStream in = RunRecord.class.getResourceAsStream("/privacy-bounds-git.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // no build information: reported as unknown
        }
        return p;
    }
}
