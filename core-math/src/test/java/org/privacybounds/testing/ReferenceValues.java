package org.privacybounds.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reference values a test compares against, kept in a text file beside the tests instead of in the code: blocks that
 * each start with a {@code source:} line naming where the numbers come from (a paper's table, an independent
 * computation), then {@code name: v1 v2 ...} lines; {@code #} starts a comment. A name without a source is an error.
 *
 * <pre>{@code
 * ReferenceValues ref = ReferenceValues.load("/ensemble/darrm-reference.txt");
 * assertArrayEquals(ref.values("table3.m"), computed, 1e-6);
 * }</pre>
 */
public final class ReferenceValues {
    private final Map<String, double[]> values = new LinkedHashMap<>();
    private final Map<String, String> sources = new LinkedHashMap<>();

    private ReferenceValues() {
    }

    /** Reads a reference file from the test classpath. */
    public static ReferenceValues load(String resource) {
        ReferenceValues r = new ReferenceValues();
        try (InputStream in = ReferenceValues.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String source = null;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                if (line.startsWith("source:")) {
                    source = line.substring("source:".length()).strip();
                    continue;
                }
                int colon = line.indexOf(':');
                if (colon < 0 || source == null) {
                    throw new IllegalStateException(resource + ": '" + line + "' needs a 'source:' line before it and the form 'name: values'");
                }
                String name = line.substring(0, colon).strip();
                double[] v = Arrays.stream(line.substring(colon + 1).strip().split("\\s+")).mapToDouble(Double::parseDouble).toArray();
                if (r.values.put(name, v) != null) {
                    throw new IllegalStateException(resource + ": " + name + " appears twice");
                }
                r.sources.put(name, source);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return r;
    }

    /** The values under {@code name}. */
    public double[] values(String name) {
        double[] v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("no reference values named " + name);
        }
        return v.clone();
    }

    /** The single value under {@code name}. */
    public double value(String name) {
        double[] v = values(name);
        if (v.length != 1) {
            throw new IllegalArgumentException(name + " holds " + v.length + " values, not one");
        }
        return v[0];
    }

    /** Where the values under {@code name} come from. */
    public String source(String name) {
        values(name);
        return sources.get(name);
    }
}
