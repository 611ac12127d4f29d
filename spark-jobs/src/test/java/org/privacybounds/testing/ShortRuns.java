package org.privacybounds.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * JVM options for the short command runs the integration tests launch through scripts/privacy-bounds, and for the servers
 * they start (HDFS, s3proxy, the standalone cluster's master and workers: alone, FileSystemsIT took 111 s with those on the
 * JVM's default compilers and 83 s with these, ClusterIT 67 s and 58 s). Such a run spends most
 * of its CPU compiling Spark's start-up code with the optimizing compiler it never profits from: with the client compiler
 * alone a precincts run of two counties takes 17 s of CPU instead of 31 s (13.5 s of wall time instead of 17 s on 2 cores).
 * Results do not change (Java 17 floating point is strict on every tier); users keep the JVM's default, which long runs need.
 * The bytecode verifier is off for the class path too (the jars are Maven Central's and ours, as built; the unit tests' JVMs
 * keep it on): a one-county precincts run takes 10.2 s instead of 13.0 s (medians of three, 2 cores). A class archive shared by
 * the runs (dynamic class data sharing) took it to 6.7 s, but making the archive costs a 24 s run per build, about what the
 * launches gained in CI: not kept.
 */
public final class ShortRuns {
    public static final String JAVA_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote";

    private ShortRuns() {
    }

    /** A command line for a JVM started with {@link #JAVA_OPTS}: this JVM's java, the options, then {@code rest}. */
    public static List<String> java(String... rest) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of(JAVA_OPTS.split(" ")));
        cmd.addAll(List.of(rest));
        return cmd;
    }

    /** {@code more} appended to {@link #JAVA_OPTS}, for PRIVACY_BOUNDS_JAVA_OPTS. */
    public static String javaOpts(String more) {
        return more == null || more.isBlank() ? JAVA_OPTS : JAVA_OPTS + " " + more;
    }
}
