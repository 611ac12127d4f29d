package org.privacybounds.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * JVM options for the short command runs the integration tests launch through scripts/privacy-bounds. Such a run spends most
 * of its CPU compiling Spark's start-up code with the optimizing compiler it never profits from: with the client compiler
 * alone a precincts run of two counties takes 17 s of CPU instead of 31 s (13.5 s of wall time instead of 17 s on 2 cores).
 * Results do not change (Java 17 floating point is strict on every tier); users keep the JVM's default, which long runs need.
 *
 * <p>Two more savings of start-up work, both for the tests' launches only: the bytecode verifier is off for the class path (the
 * jars are Maven Central's and ours, as built; every test class in the unit tests' JVMs runs with it on), and the launcher's
 * runs share one archive of the classes a Spark job loads (the JVM's dynamic class data sharing), made once per build by a
 * one-county precincts run (about 24 s). A one-county precincts run: 13.0 s with the client compiler alone, 10.2 s without
 * verification, 6.7 s with the archive too (medians of three, 2 cores). The JVM checks the archive against its class path
 * (ours, the Spark line's, anything appended) and silently does without it where it does not match (the spark-submit drivers,
 * whose class path is Spark's alone); without an archive the runs are only slower.
 */
public final class ShortRuns {
    public static final String JAVA_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote";
    private static final String QUIET = "-Xlog:cds*=off";
    private static String archiveOpts;

    private ShortRuns() {
    }

    /** {@code more} appended to {@link #JAVA_OPTS} and the class archive's options, for PRIVACY_BOUNDS_JAVA_OPTS. */
    public static String javaOpts(String more) {
        String base = JAVA_OPTS + archiveOpts();
        return more == null || more.isBlank() ? base : base + " " + more;
    }

    /** The archive's options (with a leading space), made on the first call; empty where it could not be made. */
    private static synchronized String archiveOpts() {
        if (archiveOpts == null) {
            archiveOpts = "";
            String target = System.getProperty("privacybounds.target");
            String root = System.getProperty("privacybounds.root");
            if (target != null && root != null) {
                try {
                    // one archive per options and jar: the JVM would silently ignore one made with others
                    String jar = System.getProperty("privacybounds.jar", "");
                    long built = jar.isEmpty() || !Files.exists(Path.of(jar)) ? 0 : Files.getLastModifiedTime(Path.of(jar)).toMillis();
                    String key = Integer.toHexString((JAVA_OPTS + "|" + jar + "|" + built).hashCode());
                    Path jsa = Path.of(target, "short-runs-" + key + ".jsa").toAbsolutePath();
                    if (!Files.exists(jsa) && !dump(Path.of(root).toAbsolutePath().normalize(), jsa)) {
                        return archiveOpts;
                    }
                    archiveOpts = " -XX:SharedArchiveFile=" + jsa + " " + QUIET;
                } catch (Exception e) {
                    // no archive: the runs take their usual time
                }
            }
        }
        return archiveOpts;
    }

    private static boolean dump(Path root, Path jsa) throws Exception {
        Path dir = Files.createDirectories(jsa.resolveSibling("short-runs"));
        Path partial = dir.resolve("archive.jsa");
        Files.deleteIfExists(partial);
        String county = "datasets/pa_2020_general_precincts/20201103__pa__general__warren__precinct.csv";
        ProcessBuilder pb = new ProcessBuilder(root.resolve("scripts/privacy-bounds").toString(), "precincts", "--data",
                root.resolve(county).toString(), "--candidates", "Joseph R. Biden,Donald J. Trump", "--sample-fraction", "0.5",
                "--epsilon", "1", "--out", dir.resolve("out").toString(), "--overwrite")
                .redirectOutput(dir.resolve("dump.out").toFile()).redirectError(dir.resolve("dump.err").toFile());
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        pb.environment().put("PRIVACY_BOUNDS_JAVA_OPTS", JAVA_OPTS + " -XX:ArchiveClassesAtExit=" + partial + " " + QUIET);
        Process p = pb.start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return false;
        }
        if (p.exitValue() != 0 || !Files.exists(partial)) {
            return false;
        }
        Files.move(partial, jsa, StandardCopyOption.ATOMIC_MOVE);
        return true;
    }
}
