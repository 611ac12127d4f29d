package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.privacybounds.testing.HdfsServer;
import org.privacybounds.testing.S3Server;
import org.privacybounds.testing.ShortRuns;
import org.privacybounds.testing.SparkLine;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The commands against a real HDFS (Hadoop's MiniDFSCluster at this Spark line's Hadoop release) and a real S3 protocol
 * (s3proxy, through Hadoop's s3a connector with the settings a user gives: endpoint, path-style access, credentials of the
 * local server in the environment), run as a user runs them (scripts/privacy-bounds, the connector in
 * PRIVACY_BOUNDS_CLASSPATH, the s3a settings as -Dspark.hadoop.* in PRIVACY_BOUNDS_JAVA_OPTS). For each store: a Spark job
 * (precincts) reads its CSV folder from the store and publishes to it, with _SUCCESS last and a reader that lists the folder
 * all the while never seeing _SUCCESS beside anything but a complete result; a sweep killed mid-run leaves nothing in the
 * store and resumes from its finished n on rerun with the results of an uninterrupted run; then on HDFS its rerun is a no-op
 * and other parameters are refused, and on S3 --overwrite replaces the result (the reader watching). The Spark 4 build keeps
 * the Spark job on HDFS and the killed run with its resume on S3 (see the cases).
 */
