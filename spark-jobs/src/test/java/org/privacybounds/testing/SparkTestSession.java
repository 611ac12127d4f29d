package org.privacybounds.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.privacybounds.cli.Main;
import org.privacybounds.jobs.common.SparkSessions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The shared test fixture: one {@code local[2]} Spark session per test class (commands join it
 * through {@link SparkSessions#get}), and a runner that captures a command's stdout, stderr and
 * exit code.
 */
public abstract class SparkTestSession {
    protected static SparkSession spark;

    @BeforeAll
    static void startSpark() {
        SparkSessions.quiet();
        spark = SparkSession.builder().master("local[2]").appName("privacy-bounds tests")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "4")
                .getOrCreate();
    }

    @AfterAll
    static void stopSpark() {
        if (spark != null) {
            spark.stop();
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();
            spark = null;
        }
    }

    /** The project root (for datasets/). */
    public static Path root() {
        String r = System.getProperty("privacybounds.root");
        return r == null ? Path.of("..").toAbsolutePath().normalize() : Path.of(r).toAbsolutePath().normalize();
    }

    /** The outcome of one command. */
    public record Run(int exitCode, String out, String err) {
        public JsonNode json() {
            try {
                return new ObjectMapper().readTree(out);
            } catch (Exception e) {
                throw new AssertionError("stdout is not one JSON object: " + out + "\nstderr: " + err, e);
            }
        }
    }

    /** Runs {@code privacy-bounds args...} in this JVM. */
    public static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
