package org.privacybounds.jobs.smoothed;

import java.util.Arrays;
import java.util.stream.Collectors;

import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.smoothed.sdp.SmoothedValue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One delta_SDP result of {@code smoothed} and {@code smoothed-sweep} as written: n, T, the value (delta and its log10, the
 * best assignment, how it was obtained), the DP bound and 1/n beside it, and the basic composition of the run's
 * {@code --compose} runs. A two-sided bound (three or more categories beyond every assignment's reach) carries its lower
 * value in log10LowerDelta (NaN for an exact value), and delta is then the upper one; lowerDeltaRelativeError is r such that the
 * exact value of its own assignment (or inner polytope) is at most (1 + r) times the lower value (null in JSON past a double). Its columns (results.csv,
 * results.parquet) are declared once in {@link #COLUMNS}; {@link #json} is the JSON of the contract, and {@link #fromJson}
 * reads it back unchanged (a resumed sweep writes the same digits).
 */
record SmoothedRow(long n, long T, double epsilon, double delta, double log10Delta, long[] argmaxAssignment, double relativeErrorBound,
        String method, long evaluated, long excluded, double dpDelta, double inverseN, double composedEpsilon, double composedDelta,
        double log10ComposedDelta, double seconds, double log10LowerDelta, double lowerDeltaRelativeError) {

    /** The row of one value; composes it {@code compose} times: (eps, delta) -> (k eps, min(1, k delta)). */
    static SmoothedRow of(long n, long t, SmoothedValue v, double logDp, int compose, double seconds) {
        return of(n, t, v, null, logDp, compose, seconds);
    }

    /**
     * The row of a two-sided bound: v the upper bound (delta, and what composition uses), lower the lower bound; a null lower
     * makes the row an exact value (log10LowerDelta NaN).
     */
    static SmoothedRow of(long n, long t, SmoothedValue v, SmoothedValue lower, double logDp, int compose, double seconds) {
        Guarantee c = Composition.basic(new Guarantee(v.epsilon(), v.logDelta(), v.method(), v.relativeErrorBound()), compose);
        return new SmoothedRow(n, t, v.epsilon(), Math.exp(v.logDelta()), LogMath.toLog10(v.logDelta()), v.argmaxAssignment().clone(),
                v.relativeErrorBound(), v.method(), v.evaluated(), v.excluded(), Math.exp(logDp), 1.0 / n, c.epsilon(), Math.exp(c.logDelta()),
                LogMath.toLog10(c.logDelta()), seconds, lower == null ? Double.NaN : lower.log10Delta(),
                lower == null ? Double.NaN : lower.relativeErrorBound());
    }

    /** Whether the row is a two-sided bound (delta above, log10LowerDelta below) rather than one value. */
    boolean bounded() {
        return !Double.isNaN(log10LowerDelta);
    }

    /** A row of the JSON of the contract ({@link #json}), back as it was written (null log10 values are log10 0). */
    static SmoothedRow fromJson(JsonNode r) {
        long[] a = new long[r.get("argmaxAssignment").size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = r.get("argmaxAssignment").get(i).asLong();
        }
        return new SmoothedRow(r.get("n").asLong(), r.get("T").asLong(), r.get("epsilon").asDouble(), num(r.get("delta")), log10(r.get("log10Delta")), a,
                r.get("relativeErrorBound").isNull() ? Double.POSITIVE_INFINITY : r.get("relativeErrorBound").asDouble(), r.get("method").asText(), r.get("evaluated").asLong(), r.get("excluded").asLong(),
                num(r.get("dpDelta")), r.get("inverseN").asDouble(), r.get("composedEpsilon").asDouble(), num(r.get("composedDelta")),
                log10(r.get("log10ComposedDelta")), r.has("seconds") ? r.get("seconds").asDouble() : Double.NaN,
                r.has("log10LowerDelta") ? log10(r.get("log10LowerDelta")) : Double.NaN,
                r.has("lowerDeltaRelativeError") ? num(r.get("lowerDeltaRelativeError")) : Double.NaN);
    }

    private static double num(JsonNode v) {
        return v == null || v.isNull() ? Double.NaN : v.asDouble();
    }

    private static double log10(JsonNode v) {
        return v == null || v.isNull() ? Double.NEGATIVE_INFINITY : v.asDouble();
    }

    /** The assignment as results.csv writes it: "[a b c]". */
    String argmaxText() {
        return "[" + Arrays.stream(argmaxAssignment).mapToObj(Long::toString).collect(Collectors.joining(" ")) + "]";
    }

    /** The columns of results.csv and results.parquet. */
    static final Columns<SmoothedRow> COLUMNS = Columns.<SmoothedRow>of().integer("n", SmoothedRow::n).integer("T", SmoothedRow::T)
            .number("epsilon", SmoothedRow::epsilon).number("delta", SmoothedRow::delta).number("log10Delta", SmoothedRow::log10Delta)
            .string("argmaxAssignment", SmoothedRow::argmaxText).number("relativeErrorBound", SmoothedRow::relativeErrorBound)
            .integer("evaluated", SmoothedRow::evaluated).integer("excluded", SmoothedRow::excluded).number("dpDelta", SmoothedRow::dpDelta)
            .number("inverseN", SmoothedRow::inverseN).number("composedEpsilon", SmoothedRow::composedEpsilon)
            .number("composedDelta", SmoothedRow::composedDelta).number("log10ComposedDelta", SmoothedRow::log10ComposedDelta)
            .number("log10LowerDelta", SmoothedRow::log10LowerDelta).number("lowerDeltaRelativeError", SmoothedRow::lowerDeltaRelativeError);

    /** The JSON fields of the value (without n, T and seconds, which smoothed writes once per run). */
    ObjectNode jsonValue() {
        ObjectNode r = Json.object();
        r.put("epsilon", epsilon);
        Json.put(r, "delta", delta);
        Json.put(r, "log10Delta", log10Delta);
        ArrayNode a = r.putArray("argmaxAssignment");
        for (long x : argmaxAssignment) {
            a.add(x);
        }
        Json.put(r, "relativeErrorBound", relativeErrorBound); // null past a double (a gap of more than 308 decades)
        r.put("method", method);
        r.put("evaluated", evaluated);
        r.put("excluded", excluded);
        Json.put(r, "dpDelta", dpDelta);
        r.put("inverseN", inverseN);
        r.put("composedEpsilon", composedEpsilon);
        Json.put(r, "composedDelta", composedDelta);
        Json.put(r, "log10ComposedDelta", log10ComposedDelta);
        if (bounded()) {
            // delta above is an upper bound; the exact delta_SDP lies between
            Json.put(r, "lowerDelta", Math.pow(10, log10LowerDelta));
            Json.put(r, "log10LowerDelta", log10LowerDelta);
            Json.put(r, "log10Gap", log10Delta - log10LowerDelta);
            Json.put(r, "lowerDeltaRelativeError", lowerDeltaRelativeError);
        }
        return r;
    }

    /** The JSON of a smoothed-sweep row: n, T, the value's fields, seconds. */
    ObjectNode json() {
        ObjectNode r = Json.object();
        r.put("n", n);
        r.put("T", T);
        r.setAll(jsonValue());
        Json.put(r, "seconds", seconds);
        return r;
    }
}
