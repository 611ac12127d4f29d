package org.privacybounds.jobs.smoothed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.smoothed.sdp.SmoothedValue;

import com.fasterxml.jackson.databind.JsonNode;

/** A row's JSON holds what JSON can: no "Infinity" strings where the contract has numbers. */
class SmoothedRowTest {
    /**
     * A two-sided bound 3,348 decades wide (as with replacement, 5 % lost, n = 1e5, eps 3 under a small --max-work): its
     * relative error past a double is null in the JSON (the contract's number or null), read back as unbounded, as a resumed
     * sweep reads it.
     */
    @Test
    void aRelativeErrorPastADoubleIsNullInTheJsonAndReadBackUnbounded() throws Exception {
        double ln10 = Math.log(10);
        SmoothedValue upper = new SmoothedValue(3, -5.98 * ln10, new long[] {0, 0, 100000}, Double.POSITIVE_INFINITY, "bounds", 0L, 0L);
        SmoothedValue lower = new SmoothedValue(3, -3354.1 * ln10, new long[] {0, 0, 100000}, Double.POSITIVE_INFINITY, "lower", 1L, 0L);
        SmoothedRow row = SmoothedRow.of(100000, 95000, upper, lower, Math.log(0.6), 1, 1.5);
        JsonNode json = Json.MAPPER.readTree(Json.MAPPER.writeValueAsString(row.json()));
        assertTrue(json.get("relativeErrorBound").isNull(), json.toString());
        assertTrue(json.get("lowerDeltaRelativeError").isNull(), json.toString());
        assertEquals(3348.12, json.get("log10Gap").asDouble(), 1e-9);
        SmoothedRow back = SmoothedRow.fromJson(json);
        assertEquals(Double.POSITIVE_INFINITY, back.relativeErrorBound());
        assertEquals(row.log10LowerDelta(), back.log10LowerDelta(), 0);
        // a finite one is written and read as it was
        SmoothedValue close = new SmoothedValue(3, -2, new long[] {1, 2, 3}, 4.3e-7, "bounds", 0L, 0L);
        SmoothedRow near = SmoothedRow.of(6, 5, close, null, Math.log(0.6), 1, 0.1);
        JsonNode nearJson = Json.MAPPER.readTree(Json.MAPPER.writeValueAsString(near.json()));
        assertEquals(4.3e-7, nearJson.get("relativeErrorBound").asDouble(), 0);
        assertEquals(4.3e-7, SmoothedRow.fromJson(nearJson).relativeErrorBound(), 0);
    }
}
