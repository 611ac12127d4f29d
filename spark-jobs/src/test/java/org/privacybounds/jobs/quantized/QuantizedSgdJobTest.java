package org.privacybounds.jobs.quantized;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.quantized.CodeGrid;
import org.privacybounds.quantized.MonteCarloMean;
import org.privacybounds.quantized.OutputRounding;
import org.privacybounds.quantized.QuantizedDistribution;
import org.privacybounds.quantized.SamplingAverageMechanism;
import org.privacybounds.quantized.SmoothedSgd;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;

/** The quantized-SGD Monte Carlo through the public API, as the README shows it, against the command's output. */
class QuantizedSgdJobTest extends SparkTestSession {
    @Test
    void apiRowsAreTheCommandsRows() {
        QuantizedSgdJob.Request req = new QuantizedSgdJob.Request(
                new QuantizedDistribution[] {QuantizedDistribution.gaussian(0, 0.12, 8), QuantizedDistribution.laplace(0.2, 0.12, 8)},
                new CodeGrid(8), OutputRounding.ROUND, SamplingAverageMechanism.Neighbors.ALL, new double[] {0.5, 2}, 12,
                new SmoothedSgd.Grid(2), 0.99, MonteCarloMean.Interval.BERNSTEIN, 10, 7L);
        List<SmoothedSgd.StepBound> b = QuantizedSgdJob.run(spark, 49, 7, req, 3);
        Run r = run("quantized-sgd", "--distributions", "gauss:0:0.12,laplace:0.2:0.12", "--n", "49", "--trials", "12", "--epsilon", "0.5,2",
                "--assignments", "grid:2", "--steps", "10", "--seed", "7", "--json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode rows = r.json().get("rows");
        assertEquals(2, b.size());
        for (int e = 0; e < 2; e++) {
            JsonNode want = rows.get(e);
            assertEquals(want.get("smoothedDelta").asDouble(), b.get(e).smoothedDelta(), 0);
            assertEquals(want.get("argmaxAssignment").asText(), b.get(e).argmaxAssignment());
            assertEquals(want.get("composedDelta").asDouble(), b.get(e).composedDelta(), 0);
            assertEquals(Json.write(want.get("assignments")), Json.write(QuantizedSgdJob.ESTIMATE.json(b.get(e).assignments())));
        }
        Dataset<Row> s = QuantizedSgdJob.summaries(spark, b);
        assertEquals(QuantizedSgdJob.SUMMARY.names(), List.of(s.columns()));
        assertEquals(b.get(1).smoothedDelta(), s.collectAsList().get(1).getDouble(s.schema().fieldIndex("smoothedDelta")), 0);
        Dataset<Row> a = QuantizedSgdJob.assignments(spark, b);
        assertEquals(2 * 3, a.count());
        assertEquals("25+24", a.collectAsList().get(1).getString(2));
    }
}
