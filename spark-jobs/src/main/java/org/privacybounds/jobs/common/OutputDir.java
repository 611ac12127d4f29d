package org.privacybounds.jobs.common;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
    private RunLock lock;
    private boolean committed;
    private HadoopLocations.Remote remote;

    /** Output folders open in this process, so that an interrupted run can remove its temporary folders. */
    private static final Set<OutputDir> OPEN = ConcurrentHashMap.newKeySet();

    /** Removes the temporary folder of every uncommitted output and releases its lock (an interrupted run's shutdown). */
    public static void abandonAll() {
        for (OutputDir d : OPEN) {
            d.close();
        }
    }

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
        return begin(spec, common, false);
    }

    /**
     * {@link #begin(CommandSpec, CommonOptions)} for a command that reads its data files after this call (through Spark, or
     * after its --out checks): in a dry run it checks --out and returns null instead of stopping, and the command calls
     * {@link #inputsRead} once every data file is read and checked, which stops the dry run there, before any computing.
     */
    public static OutputDir beginBeforeInputs(CommandSpec spec, CommonOptions common) {
        return begin(spec, common, true);
    }

    /** The end of a dry run of a command that began with {@link #beginBeforeInputs}: every data file has been read and checked. */
    public static void inputsRead(CommandSpec spec, CommonOptions common) {
        if (common.dryRun) {
            throw dryRunDone(RunRecord.of(spec), common, DRY_OUT_STATE.get());
        }
    }

    private static final ThreadLocal<String> DRY_OUT_STATE = ThreadLocal.withInitial(() -> "");

    private static OutputDir begin(CommandSpec spec, CommonOptions common, boolean inputsLater) {
        RunRecord record = RunRecord.of(spec);
        HadoopLocations.Remote remote = common.outText != null && HadoopLocations.isRemote(common.outText)
                ? new HadoopLocations.Remote("--out", common.outText) : null;
        Path local = common.outText == null ? null : remote != null ? remote.staging() : HadoopLocations.local("--out", common.outText);
        if (common.dryRun) {
            String outState = "";
            if (local != null) {
                try {
                    open(local, remote, common.overwrite, record, false, true);
                } catch (EarlyExit finished) {
                    outState = "; --out already holds this result, so the run would be a no-op";
                }
            }
            if (inputsLater) {
                DRY_OUT_STATE.set(outState);
                return null;
            }
            throw dryRunDone(record, common, outState);
        }
        if (local == null) {
            return null;
        }
        return open(local, remote, common.overwrite, record, common.json, false);
    }

    private static EarlyExit dryRunDone(RunRecord record, CommonOptions common, String outState) {
        ObjectNode j = Json.object();
        j.put("command", record.command());
        j.put("dryRun", true);
        j.set("parameters", record.parameters());
        j.put("out", common.outText);
        return new EarlyExit(record.command() + ": dry run: the arguments and every data file they name are valid" + outState
                + "; nothing was computed or written", common.json ? Json.write(j) : Json.pretty(j));
    }

    /**
     * Checks the target (a finished run of the same parameters and inputs ends the command); unless {@code checkOnly}, takes the
     * folder's lock and opens the temporary folder. {@code --overwrite} replaces only a folder this tool wrote (its
     * manifest.json is there) or an empty one: never the current folder, one of its parents, or a user's folder.
     */
    static OutputDir open(Path target, boolean overwrite, RunRecord record, boolean json, boolean checkOnly) {
        return open(target, null, overwrite, record, json, checkOnly);
    }

    /**
     * As {@link #open(Path, boolean, RunRecord, boolean, boolean)}; with a {@code remote} target, {@code target} is its local
     * staging folder: the checks read the remote folder, the run writes the staging folder, and {@link #commit()} publishes it.
     */
    static OutputDir open(Path target, HadoopLocations.Remote remote, boolean overwrite, RunRecord record, boolean json, boolean checkOnly) {
        if (remote == null) {
            checkTarget(target);
        }
        OutputDir d = new OutputDir(target, record);
        d.remote = remote;
        if (!checkOnly) {
            d.lock = RunLock.take(d.target);
        }
        try {
            if (remote != null) {
                d.checkExisting(Location.of(remote), remote.text(), overwrite, json);
                if (!checkOnly && Files.exists(d.target)) {
                    deleteTree(d.target); // a staging folder left by an earlier run on this machine
                }
            } else {
                d.checkExisting(Location.of(d.target), target.toString(), overwrite, json);
            }
        } catch (RuntimeException e) {
            d.releaseLock();
            throw e;
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
            d.releaseLock();
            throw new UserInputException("--out", target, "cannot create the folder (" + e.getMessage() + ")");
        }
        OPEN.add(d);
        return d;
    }

    /** --out must name a folder that can be replaced: not empty, not the current folder or above it, not a file. */
    private static void checkTarget(Path target) {
        if (target.toString().isBlank()) {
            throw new UserInputException("--out", "\"\"", "must name a folder (an empty value, e.g. an unset shell variable, would mean the current folder)");
        }
        Path abs = target.toAbsolutePath().normalize();
        Path cwd = Path.of("").toAbsolutePath().normalize();
        if (abs.getParent() == null || cwd.startsWith(abs)) {
            throw new UserInputException("--out", target, "must not be the current folder or one of its parents; name a new sub-folder");
        }
        if (Files.exists(abs) && !Files.isDirectory(abs)) {
            throw new UserInputException("--out", target, "is a file; --out names a folder");
        }
    }

    /** A folder that may hold an earlier result: local, or on a Hadoop FileSystem. */
    interface Location {
        boolean exists();

        boolean isEmptyFolder();

        /** The text of one of its files, or null. */
        String read(String name);

        static Location of(Path dir) {
            return new Location() {
                @Override
                public boolean exists() {
                    return Files.exists(dir);
                }

                @Override
                public boolean isEmptyFolder() {
                    return OutputDir.isEmptyFolder(dir);
                }

                @Override
                public String read(String name) {
                    Path f = dir.resolve(name);
                    try {
                        return Files.isRegularFile(f) ? Files.readString(f, StandardCharsets.UTF_8) : null;
                    } catch (IOException e) {
                        return null;
                    }
                }
            };
        }

        static Location of(HadoopLocations.Remote r) {
            return new Location() {
                @Override
                public boolean exists() {
                    return r.exists();
                }

                @Override
                public boolean isEmptyFolder() {
                    return r.isEmptyFolder();
                }

                @Override
                public String read(String name) {
                    return r.read(name);
                }
            };
        }
    }

    private void checkExisting(Location where, String given, boolean overwrite, boolean json) {
        if (!where.exists() || where.isEmptyFolder()) {
            return;
        }
        JsonNode ours = ownManifest(where.read("manifest.json"));
        if (overwrite) {
            if (ours == null) {
                throw new UserInputException("--out", given, "exists and was not written by privacy-bounds (no manifest.json of ours): --overwrite "
                        + "replaces only folders this tool wrote; choose a new folder or remove it yourself");
            }
            return;
        }
        JsonNode m = where.read("_SUCCESS") == null ? null : ours;
        boolean same = m != null && record.command().equals(m.path("command").asText())
                && Json.write(record.parameters()).equals(Json.write(m.get("parameters")));
        if (same && !contents(record.inputs()).equals(contents(m.path("inputs")))) {
            throw new UserInputException("--out", given, "holds a finished run of these parameters whose input files have changed since "
                    + "(see inputs in its manifest.json); add --overwrite to recompute, or choose a new folder");
        }
        if (same) {
            String stored = null;
            String result = json ? where.read("result.json") : null;
            if (result != null) {
                try {
                    stored = Json.write(Json.MAPPER.readTree(result));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            throw new EarlyExit(record.command() + ": " + given + " already holds the finished result of these parameters and inputs (finished "
                    + m.path("endTime").asText() + "); nothing to do (add --overwrite to recompute)", stored);
        }
        throw new UserInputException("--out", given, m != null
                ? "already holds the finished result of other parameters (see its manifest.json); choose a new folder or add --overwrite"
                : ours != null ? "holds an unfinished run of this tool; add --overwrite to replace it, or choose a new folder"
                : "already exists and was not written by privacy-bounds; choose a new folder");
    }

    /** The inputs without their paths: what a result depends on is the files' content. */
    static String contents(JsonNode inputs) {
        ObjectNode c = Json.object();
        inputs.fields().forEachRemaining(e -> {
            JsonNode v = e.getValue().deepCopy();
            if (v instanceof ObjectNode o) {
                o.remove("path");
            }
            c.set(e.getKey(), v);
        });
        return Json.write(c);
    }

    private static boolean isEmptyFolder(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    /** The manifest.json (its text) of a folder this tool wrote (finished or not), or null. */
    private static JsonNode ownManifest(String text) {
        if (text == null) {
            return null;
        }
        try {
            JsonNode j = Json.MAPPER.readTree(text);
            return j != null && j.has("command") && j.has("parameters") && j.has("projectVersion") ? j : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** Where to write a file or a sub-folder of the result. */
    public Path resolve(String name) {
        return temp.resolve(name);
    }

    /** Up to this many rows a table is written on the driver ({@link LocalParquet}), without a Spark job. */
    static final int LOCAL_PARQUET_ROWS = 200_000;

    /**
     * Writes table rows (in schema order) as one Parquet file in folder {@code name}; a
     * non-finite double in a nullable column (e.g. log10 of 0) is written as null. Small tables (and any table when
     * {@code spark} is null) are written on the driver without a Spark job.
     */
    public void writeParquet(SparkSession spark, String name, StructType schema, List<List<Object>> rows) {
        Progress.phase("writing " + name);
        if ((spark == null || rows.size() <= LOCAL_PARQUET_ROWS) && LocalParquet.supports(schema)) {
            LocalParquet.write(resolve(name), schema, rows);
            return;
        }
        if (spark == null) {
            throw new IllegalStateException("a Parquet column type the driver writer does not handle needs a SparkSession: " + schema.simpleString());
        }
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
        Progress.phase("writing " + name);
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

    /** Records the time since the previous mark as stage {@code name} in the manifest (nothing if {@code out} is null). */
    public static void mark(OutputDir out, String name) {
        if (out != null) {
            out.record.mark(name);
        }
    }

    /**
     * Writes {@code manifest.json}, then {@code _SUCCESS}, and renames the temporary folder to the target; a remote target is
     * then published from it through Hadoop's FileSystem. Returns where the result is, as the user named it.
     */
    public String commit() {
        Progress.phase("publishing --out");
        Path local = commitLocally();
        if (remote == null) {
            return local.toString();
        }
        remote.publish(local);
        deleteTree(local);
        return remote.text();
    }

    private Path commitLocally() {
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
    public synchronized void close() {
        if (!committed) {
            try {
                deleteTree(temp);
            } catch (UncheckedIOException e) {
                // best effort: a later run into the same folder removes stale temporaries
            }
        }
        releaseLock();
        OPEN.remove(this);
    }

    private void releaseLock() {
        if (lock != null) {
            lock.close();
            lock = null;
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
     * The hidden work folder {@code .DIR.work} beside the output folder, where a long command keeps what it finished so that a
     * rerun resumes: kept when its parameters and the content hashes of its inputs match, else started afresh (the caller
     * deletes it after the commit). Every stage file carries the key of the work folder it belongs to.
     */
    public Path workDir(ObjectNode params, PrintWriter err, String command) throws IOException {
        Path work = target.resolveSibling("." + target.getFileName() + ".work");
        ObjectNode key = Json.object();
        key.set("parameters", params);
        key.set("inputs", Json.MAPPER.readTree(contents(record.inputs())));
        Path p = work.resolve("parameters.json");
        String want = Json.write(key);
        if (Files.exists(p) && !Files.readString(p).equals(want)) {
            err.println(command + ": an unfinished run with other parameters or inputs was in " + work + "; starting afresh");
            deleteTree(work);
        }
        Files.createDirectories(work);
        Files.writeString(p, want);
        return work;
    }

    /**
     * The rows of a stage finished by an earlier run and kept in the work folder, or null: none, no work folder, a stage of other
     * parameters or inputs, or a damaged file (discarded with a warning, so that the stage is recomputed).
     */
    public static ArrayNode finishedStage(Path work, String name, PrintWriter err) throws IOException {
        Path done = work == null ? null : work.resolve(name + ".json");
        if (done == null || !Files.exists(done)) {
            return null;
        }
        try {
            JsonNode j = Json.MAPPER.readTree(Files.readString(done));
            if (j != null && j.path("key").asText().equals(stageKey(work)) && j.get("rows") instanceof ArrayNode rows) {
                return rows;
            }
            err.println("privacy-bounds: warning: discarding stage " + name + " of the work folder: it belongs to other parameters or inputs");
        } catch (IOException | RuntimeException e) {
            err.println("privacy-bounds: warning: discarding damaged stage file " + done.getFileName() + " (" + e.getClass().getSimpleName()
                    + "); recomputing that stage");
        }
        Files.deleteIfExists(done);
        return null;
    }

    /** Keeps the rows of a finished stage in the work folder, atomically, under the folder's key (nothing without a work folder). */
    public static void keepStage(Path work, String name, ArrayNode rows) throws IOException {
        if (work == null) {
            return;
        }
        ObjectNode stage = Json.object();
        stage.put("key", stageKey(work));
        stage.set("rows", rows);
        Path tmp = work.resolve("." + name + ".json.tmp");
        Files.writeString(tmp, Json.write(stage), StandardCharsets.UTF_8);
        Files.move(tmp, work.resolve(name + ".json"), StandardCopyOption.ATOMIC_MOVE);
    }

    /** SHA-256 of the work folder's parameters.json (its parameters and input hashes). */
    private static String stageKey(Path work) throws IOException {
        return InputFiles.sha256(Files.readAllBytes(work.resolve("parameters.json")));
    }
}
