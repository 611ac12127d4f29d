package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.testing.SparkLine;
import org.privacybounds.testing.SparkTestSession;
import org.privacybounds.testing.SparkTestSession.Run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The Airflow DAG without Airflow: python3 imports it against stub Airflow modules (test resources) and prints its tasks
 * with the templates rendered; this test checks the structure (one task per job family, retries, timeouts, SLAs), that
 * every path derives from the two settings (environment or Airflow Variables), that outputs are partitioned by the run
 * date, and that every task's arguments pass the CLI's own validation in --dry-run mode. (python3 only reads the DAG.)
 */
class AirflowDagTest {
    @BeforeAll
    static void onlyOnSpark35() {
        SparkLine.checkedOnSpark35Only("the Airflow DAG");
    }

    static final Path DAG = SparkTestSession.root().resolve("scripts/airflow/privacy_bounds_election_sweep.py");
    static final Path RESOURCES = SparkTestSession.root().resolve("spark-jobs/src/test/resources/airflow");

    static JsonNode tasks(Map<String, String> env, String variablesJson) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("python3", RESOURCES.resolve("render_dag.py").toString(), DAG.toString(), "2026-11-22", variablesJson)
                .redirectErrorStream(true);
        pb.environment().put("PYTHONPATH", RESOURCES.resolve("stubs").toString());
        pb.environment().remove("PRIVACY_BOUNDS_HOME");
        pb.environment().remove("OUTPUT_BASE");
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            Assumptions.abort("python3 is not installed: " + e.getMessage());
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return new ObjectMapper().readTree(out);
    }

    @Test
    void everyPathDerivesFromTheTwoSettings() throws Exception {
        JsonNode tasks = tasks(Map.of("PRIVACY_BOUNDS_HOME", "/srv/pb", "OUTPUT_BASE", "s3a://bucket/pb"), "{}");
        Set<String> commands = new TreeSet<>();
        for (JsonNode t : tasks) {
            assertEquals("/srv/pb/privacy-bounds.jar", t.get("application").asText(), t.toString());
            assertEquals("org.privacybounds.cli.Main", t.get("java_class").asText());
            assertTrue(t.get("retries").asInt() >= 2, t.get("task") + " has retries");
            assertTrue(t.get("sla").asDouble() > 0 && t.get("execution_timeout").asDouble() > 0, t.get("task") + " has an SLA and a timeout");
            assertTrue(t.get("sla").asDouble() >= t.get("execution_timeout").asDouble());
            JsonNode args = t.get("application_args");
            commands.add(args.get(0).asText());
            boolean partitioned = false;
            for (JsonNode a : args) {
                String v = a.asText();
                assertTrue(!v.contains("/opt/privacy-bounds") && !v.contains("/data/privacy-bounds") && !v.contains("{{"), t.get("task") + ": " + v);
                if (v.startsWith("/")) {
                    assertTrue(v.startsWith("/srv/pb/datasets"), v);
                }
                if (v.startsWith("s3a://")) {
                    assertTrue(v.matches("s3a://bucket/pb/[a-z0-9-]+/dt=2026-11-22"), v);
                    partitioned = true;
                }
            }
            assertTrue(partitioned, t.get("task") + " writes to its dt= partition");
        }
        // every job family has a task
        assertEquals(new TreeSet<>(List.of("bayes-audit", "darrm-optimize", "election-history", "pabi", "precincts", "pufferfish-sensitivity",
                "quantized-sgd", "smoothed-sweep")), commands);
        // Airflow Variables win over the environment
        JsonNode v = tasks(Map.of("PRIVACY_BOUNDS_HOME", "/srv/pb"), "{\"privacy_bounds_home\": \"/mnt/pb\", \"privacy_bounds_output_base\": \"gs://b/x\"}");
        assertEquals("/mnt/pb/privacy-bounds.jar", v.get(0).get("application").asText());
        assertTrue(v.get(0).get("application_args").toString().contains("gs://b/x/"), v.get(0).toString());
    }

    @Test
    void everyTaskPassesTheCliDryRun(@TempDir Path tmp) throws Exception {
        String home = SparkTestSession.root().toString();
        JsonNode tasks = tasks(Map.of("PRIVACY_BOUNDS_HOME", home, "OUTPUT_BASE", tmp.toString()), "{}");
        int n = 0;
        for (JsonNode t : tasks) {
            List<String> args = new ArrayList<>();
            t.get("application_args").forEach(a -> args.add(a.asText()));
            args.add("--dry-run");
            args.add("--json");
            Run r = SparkTestSession.run(args.toArray(String[]::new));
            assertEquals(0, r.exitCode(), t.get("task") + ": " + r.err());
            assertTrue(r.json().get("out").asText().endsWith("dt=2026-11-22"));
            n++;
        }
        assertEquals(8, n);
        assertTrue(Files.isRegularFile(DAG));
    }
}
