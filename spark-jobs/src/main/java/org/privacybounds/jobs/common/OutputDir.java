package org.privacybounds.jobs.common;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Model.CommandSpec;

/**
 * An output folder written atomically: everything goes to a hidden sibling folder, which is
 * renamed to the requested name only when the command succeeded, with {@code manifest.json} and
 * then {@code _SUCCESS} written last. A failed run leaves the requested folder untouched (and
 * removes its temporary folder). A rerun into a finished folder with the same parameters is a
 * no-op unless --overwrite.
 */
public final class OutputDir implements AutoCloseable {
    private final Path target;
    private final Path temp;
    private final RunRecord record;
    private boolean committed;

    private OutputDir(Path target, RunRecord record) {
        this.target = target.toAbsolutePath().normalize();
        this.record = record;
        this.temp = this.target.resolveSibling("." + this.target.getFileName() + ".tmp-" + UUID.randomUUID());
    }

    /**
     * Called by every command once its options are validated and before any work: ends a dry run
     * ({@link EarlyExit}); returns null without --out; ends a rerun into a finished folder of the
     * same command and parameters ({@link EarlyExit}, printing the stored result.json with
     * --json); otherwise checks the target and opens the temporary folder.
     */
    public static OutputDir begin(CommandSpec spec, CommonOptions common) {
        RunRecord record = RunRecord.of(spec);
        if (common.dryRun) {
            String outState = "";
            if (common.out != null) {
                try {
                    open(common.out, common.overwrite, record, false, true);
                } catch (EarlyExit finished) {
                    outState = "; --out already holds this result, so the run would be a no-op";
                }
            }
            ObjectNode j = Json.object();
            j.put("command", record.command());
            j.put("dryRun", true);
            j.set("parameters", record.parameters());
            j.put("out", common.out == null ? null : common.out.toString());
            throw new EarlyExit(record.command() + ": dry run: the arguments are valid" + outState + "; nothing was computed or written",
                    common.json ? Json.write(j) : Json.pretty(j));
        }
        if (common.out == null) {
            return null;
        }
        return open(common.out, common.overwrite, record, common.json, false);
    }

