package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.testing.SparkLine;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import picocli.CommandLine;

/** Every command's --json object and result.json validate against its schema in docs/schema/ (regenerate: scripts/json-schemas). */
class JsonSchemaTest extends SparkTestSession {
    @BeforeAll
    static void onlyOnSpark35() {
        SparkLine.checkedOnSpark35Only("every output's schema");
    }

    static JsonSchema schema(String command) throws Exception {
        Path p = root().resolve("docs/schema/" + command + ".schema.json");
        assertTrue(Files.isRegularFile(p), "no schema for " + command);
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(new ObjectMapper().readTree(p.toFile()));
    }

    @Test
    void everyCommandHasASchemaAndItsOutputsValidate(@TempDir Path tmp) throws Exception {
        Map<String, List<String[]>> samples = JsonSchemas.samples(root(), tmp);
        for (String name : new CommandLine(new Main()).getSubcommands().keySet()) {
            if (!name.equals("help")) {
                assertTrue(samples.containsKey(name), name + " has no sample invocation, so no schema");
            }
        }
        for (Map.Entry<String, List<String[]>> e : samples.entrySet()) {
            JsonSchema schema = schema(e.getKey());
            int i = 0;
            for (String[] a : e.getValue()) {
                Path out = tmp.resolve("out-" + e.getKey() + "-" + i++);
                String[] args = Arrays.copyOf(a, a.length + 3);
                args[a.length] = "--json";
                args[a.length + 1] = "--out";
                args[a.length + 2] = out.toString();
                Run r = run(args);
                assertEquals(0, r.exitCode(), String.join(" ", a) + ": " + r.err());
                Set<ValidationMessage> stdout = schema.validate(r.json());
                assertTrue(stdout.isEmpty(), e.getKey() + " --json: " + stdout);
                JsonNode file = new ObjectMapper().readTree(out.resolve("result.json").toFile());
                Set<ValidationMessage> stored = schema.validate(file);
                assertTrue(stored.isEmpty(), e.getKey() + " result.json: " + stored);
            }
        }
        // a violation is caught: a probability above 1
        JsonNode bad = new ObjectMapper().readTree("{\"command\":\"profile\",\"parameters\":{},\"n\":2,\"T\":1,\"m\":2,\"results\":[{\"delta\":1.5}]}");
        assertTrue(!schema("profile").validate(bad).isEmpty());
    }
}
