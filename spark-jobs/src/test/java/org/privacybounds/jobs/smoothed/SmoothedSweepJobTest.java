package org.privacybounds.jobs.smoothed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.privacybounds.smoothed.SampleSize;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;

/** The public sweep API gives the command's numbers, on the caller's session. */
class SmoothedSweepJobTest extends SparkTestSession {
    @Test
    void rowsAreTheCommandsValues() {
        DistributionSet pi = DistributionSet.of(List.of(new double[] {0.3, 0.7}, new double[] {0.9, 0.1}), List.of("a", "b"), "test");
        List<Row> rows = SmoothedSweepJob.run(spark, new long[] {600, 5000}, n -> SampleSize.fromLost(6, n), Sampling.WITHOUT_REPLACEMENT, pi,
                new double[] {0.5, 2}, 4).collectAsList();
        assertEquals(4, rows.size());
        JsonNode cli = run("smoothed-sweep", "--n", "600,5000", "--lost", "6", "--epsilon", "0.5,2", "--distributions", "0.3,0.7;0.9,0.1", "--json").json();
        JsonNode results = cli.get("rows");
        for (int i = 0; i < 4; i++) {
            Row r = rows.get(i);
            JsonNode c = results.get(i);
            assertEquals(c.get("n").asLong(), r.getLong(0));
            assertEquals(c.get("epsilon").asDouble(), r.getDouble(2), 0);
            assertEquals(c.get("log10Delta").asDouble(), r.getDouble(4), 1e-12);
        }
    }
}