    /** Checks the target (a finished run of the same parameters ends the command); unless {@code checkOnly}, opens the temporary folder. */
    static OutputDir open(Path target, boolean overwrite, RunRecord record, boolean json, boolean checkOnly) {
        OutputDir d = new OutputDir(target, record);
        if (Files.exists(d.target) && !overwrite) {
            JsonNode m = finishedManifest(d.target);
            if (m != null && record.command().equals(m.path("command").asText()) && Json.write(record.parameters()).equals(Json.write(m.get("parameters")))) {
                String stored = null;
                Path result = d.target.resolve("result.json");
                if (json && Files.isRegularFile(result)) {
                    try {
                        stored = Json.write(Json.MAPPER.readTree(result.toFile()));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                throw new EarlyExit(record.command() + ": " + target + " already holds the finished result of these parameters (finished "
                        + m.path("endTime").asText() + "); nothing to do (add --overwrite to recompute)", stored);
            }
            throw new UserInputException("--out", target, m != null
                    ? "already holds the finished result of other parameters (see its manifest.json); choose a new folder or add --overwrite"
                    : "already exists and is not a finished run; choose a new folder or add --overwrite");
        }
        if (checkOnly) {
            return null;
        }
        Path parent = d.target.getParent();
        removeStaleTemporaries(d.target);
        try {
            Files.createDirectories(parent);
            Files.createDirectories(d.temp);
        } catch (IOException e) {
            throw new UserInputException("--out", target, "cannot create the folder (" + e.getMessage() + ")");
        }
        return d;
    }

    /** Where to write a file or a sub-folder of the result. */
    public Path resolve(String name) {
        return temp.resolve(name);
    }

    /**
     * Writes table rows (in schema order) as one Parquet file in folder {@code name}; a
     * non-finite double in a nullable column (e.g. log10 of 0) is written as null.
     */
    public void writeParquet(SparkSession spark, String name, StructType schema, List<List<Object>> rows) {
        StructField[] fields = schema.fields();
        List<Row> out = new ArrayList<>();
        for (List<Object> r : rows) {
            Object[] v = r.toArray();
            for (int i = 0; i < v.length; i++) {
                if (fields[i].nullable() && v[i] instanceof Double d && !Double.isFinite(d)) {
                    v[i] = null;
                }
            }
            out.add(RowFactory.create(v));
        }
        spark.createDataFrame(out, schema).coalesce(1).write().parquet(resolve(name).toUri().toString());
    }

    public void writeString(String name, String content) {
        try {
            Files.writeString(resolve(name), content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Removes the temporary folders a killed run into the same target left behind (one run per
     * --out folder at a time; a killed process cannot clean up after itself).
     */
    private static void removeStaleTemporaries(Path target) {
        String prefix = "." + target.getFileName() + ".tmp-";
        if (!Files.isDirectory(target.getParent())) {
            return;
        }
        try (Stream<Path> s = Files.list(target.getParent())) {
            s.filter(p -> p.getFileName().toString().startsWith(prefix)).forEach(OutputDir::deleteTree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The manifest of a finished folder, or null if it is not one. */
    private static JsonNode finishedManifest(Path dir) {
        Path m = dir.resolve("manifest.json");
        if (!Files.isRegularFile(dir.resolve("_SUCCESS")) || !Files.isRegularFile(m)) {
            return null;
        }
        try {
            return Json.MAPPER.readTree(m.toFile());
        } catch (IOException e) {
            return null;
        }
    }

    /** Records the time since the previous mark as stage {@code name} in the manifest (nothing if {@code out} is null). */
    public static void mark(OutputDir out, String name) {
        if (out != null) {
            out.record.mark(name);
        }
    }

    /** Writes {@code manifest.json}, then {@code _SUCCESS}, and renames the temporary folder to the target. */
    public Path commit() {
        try {
            Files.writeString(temp.resolve("manifest.json"), Json.pretty(record.manifest(temp)) + "\n", StandardCharsets.UTF_8);
            Files.writeString(temp.resolve("_SUCCESS"), "");
            Path old = null;
            if (Files.exists(target)) {
                old = target.resolveSibling("." + target.getFileName() + ".old-" + UUID.randomUUID());
                Files.move(target, old);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target);
            }
            if (old != null) {
                deleteTree(old);
            }
            committed = true;
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (!committed) {
            deleteTree(temp);
        }
    }

    /** Deletes a folder and everything in it (nothing if it does not exist). */
    public static void deleteTree(Path p) {
        if (p == null || !Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(q -> {
                try {
                    Files.deleteIfExists(q);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The hidden work folder {@code .DIR.work} beside an output folder, where a long command keeps
     * what it finished so that a rerun resumes: kept when its parameters match, else started
     * afresh (the caller deletes it after the commit).
     */
    public static Path workDir(Path out, com.fasterxml.jackson.databind.node.ObjectNode params, java.io.PrintWriter err, String command)
            throws IOException {
        Path abs = out.toAbsolutePath().normalize();
        Path work = abs.resolveSibling("." + abs.getFileName() + ".work");
        Path p = work.resolve("parameters.json");
        String want = Json.write(params);
        if (Files.exists(p) && !Files.readString(p).equals(want)) {
            err.println(command + ": an unfinished run with other parameters was in " + work + "; starting afresh");
            deleteTree(work);
        }
        Files.createDirectories(work);
        Files.writeString(p, want);
        return work;
    }

    /** The rows of a stage finished by an earlier run and kept in the work folder, or null (none, or no work folder). */
    public static com.fasterxml.jackson.databind.node.ArrayNode finishedStage(Path work, String name) throws IOException {
        Path done = work == null ? null : work.resolve(name + ".json");
        if (done == null || !Files.exists(done)) {
            return null;
        }
        return (com.fasterxml.jackson.databind.node.ArrayNode) Json.MAPPER.readTree(Files.readString(done));
    }

    /** Keeps the rows of a finished stage in the work folder, atomically (nothing without a work folder). */
    public static void keepStage(Path work, String name, com.fasterxml.jackson.databind.node.ArrayNode rows) throws IOException {
        if (work == null) {
            return;
        }
        Path tmp = work.resolve("." + name + ".json.tmp");
        Files.writeString(tmp, Json.write(rows), StandardCharsets.UTF_8);
        Files.move(tmp, work.resolve(name + ".json"), StandardCopyOption.ATOMIC_MOVE);
    }
}