class FileSystemsIT {
    static Path work;
    static HdfsServer hdfs;
    static S3Server s3;
    static final String[] COUNTIES = {"warren", "fulton"};
    static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        work = Path.of(System.getProperty("privacybounds.target"), "filesystems-it").toAbsolutePath();
        deleteTree(work);
        Files.createDirectories(work);
        Path jar;
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("privacybounds.target"), "it", "s3proxy"))) {
            jar = s.filter(p -> p.toString().endsWith(".jar")).findFirst().orElseThrow();
        }
        CompletableFuture<S3Server> s3f = CompletableFuture.supplyAsync(() -> {
            try {
                return S3Server.start(jar, work.resolve("s3"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Path server = Path.of(System.getProperty("privacybounds.hdfsServer"));
        hdfs = HdfsServer.start(work.resolve("hdfs"), server.resolve("classes") + File.pathSeparator
                + Files.readString(server.resolve("hdfs-classpath.txt")).trim());
        s3 = s3f.get(2, TimeUnit.MINUTES);
        // the inputs: two counties' precinct returns and the state returns of 2020, in each store
        Path pa = root().resolve("datasets/pa_2020_general_precincts");
        for (String c : COUNTIES) {
            String f = "20201103__pa__general__" + c + "__precinct.csv";
            hdfs.put(pa.resolve(f), "/in/pa/" + f);
            s3.put("in/pa/" + f, pa.resolve(f));
        }
        Path votes = root().resolve("datasets/president_2020_biden_trump_57_jurisdictions_538.csv");
        hdfs.put(votes, "/in/votes.csv");
        s3.put("in/votes.csv", votes);
    }

    @AfterAll
    static void stop() {
        if (hdfs != null) {
            hdfs.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    /** A store under test: how a URI names a path in it, and how the test lists it (path under the folder -> size, time). */
    interface Store {
        String uri(String path);

        Map<String, long[]> list(String folder) throws Exception;

        String read(String file) throws Exception;

        Map<String, String> env();
    }

    static Store store(String name) {
        if (name.equals("hdfs")) {
            return new Store() {
                public String uri(String path) {
                    return hdfs.url() + "/" + path;
                }

                public Map<String, long[]> list(String folder) throws Exception {
                    return hdfs.list("/" + folder);
                }

                public String read(String file) throws Exception {
                    return hdfs.read("/" + file);
                }

                public Map<String, String> env() {
                    return Map.of();
                }
            };
        }
        return new Store() {
            public String uri(String path) {
                return "s3a://" + S3Server.BUCKET + "/" + path;
            }

            public Map<String, long[]> list(String folder) throws Exception {
                Map<String, long[]> out = new TreeMap<>();
                s3.listWithTimes(folder + "/").forEach((k, v) -> out.put(k.substring(folder.length() + 1), v));
                return out;
            }

            public String read(String file) throws Exception {
                return s3.get(file);
            }

            public Map<String, String> env() {
                Map<String, String> e = new HashMap<>();
                try (Stream<Path> jars = Files.list(Path.of(System.getProperty("privacybounds.target"), "it", "s3a"))) {
                    e.put("PRIVACY_BOUNDS_CLASSPATH", String.join(File.pathSeparator, jars.map(Path::toString).sorted().toList()));
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
                e.put("PRIVACY_BOUNDS_JAVA_OPTS", String.join(" ", s3.s3aSettings().stream().map(s -> "-Dspark.hadoop." + s).toList()));
                e.put("AWS_ACCESS_KEY_ID", S3Server.ACCESS_KEY);
                e.put("AWS_SECRET_ACCESS_KEY", S3Server.SECRET_KEY);
                return e;
            }
        };
    }

    record Result(int code, String out, String err) {
    }

    static String[] precincts(String data) {
        return new String[] {"precincts", "--data", data, "--candidates", "Joseph R. Biden,Donald J. Trump,Jo Jorgensen", "--exclude",
            "Under Votes,Over Votes", "--sample-fraction", "0.5", "--epsilon", "0.5,2"};
    }

    static final String[] SWEEP = {"smoothed-sweep", "--n", "2000000:2000000:8000000", "--eta", "0.998", "--epsilon", "0.5,1,2"};

    /** The local runs every store's result is compared with (once per class). */
    static synchronized Path reference(String what, String[] args) throws Exception {
        Path dir = work.resolve("reference-" + what);
        if (!Files.exists(dir.resolve("_SUCCESS"))) {
            Result r = run("reference-" + what, Map.of(), args(args, "--out", dir.toString()));
            assertEquals(0, r.code(), r.err());
        }
        return dir;
    }

    /** A Spark job (precincts) reads its CSV folder from the store and publishes there, _SUCCESS last, watched by a reader. */
    @ParameterizedTest
    @ValueSource(strings = {"hdfs", "s3"})
    void aSparkJobReadsFromTheStoreAndPublishesToIt(String name) throws Exception {
        // on the Spark 4 build S3A (AWS SDK v2) reads and publishes in the killed run's case below; HDFS here on both builds
        Assumptions.assumeFalse(name.equals("s3") && SparkLine.isSpark4(), "S3 is checked on the Spark 4 build by the killed run");
        Store st = store(name);
        Path local = Files.createDirectories(work.resolve("pa-local"));
        for (String c : COUNTIES) {
            String f = "20201103__pa__general__" + c + "__precinct.csv";
            Path to = local.resolve(f);
            if (!Files.exists(to)) {
                Files.copy(root().resolve("datasets/pa_2020_general_precincts").resolve(f), to);
            }
        }
        Path reference = reference("precincts", precincts(local.toString()));
        String out = "runs/" + name + "/pa";
        Reader reader = new Reader(st, out);
        Result first = reader.during(() -> run(name + "-precincts", st.env(), args(precincts(st.uri("in/pa")), "--out", st.uri(out))));
        assertEquals(0, first.code(), first.err());
        Map<String, long[]> published = st.list(out);
        assertTrue(published.containsKey("_SUCCESS"), published.keySet().toString());
        long success = published.get("_SUCCESS")[1];
        published.forEach((f, v) -> assertTrue(v[1] <= success, f + " written after _SUCCESS"));
        assertEquals(Files.readString(reference.resolve("summary.csv")), st.read(out + "/summary.csv"));
        assertEquals(normalized(files(reference)), normalized(published.keySet()));
        reader.assertSawOnly(List.of(sizes(published)));
        assertNoTemporaryFolder(st, name);
    }

    /**
     * A sweep killed mid-run publishes nothing and resumes from its finished n on rerun; on HDFS the rerun of the finished run
     * is a no-op and other parameters are refused in one line, and on S3 --overwrite replaces the result with a reader seeing
     * _SUCCESS only beside a complete old or new result.
     */
    @ParameterizedTest
    @ValueSource(strings = {"hdfs", "s3"})
    void aKilledRunResumesAndRerunsKeepTheContract(String name) throws Exception {
        // one store a build: HDFS on the Spark 3.5 build (with the no-op and the refusal), S3 on the Spark 4 build (with the
        // overwrite, on S3A's AWS SDK v2); the precincts case above reads and publishes through HDFS on both builds and through
        // S3A's SDK v1 on the Spark 3.5 build, and the manifest is read and replaced by the same code on both lines
        Assumptions.assumeFalse(name.equals("hdfs") == SparkLine.isSpark4(),
                "the killed run is checked on HDFS on the Spark 3.5 build and on S3 on the Spark 4 build");
        Store st = store(name);
        Path reference = reference("sweep", args(SWEEP, "--distributions-from-votes",
                root().resolve("datasets/president_2020_biden_trump_57_jurisdictions_538.csv").toString()));
        String out = "runs/" + name + "/sweep";
        String[] sweep = args(SWEEP, "--distributions-from-votes", st.uri("in/votes.csv"), "--out", st.uri(out));
        Process p = start(name + "-sweep-killed", st.env(), sweep);
        try {
            awaitLine(p, name + "-sweep-killed", "smoothed-sweep: 2/4 ");
        } finally {
            p.destroyForcibly(); // the launcher execs the JVM: this kills the run
            p.waitFor(1, TimeUnit.MINUTES);
        }
        assertEquals(Map.of(), st.list(out), "a killed run publishes nothing");
        Reader reader = new Reader(st, out);
        Result rerun = reader.during(() -> run(name + "-sweep-rerun", st.env(), sweep));
        assertEquals(0, rerun.code(), rerun.err());
        assertTrue(rerun.err().matches("(?s).*smoothed-sweep: 4/4 n = 8000000 done \\([2-3] resumed\\).*"), rerun.err());
        assertEquals(Files.readString(reference.resolve("results.csv")), st.read(out + "/results.csv"));
        Map<String, long[]> published = st.list(out);
        assertTrue(published.containsKey("_SUCCESS"));
        reader.assertSawOnly(List.of(sizes(published)));

        String[] other = args(SWEEP, "--distributions-from-votes", st.uri("in/votes.csv"), "--out", st.uri(out), "--rounding", "round");
        if (name.equals("hdfs")) {
            // the same run again: a no-op that leaves the store as it is
            Result again = run(name + "-sweep-again", st.env(), sweep);
            assertEquals(0, again.code(), again.err());
            assertTrue(again.err().contains("already holds the finished result"), again.err());
            assertEquals(times(published), times(st.list(out)));

            // other parameters: refused in one line, the store untouched
            Result refused = run(name + "-sweep-other", st.env(), other);
            assertEquals(2, refused.code(), refused.err());
            // (a connector's bundle may print "SLF4J:" lines of its own shaded logger at start-up, as Hadoop 3.5's s3a does)
            String ours = String.join("\n", refused.err().lines().filter(l -> !l.startsWith("SLF4J: ")).toList());
            assertTrue(ours.startsWith("error: --out = " + st.uri(out) + ": already holds the finished result of other parameters"), refused.err());
            assertEquals(1, ours.strip().lines().count(), refused.err());
            assertEquals(times(published), times(st.list(out)));
            assertNoTemporaryFolder(st, name);
            return;
        }

        // --overwrite replaces it, on S3, whose rename is a copy (the no-op and the refusal read the manifest through the
        // same code on HDFS above, on the other build)
        Reader second = new Reader(st, out);
        Result over = second.during(() -> run(name + "-sweep-overwrite", st.env(), args(other, "--overwrite")));
        assertEquals(0, over.code(), over.err());
        assertEquals("round", JSON.readTree(st.read(out + "/manifest.json")).get("parameters").get("rounding").asText());
        second.assertSawOnly(List.of(sizes(published), sizes(st.list(out))));
        assertNoTemporaryFolder(st, name);
    }

    /** Nothing of a run is left beside its result (the hidden .NAME.tmp-UUID folder it publishes through is gone). */
    static void assertNoTemporaryFolder(Store st, String name) throws Exception {
        List<String> hidden = st.list("runs/" + name).keySet().stream().filter(k -> k.startsWith(".")).toList();
        assertEquals(List.of(), hidden);
    }

    /** Lists a folder of the store every 10 ms while a run publishes to it, keeping every listing that had _SUCCESS. */
    static final class Reader {
        final Store store;
        final String folder;
        final List<Map<String, Long>> withSuccess = new ArrayList<>();
        int listings;

        Reader(Store store, String folder) {
            this.store = store;
            this.folder = folder;
        }

        Result during(Callable<Result> run) throws Exception {
            AtomicBoolean done = new AtomicBoolean();
            Thread t = new Thread(() -> {
                while (!done.get()) {
                    try {
                        Map<String, long[]> l = store.list(folder);
                        listings++;
                        if (l.containsKey("_SUCCESS")) {
                            withSuccess.add(sizes(l));
                        }
                    } catch (Exception e) {
                        // a listing that raced a delete: try again
                    }
                    pause();
                }
            });
            t.start();
            try {
                return run.call();
            } finally {
                done.set(true);
                t.join();
            }
        }

        /**
         * A short pause between listings: a reader that lists without one keeps a core of this 2-core machine busy (its
         * requests and the store's answers) and slows the run it watches; a publication's renames still span many listings.
         */
        static void pause() {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Every listing that showed _SUCCESS was one of the complete results. */
        void assertSawOnly(List<Map<String, Long>> complete) {
            assertTrue(listings > 3, "the reader listed the folder " + listings + " times");
            for (Map<String, Long> l : withSuccess) {
                assertTrue(complete.contains(l), "a reader saw _SUCCESS beside an incomplete result: " + l);
            }
        }
    }

    static Map<String, Long> sizes(Map<String, long[]> l) {
        Map<String, Long> m = new TreeMap<>();
        l.forEach((k, v) -> m.put(k, v[0]));
        return m;
    }

    static Map<String, Long> times(Map<String, long[]> l) {
        Map<String, Long> m = new TreeMap<>();
        l.forEach((k, v) -> m.put(k, v[1]));
        return m;
    }

    /** The files of a local result folder, relative, as the store lists them. */
    static Set<String> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return new TreeSet<>(s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString().replace(File.separatorChar, '/'))
                    .filter(f -> !f.endsWith(".crc")).toList());
        }
    }

    /** File names with Spark's per-job UUID in part files replaced, so two runs' folders compare. */
    static Set<String> normalized(Collection<String> names) {
        return new TreeSet<>(names.stream().map(n -> n.replaceAll("-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-", "-UUID-")).toList());
    }

    static Path root() {
        return Path.of(System.getProperty("privacybounds.root")).toAbsolutePath().normalize();
    }

    static String[] args(String[] a, String... b) {
        return Stream.concat(Arrays.stream(a), Arrays.stream(b)).toArray(String[]::new);
    }

    static Process start(String tag, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(root().resolve("scripts/privacy-bounds").toString());
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(work.resolve(tag + ".out").toFile())
                .redirectError(work.resolve(tag + ".err").toFile());
        pb.environment().putAll(env);
        pb.environment().put("PRIVACY_BOUNDS_JAVA_OPTS", ShortRuns.javaOpts(env.get("PRIVACY_BOUNDS_JAVA_OPTS")));
        return pb.start();
    }

    static Result run(String tag, Map<String, String> env, String... args) throws Exception {
        Process p = start(tag, env, args);
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(tag + " did not finish in 5 minutes");
        }
        return new Result(p.exitValue(), Files.readString(work.resolve(tag + ".out")), Files.readString(work.resolve(tag + ".err")));
    }

    static void awaitLine(Process p, String tag, String prefix) throws Exception {
        Path err = work.resolve(tag + ".err");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline) {
            if (Files.exists(err) && Files.readAllLines(err, StandardCharsets.UTF_8).stream().anyMatch(l -> l.startsWith(prefix))) {
                return;
            }
            if (!p.isAlive()) {
                throw new AssertionError(tag + " ended before '" + prefix + "':\n" + Files.readString(err));
            }
            Thread.sleep(50);
        }
        throw new AssertionError(tag + ": no '" + prefix + "' in 3 minutes");
    }

    static void deleteTree(Path p) throws Exception {
        if (Files.exists(p)) {
            try (Stream<Path> s = Files.walk(p)) {
                for (Path q : s.sorted((a, b) -> b.compareTo(a)).toList()) {
                    Files.delete(q);
                }
            }
        }
    }
}
