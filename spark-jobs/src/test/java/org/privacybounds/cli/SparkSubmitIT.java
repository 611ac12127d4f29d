package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.testing.ShortRuns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The shaded jar run the way spark-submit runs it: Spark's own
 * {@code org.apache.spark.deploy.SparkSubmit} from the Spark jars alone (no project classes, no
 * project libraries on its classpath), {@code --master local[2]}, {@code --class} our CLI.
 */
class SparkSubmitIT {
    record Result(int code, String out, String err) {
    }

    static Result submit(Path work, String... args) throws IOException, InterruptedException {
        String jar = System.getProperty("privacybounds.jar");
        String sparkCp = Files.readString(Path.of(System.getProperty("privacybounds.sparkClasspath"))).trim();
        List<String> cmd = ShortRuns.java(System.getProperty("privacybounds.addOpens").trim().split("\\s+"));
        cmd.addAll(List.of("-cp", sparkCp, "org.apache.spark.deploy.SparkSubmit",
                "--master", "local[2]", "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
                "--class", "org.privacybounds.cli.Main", jar));
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile());
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        File out = work.resolve("stdout.txt").toFile();
        File err = work.resolve("stderr.txt").toFile();
        pb.redirectOutput(out).redirectError(err);
        Process p = pb.start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("spark-submit did not finish in 5 minutes");
        }
        return new Result(p.exitValue(), Files.readString(out.toPath(), StandardCharsets.UTF_8), Files.readString(err.toPath(), StandardCharsets.UTF_8));
    }

    static Path root() {
        return Path.of(System.getProperty("privacybounds.root")).toAbsolutePath().normalize();
    }

    @Test
    void profileUnderSparkSubmit(@TempDir Path work) throws Exception {
        Result r = submit(work, "profile", "--counts", "1000,1000", "--eta", "0.998", "--epsilon", "0.0400053346136992", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(0.361877279068545, j.get("results").get(0).get("delta").asDouble(), 1e-14);
    }

    @Test
    void electionHistoryUnderSparkSubmitWritesEverything(@TempDir Path work) throws Exception {
        Path out = work.resolve("fig1");
        Result r = submit(work, "election-history", "--data", root().resolve("datasets/smoothed_dp_paper_election_history_1900_2020.csv").toString(),
                "--years", "1920:2020", "--json", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode rows = new ObjectMapper().readTree(r.out()).get("rows");
        assertEquals(26, rows.size());
        assertTrue(rows.get(25).get("log10Delta").asDouble() < -31);
        for (String f : new String[] {"_SUCCESS", "result.json", "rows.csv", "election-history.png", "rows.parquet/_SUCCESS"}) {
            assertTrue(Files.exists(out.resolve(f)), f);
        }
    }

    @Test
    void badInputExitsTwoUnderSparkSubmit(@TempDir Path work) throws Exception {
        Result r = submit(work, "profile", "--counts", "5,-1", "--eta", "0.5", "--epsilon", "1");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("error: --counts"), r.err());
    }
}
