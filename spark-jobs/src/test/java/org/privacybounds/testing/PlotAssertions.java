package org.privacybounds.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.Plots;

import com.fasterxml.jackson.databind.JsonNode;

/** Reads the figure written beside a command's PNG and checks what every readable plot needs. */
public final class PlotAssertions {
    private PlotAssertions() {
    }

    /**
     * The figure of {@code png}, after checking: the PNG exists; each axis has a title, 2 to 12 ticks inside its range with
     * distinct, non-blank labels; every point lies inside both ranges (error bars included) and the ranges reach no more than
     * a decade beyond the data (log axes: one decade either side; linear axes: at most ten times the data's span); series names
     * are distinct, and so are their styles (colour, line style and variant), so that every series can be told apart.
     */
    public static JsonNode figure(Path png) {
        assertTrue(Files.isRegularFile(png), png + " written");
        JsonNode f;
        try {
            f = Json.MAPPER.readTree(Plots.jsonOf(png).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String a : new String[] {"x", "y"}) {
            JsonNode axis = f.get(a);
            assertFalse(axis.get("title").asText().isBlank(), a + " axis has a title");
            double min = axis.get("min").asDouble();
            double max = axis.get("max").asDouble();
            assertTrue(min < max, a + " range");
            JsonNode ticks = axis.get("ticks");
            assertTrue(ticks.size() >= 2 && ticks.size() <= Plots.MAX_TICKS, a + " axis: " + ticks.size() + " ticks");
            Set<String> labels = new HashSet<>();
            for (JsonNode t : ticks) {
                double at = t.get("at").asDouble();
                assertTrue(at >= min - 1e-9 && at <= max + 1e-9, a + " tick " + at + " outside [" + min + ", " + max + "]");
                assertFalse(t.get("label").asText().isBlank(), a + " tick " + at + " has a label");
                assertTrue(labels.add(t.get("label").asText()), a + " tick labels repeat: " + ticks);
            }
        }
        Set<String> names = new HashSet<>();
        Set<String> styles = new HashSet<>();
        double[] xr = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        double[] yr = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (JsonNode s : f.get("series")) {
            assertTrue(names.add(s.get("name").asText()), "series names repeat: " + s.get("name"));
            assertTrue(styles.add(s.get("color").asText() + " " + s.get("style").asText() + " " + s.path("variant").asInt()),
                    "two series look the same: " + s.get("name") + " (" + s.get("color") + ", " + s.get("style") + ")");
            for (JsonNode p : s.get("points")) {
                xr[0] = Math.min(xr[0], p.get(0).asDouble());
                xr[1] = Math.max(xr[1], p.get(0).asDouble());
                yr[0] = Math.min(yr[0], p.get(1).asDouble());
                yr[1] = Math.max(yr[1], p.get(1).asDouble());
            }
            for (JsonNode p : s.get("points")) {
                double x = p.get(0).asDouble();
                double y = p.get(1).asDouble();
                double e = p.size() > 2 ? p.get(2).asDouble() : 0;
                assertTrue(x >= f.get("x").get("min").asDouble() && x <= f.get("x").get("max").asDouble(), "x " + x + " of " + s.get("name") + " outside");
                assertTrue(y - e >= f.get("y").get("min").asDouble() - 1e-9 && y + e <= f.get("y").get("max").asDouble() + 1e-9,
                        "y " + y + " of " + s.get("name") + " outside the y range");
            }
        }
        if (f.get("x").get("scale").asText().equals("category")) {
            xr[0] = Double.NaN;
        }
        decade("x", f.get("x"), xr);
        decade("y", f.get("y"), yr);
        return f;
    }

    /** An axis reaches no more than a decade beyond its data. */
    private static void decade(String a, JsonNode axis, double[] data) {
        if (!(data[0] <= data[1])) {
            return;
        }
        double min = axis.get("min").asDouble();
        double max = axis.get("max").asDouble();
        if (axis.get("scale").asText().equals("log10")) {
            assertTrue(min >= data[0] - 1 - 1e-9 && max <= data[1] + 1 + 1e-9,
                    a + " axis [" + min + ", " + max + "] reaches more than a decade beyond the data [" + data[0] + ", " + data[1] + "]");
        } else if (data[1] > data[0]) {
            assertTrue(max - min <= 10 * Math.max(data[1] - data[0], Math.max(Math.abs(data[0]), Math.abs(data[1]))) + 1e-9,
                    a + " axis [" + min + ", " + max + "] is more than ten times the data's span [" + data[0] + ", " + data[1] + "]");
        }
    }

    /** The series' names, in drawing order. */
    public static List<String> names(JsonNode figure) {
        List<String> n = new ArrayList<>();
        figure.get("series").forEach(s -> n.add(s.get("name").asText()));
        return n;
    }

    /** The tick labels of an axis ("x" or "y"). */
    public static List<String> tickLabels(JsonNode figure, String axis) {
        List<String> n = new ArrayList<>();
        figure.get(axis).get("ticks").forEach(t -> n.add(t.get("label").asText()));
        return n;
    }

    /** The series called {@code name}. */
    public static JsonNode series(JsonNode figure, String name) {
        for (JsonNode s : figure.get("series")) {
            if (s.get("name").asText().equals(name)) {
                return s;
            }
        }
        throw new AssertionError("no series '" + name + "' in " + names(figure));
    }

    /** Checks that the named series have pairwise different colours. */
    public static void distinctColours(JsonNode figure, List<String> series) {
        Set<String> c = new HashSet<>();
        for (String n : series) {
            assertTrue(c.add(series(figure, n).get("color").asText()), "colour of " + n + " repeats");
        }
        assertEquals(series.size(), c.size());
    }
}
