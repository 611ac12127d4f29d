package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.privacybounds.testing.ShortRuns;
import org.privacybounds.testing.SparkLine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A real Spark standalone cluster (scripts/cluster-up: a master and two one-core workers on
 * 127.0.0.1) running the shaded jar through scripts/submit, checked against the embedded run
 * (scripts/privacy-bounds, local[2]): election-history and a smoothed-sweep give identical
 * results; a sweep whose worker is killed mid-run still does (Spark retries the lost tasks on the
 * other worker); a sweep whose driver is killed mid-run resumes from its finished n on rerun and
 * again gives identical results (the Spark 3.5 build runs election-history and the killed driver, the Spark 4 build the lost
 * worker). Every process started here is stopped in {@link #stopCluster()}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT {
    static final String[] SWEEP = {"smoothed-sweep", "--n", "40000:40000:200000", "--eta", "0.998", "--epsilon", "0.5,1,2",
        "--distributions-from-votes", root().resolve("datasets/president_2020_biden_trump_57_jurisdictions_538.csv").toString()};
    static final String[] HISTORY = {"election-history", "--data",
        root().resolve("datasets/smoothed_dp_paper_election_history_1900_2020.csv").toString(), "--years", "1920:2020"};

    static Path work;
    static Path clusterDir;
    static String master;
    static int port;

    record Result(int code, String out, String err) {
    }

    static Path root() {
        return Path.of(System.getProperty("privacybounds.root")).toAbsolutePath().normalize();
    }

    static ProcessBuilder script(String name, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(root().resolve("scripts/" + name).toString());
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile());
        pb.environment().put("PB_CLUSTER_DIR", clusterDir.toString());
        pb.environment().put("PB_MASTER_PORT", Integer.toString(port));
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        pb.environment().put("PRIVACY_BOUNDS_JAVA_OPTS", ShortRuns.JAVA_OPTS); // the embedded runs' JVM and the submitted driver's
        pb.environment().put("PB_DAEMON_JAVA_OPTS", ShortRuns.JAVA_OPTS); // the master's and the workers'
        return pb;
    }

    /** Runs a script to the end, stdout and stderr to files named by {@code tag}. */
    static Result run(String tag, String name, String... args) throws IOException, InterruptedException {
        Process p = start(tag, name, args);
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(tag + " did not finish in 5 minutes");
        }
        return result(tag, p);
    }

    static Process start(String tag, String name, String... args) throws IOException {
        return script(name, args).redirectOutput(work.resolve(tag + ".out").toFile()).redirectError(work.resolve(tag + ".err").toFile()).start();
    }

    static Result result(String tag, Process p) throws IOException {
        return new Result(p.exitValue(), Files.readString(work.resolve(tag + ".out"), StandardCharsets.UTF_8),
                Files.readString(work.resolve(tag + ".err"), StandardCharsets.UTF_8));
    }

    static String[] args(String[] base, String... more) {
        return Stream.concat(Stream.of(base), Stream.of(more)).toArray(String[]::new);
    }

    @BeforeAll
    static void startCluster() throws Exception {
        work = Path.of(System.getProperty("privacybounds.target"), "cluster-it").toAbsolutePath().normalize();
        deleteTree(work);
        Files.createDirectories(work);
        clusterDir = work.resolve("cluster");
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Result up = run("cluster-up", "cluster-up");
        assertEquals(0, up.code(), up.err());
        master = up.out().trim();
        assertEquals("spark://127.0.0.1:" + port, master);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (work == null) {
            return;
        }
        Result down = run("cluster-down", "cluster-down");
        assertEquals(0, down.code(), down.err());
        // nothing of the cluster is left running (its JVMs all have the cluster folder on their classpath)
        Thread.sleep(500);
        List<ProcessHandle> left = ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().map(c -> c.contains(clusterDir.toString() + "/spark-home/")).orElse(false)).toList();
        left.forEach(ProcessHandle::destroyForcibly);
        assertTrue(left.isEmpty(), "processes left running: " + left);
    }

    @Test
    @Order(1)
    void electionHistoryOnTheClusterEqualsTheEmbeddedRun() throws Exception {
        // a second command's Dataset path on the cluster: the Spark 4 build checks the cluster with the sweep below (its
        // result, manifest and logging), which keeps CI within its time
        Assumptions.assumeFalse(SparkLine.isSpark4(), "election-history on the cluster is checked on the Spark 3.5 build");
        Result embedded = run("eh-embedded", "privacy-bounds", args(HISTORY, "--master", "local[2]", "--out", "eh-embedded", "--json"));
        assertEquals(0, embedded.code(), embedded.err());
        Result cluster = run("eh-cluster", "submit", args(onCluster(), args(HISTORY, "--out", "eh-cluster", "--json")));
        assertEquals(0, cluster.code(), cluster.err());
        assertFalse(cluster.err().contains(" INFO "), "Spark's INFO logging is off by default:\n" + cluster.err());
        assertEquals(Files.readString(work.resolve("eh-embedded/rows.csv")), Files.readString(work.resolve("eh-cluster/rows.csv")));
        assertEquals(rows(embedded.out()), rows(cluster.out()));
        JsonNode m = manifest("eh-cluster");
        assertEquals(master, m.get("execution").get("master").asText());
        assertEquals(26, m.get("rowCounts").get("rows.csv").asInt());
        assertEquals("local[2]", manifest("eh-embedded").get("execution").get("master").asText());
        assertEquals(manifest("eh-embedded").get("parameters"), m.get("parameters"));
    }

    @Test
    @Order(2)
    void aSweepSurvivesALostWorker() throws Exception {
        // Spark's retry of a lost executor's tasks, and our rows' independence of where they ran: checked on the Spark 4 build,
        // which keeps CI within its time (the Spark 3.5 build kills the driver below)
        Assumptions.assumeTrue(SparkLine.isSpark4(), "a lost worker is checked on the Spark 4 build");
        Result embedded = embeddedSweep();
        Process p = start("sweep-worker-killed", "submit", args(onCluster(), args(SWEEP, "--out", "sweep-worker-killed", "--json")));
        try {
            awaitLine(p, "sweep-worker-killed", "smoothed-sweep: 1/5 ");
            long worker = Long.parseLong(Files.readString(clusterDir.resolve("pids/worker-1.pid")).trim());
            assertTrue(ProcessHandle.of(worker).map(ProcessHandle::destroyForcibly).orElse(false), "worker-1 was running");
            assertTrue(p.waitFor(5, TimeUnit.MINUTES));
        } finally {
            p.destroyForcibly();
        }
        Result killed = result("sweep-worker-killed", p);
        assertEquals(0, killed.code(), killed.err());
        assertTrue(killed.err().contains("Lost executor"), "the worker's executor was lost mid-sweep:\n" + killed.err());
        assertFalse(killed.err().contains(" INFO "), "Spark's INFO logging is off by default:\n" + killed.err());
        assertEquals(master, manifest("sweep-worker-killed").get("execution").get("master").asText());
        assertEquals(Files.readString(work.resolve("sweep-embedded/results.csv")), Files.readString(work.resolve("sweep-worker-killed/results.csv")));
        assertEquals(rows(embedded.out()), rows(killed.out()));
        // cluster-up is idempotent: it restarts the lost worker only
        Result up = run("cluster-up-again", "cluster-up");
        assertEquals(0, up.code(), up.err());
        assertTrue(up.err().contains("master already running") && up.err().contains("worker-2 already running")
                && up.err().contains("worker-1, 1 core(s)"), up.err());
    }

    @Test
    @Order(3)
    void aSweepWhoseDriverDiedResumesOnRerun() throws Exception {
        // the resume is the sweep's own work folder, the same code on both Spark lines (FileSystemsIT kills and resumes a
        // sweep on both, against HDFS and S3): checked on the Spark 3.5 build, which keeps CI within its time
        Assumptions.assumeFalse(SparkLine.isSpark4(), "the driver's resume is checked on the Spark 3.5 build");
        embeddedSweep();
        String[] sweep = args(onCluster(), args(SWEEP, "--out", "sweep-resumed", "--json"));
        Process p = start("sweep-driver-killed", "submit", sweep);
        try {
            awaitLine(p, "sweep-driver-killed", "smoothed-sweep: 2/5 ");
        } finally {
            p.destroyForcibly(); // scripts/submit execs the driver JVM: this kills the driver
            p.waitFor(1, TimeUnit.MINUTES);
        }
        assertFalse(Files.exists(work.resolve("sweep-resumed")), "a killed run leaves no output folder");
        assertTrue(Files.exists(work.resolve(".sweep-resumed.work/n=80000.json")), "finished n are kept for the rerun");
        Result rerun = run("sweep-rerun", "submit", sweep);
        assertEquals(0, rerun.code(), rerun.err());
        assertTrue(rerun.err().matches("(?s).*smoothed-sweep: 5/5 n = 200000 done \\([2-4] resumed\\).*"), rerun.err());
        assertEquals(Files.readString(work.resolve("sweep-embedded/results.csv")), Files.readString(work.resolve("sweep-resumed/results.csv")));
        assertFalse(Files.exists(work.resolve(".sweep-resumed.work")), "the work folder goes once the output is committed");
        try (Stream<Path> s = Files.list(work)) {
            assertTrue(s.noneMatch(f -> f.getFileName().toString().startsWith(".sweep-resumed.tmp-")), "no temporary folder is left");
        }
        // a scheduler's retry of the finished task: a no-op that prints the stored result
        Result again = run("sweep-noop", "submit", sweep);
        assertEquals(0, again.code(), again.err());
        assertTrue(again.err().contains("nothing to do"), again.err());
        assertEquals(rows(rerun.out()), rows(again.out()));
    }

    /** The sweep on the embedded default (local[2]), the result the cluster's runs are compared with. */
    static Result embeddedSweep() throws Exception {
        Result embedded = run("sweep-embedded", "privacy-bounds", args(SWEEP, "--master", "local[2]", "--out", "sweep-embedded", "--json"));
        assertEquals(0, embedded.code(), embedded.err());
        return embedded;
    }

    /** scripts/submit's options for this cluster: its master, and the short runs' JVM options for the executors too. */
    static String[] onCluster() {
        return new String[] {"--master", master, "--conf", "spark.executor.extraJavaOptions=" + ShortRuns.JAVA_OPTS};
    }

    /** Waits until the process's stderr has a line starting with {@code prefix}. */
    static void awaitLine(Process p, String tag, String prefix) throws Exception {
        File err = work.resolve(tag + ".err").toFile();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline) {
            if (err.exists() && Files.readAllLines(err.toPath(), StandardCharsets.UTF_8).stream().anyMatch(l -> l.startsWith(prefix))) {
                return;
            }
            if (!p.isAlive()) {
                throw new AssertionError(tag + " ended before '" + prefix + "':\n" + Files.readString(err.toPath()));
            }
            Thread.sleep(100);
        }
        throw new AssertionError(tag + ": no '" + prefix + "' in 3 minutes");
    }

    /** The result rows without wall-clock fields. */
    static JsonNode rows(String json) throws IOException {
        JsonNode rows = new ObjectMapper().readTree(json).get("rows");
        rows.forEach(r -> ((ObjectNode) r).remove("seconds"));
        return rows;
    }

    static JsonNode manifest(String dir) throws IOException {
        return new ObjectMapper().readTree(work.resolve(dir).resolve("manifest.json").toFile());
    }

    static void deleteTree(Path p) throws IOException {
        if (Files.exists(p)) {
            try (Stream<Path> s = Files.walk(p)) {
                for (Path q : s.sorted((a, b) -> b.compareTo(a)).toList()) {
                    Files.delete(q);
                }
            }
        }
    }
}
