package org.privacybounds.jobs.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.privacybounds.numeric.LogMath;
import org.privacybounds.smoothed.Neighbor;

/**
 * JSON output: one object per command, doubles that are not finite written as null, and the
 * paired fields of tiny quantities ({@code delta} and {@code log10Delta}).
 */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    /** Puts a double, or null when it is NaN or infinite. */
    public static ObjectNode put(ObjectNode o, String name, double v) {
        if (Double.isFinite(v)) {
            o.put(name, v);
        } else {
            o.putNull(name);
        }
        return o;
    }

    /**
     * Puts {@code name} = exp(logValue) and {@code log10Name} = log10 of it; the log10 field is null
     * only when the value is exactly 0.
     */
    public static ObjectNode putLogPair(ObjectNode o, String name, String log10Name, double logValue) {
        put(o, name, Math.exp(logValue));
        put(o, log10Name, LogMath.toLog10(logValue));
        return o;
    }

    /** A neighbour with 1-based category numbers. */
    public static ObjectNode neighbor(Neighbor n) {
        ObjectNode o = object();
        o.put("from", n.from() + 1);
        o.put("to", n.to() + 1);
        o.put("direction", n.direction().label());
        return o;
    }

    public static String write(Object node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String pretty(Object node) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
