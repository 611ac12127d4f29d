package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privacybounds.testing.ShortRuns;
import org.privacybounds.testing.SparkLine;

/**
 * The launcher as users call it: through a symlink, from any folder, default data from the installation; and an
 * interrupted run (SIGINT) exits 130 with one line, leaving no partial output and no scratch folder.
 */
class LauncherIT {
    static Path work;

    record Result(int code, String out, String err) {
    }

    static Path root() {
        return Path.of(System.getProperty("privacybounds.root")).toAbsolutePath().normalize();
    }

    @BeforeAll
    static void folders() throws IOException {
        work = Path.of(System.getProperty("privacybounds.target")).resolve("launcher-it");
        if (Files.exists(work)) {
            try (Stream<Path> s = Files.walk(work)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Files.createDirectories(work.resolve("elsewhere"));
    }

    static Process start(Path launcher, Path dir, String tag, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(launcher.toString());
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        pb.environment().put("TMPDIR", work.resolve("tmp").toString());
        pb.environment().put("PRIVACY_BOUNDS_JAVA_OPTS", ShortRuns.javaOpts("-Djava.io.tmpdir=" + work.resolve("tmp")));
        return pb.redirectOutput(work.resolve(tag + ".out").toFile()).redirectError(work.resolve(tag + ".err").toFile()).start();
    }

    static Result finish(Process p, String tag) throws Exception {
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(tag + " did not finish in 5 minutes");
        }
        return new Result(p.exitValue(), Files.readString(work.resolve(tag + ".out"), StandardCharsets.UTF_8),
                Files.readString(work.resolve(tag + ".err"), StandardCharsets.UTF_8));
    }

    @Test
    void worksThroughASymlinkFromAnyFolder() throws Exception {
        SparkLine.checkedOnSpark35Only("the launcher's own path resolution");
        Files.createDirectories(work.resolve("tmp"));
        Path link = work.resolve("bin/pb");
        Files.createDirectories(link.getParent());
        Files.createSymbolicLink(link, root().resolve("scripts/privacy-bounds"));
        // election-history without --data reads the installation's datasets/, not ./datasets
        Result r = finish(start(link, work.resolve("elsewhere"), "symlink", "election-history", "--years", "2000:2020", "--json"), "symlink");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\"year\":2020"), r.out());
        Result t = finish(start(link, work.resolve("elsewhere"), "table1", "pufferfish-sensitivity", "--table1", "--json"), "table1");
        assertEquals(0, t.code(), t.err());
        assertFalse(t.err().contains("\u001b["), "no ANSI colour codes on stderr: " + t.err());
    }

    @Test
    void anInterruptedRunExits130WithOneLineAndNothingPartial() throws Exception {
        assumeFalse(sigintIgnored(), "SIGINT is ignored here (the build was started in the background by a non-interactive shell),"
                + " and so in the launcher it starts: there is nothing to interrupt");
        Path tmp = Files.createDirectories(work.resolve("tmp"));
        Path out = work.resolve("elsewhere/sweep");
        Process p = start(root().resolve("scripts/privacy-bounds"), work.resolve("elsewhere"), "sigint", "smoothed-sweep", "--n", "100000:100000:3000000",
                "--lost", "100", "--epsilon", "0.5,1", "--distributions", "0.9,0.1;0.5,0.5", "--out", out.toString());
        // wait for the first finished n, then Ctrl-C
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (!Files.readString(work.resolve("sigint.err")).contains("1/30 n = 100000 done") && System.nanoTime() < deadline && p.isAlive()) {
            Thread.sleep(200);
        }
        new ProcessBuilder("kill", "-INT", Long.toString(javaChild(p))).start().waitFor();
        Result r = finish(p, "sigint");
        assertEquals(130, r.code(), r.err());
        List<String> errors = r.err().lines().filter(l -> l.startsWith("error") || l.contains("interrupted") || l.contains("Exception")).toList();
        assertEquals(1, errors.size(), r.err());
        assertTrue(errors.get(0).startsWith("privacy-bounds: interrupted"), r.err());
        assertFalse(Files.exists(out), "no partial output");
        try (Stream<Path> s = Files.list(out.getParent())) {
            assertTrue(s.noneMatch(f -> f.getFileName().toString().startsWith(".sweep.tmp-")), "no temporary folder left");
        }
        try (Stream<Path> s = Files.list(tmp)) {
            assertTrue(s.noneMatch(f -> f.getFileName().toString().startsWith("privacy-bounds-run-")), "no scratch folder left");
        }
        // what finished is kept for a rerun
        assertTrue(Files.isDirectory(out.resolveSibling(".sweep.work")));
    }

    /**
     * Whether this process ignores SIGINT (Linux: mask 0x2, signal 2, of SigIgn in /proc/self/status), as everything started with {@code &}
     * from a non-interactive shell does; the launcher's JVM inherits it and installs no handler. False where that is unknown.
     */
    private static boolean sigintIgnored() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        return Files.readAllLines(status).stream().filter(l -> l.startsWith("SigIgn:"))
                .anyMatch(l -> (Long.parseUnsignedLong(l.substring(7).trim(), 16) & 2) != 0);
    }

    /** The launcher execs java, so the process is the JVM itself. */
    private static long javaChild(Process p) {
        return p.descendants().filter(h -> h.info().command().orElse("").endsWith("java")).findFirst().map(ProcessHandle::pid).orElse(p.pid());
    }
}
