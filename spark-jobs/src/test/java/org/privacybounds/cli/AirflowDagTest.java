package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.testing.SparkTestSession;
import org.privacybounds.testing.SparkTestSession.Run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The Airflow DAG compiles (python3, without Airflow installed) and every task's application
 * arguments, with {{ ds }} rendered and the site paths pointed at this checkout, pass the CLI's
 * own parser and validation in --dry-run mode. (python3 only reads the DAG file here: the issue
 * asks for this check; no computation is done in Python.)
 */
class AirflowDagTest {
    static final Path DAG = SparkTestSession.root().resolve("scripts/airflow/privacy_bounds_election_sweep.py");

    static String python(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("python3"));
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("python3 is not installed: " + e.getMessage());
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void dagCompilesAndItsArgumentsPassTheCliDryRun(@TempDir Path tmp) throws Exception {
        python("-c", "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')", DAG.toString());
        String json = python("-c", String.join("\n",
                "import ast, json, sys",
                "tree = ast.parse(open(sys.argv[1]).read())",
                "out = {}",
                "for node in tree.body:",
                "    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):",
                "        name = node.targets[0].id",
                "        if name.endswith('_ARGS') or name in ('MAIN_CLASS', 'PRIVACY_BOUNDS_HOME', 'OUTPUT_BASE'):",
                "            out[name] = ast.literal_eval(node.value)",
                "print(json.dumps(out))"), DAG.toString());
        JsonNode dag = new ObjectMapper().readTree(json);
        assertEquals(Main.class.getName(), dag.get("MAIN_CLASS").asText());
        String home = dag.get("PRIVACY_BOUNDS_HOME").asText();
        String base = dag.get("OUTPUT_BASE").asText();
        int tasks = 0;
        for (String name : new String[] {"ELECTION_HISTORY_ARGS", "SMOOTHED_SWEEP_ARGS"}) {
            List<String> args = new ArrayList<>();
            boolean partitioned = false;
            for (JsonNode a : dag.get(name)) {
                String v = a.asText();
                partitioned |= v.endsWith("/dt={{ ds }}");
                args.add(v.replace("{{ ds }}", "2026-11-22").replace(home, SparkTestSession.root().toString()).replace(base, tmp.toString()));
            }
            assertTrue(partitioned, name + " writes to a dt={{ ds }} partition");
            args.add("--dry-run");
            args.add("--json");
            Run r = SparkTestSession.run(args.toArray(String[]::new));
            assertEquals(0, r.exitCode(), name + ": " + r.err());
            assertTrue(r.json().get("dryRun").asBoolean());
            assertTrue(r.json().get("out").asText().endsWith("dt=2026-11-22"));
            tasks++;
        }
        assertEquals(2, tasks);
    }
}
