package org.privacybounds.jobs.smoothed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.privacybounds.jobs.common.CommonOptions;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.SmoothedValue;
import org.privacybounds.testing.SparkTestSession;

/** The large-n method without Spark (what smoothed runs on a local master) gives Spark's values to the last digit, for any pool size. */
class DriverPathTest extends SparkTestSession {
    @Test
    void driverValuesAreSparkValues() {
        DistributionSet hull = DistributionSet.of(List.of(new double[] {0.944667, 0.055333}, new double[] {0.533392, 0.466608}), List.of("a", "b"), "Pi");
        double[] eps = {0.5, 2};
        int n = 60_000;
        int t = 59_880;
        List<SmoothedValue> onSpark = SmoothedRunner.largeN(spark, n, t, hull, eps, 4, msg -> { }).solve();
        for (int threads : new int[] {1, 2, 3}) {
            List<SmoothedValue> local = SmoothedRunner.runLocal(n, t, hull, eps, threads, msg -> { });
            for (int e = 0; e < eps.length; e++) {
                assertEquals(onSpark.get(e).logDelta(), local.get(e).logDelta(), 0, "threads = " + threads);
                assertArrayEquals(onSpark.get(e).argmaxAssignment(), local.get(e).argmaxAssignment());
                assertEquals(onSpark.get(e).relativeErrorBound(), local.get(e).relativeErrorBound(), 0);
                assertEquals(onSpark.get(e).evaluated(), local.get(e).evaluated());
            }
        }
    }

    @Test
    void localMastersGiveTheirCores() {
        assertEquals(1, SparkSessions.localThreads("local"));
        assertEquals(3, SparkSessions.localThreads("local[3]"));
        assertEquals(2, SparkSessions.localThreads("local[2,4]"));
        assertEquals(Runtime.getRuntime().availableProcessors(), SparkSessions.localThreads("local[*]"));
        assertNull(SparkSessions.localThreads("spark://host:7077"));
        assertNull(SparkSessions.localThreads("yarn"));
        // a session is active here (the test fixture's): commands use it rather than the driver path
        CommonOptions c = new CommonOptions();
        c.master = "local[*]";
        assertNull(SparkSessions.localThreads(c));
    }
}
