package org.privacybounds.jobs.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.privacybounds.testing.SparkTestSession;

/** The progress listener counts a stage's partitions as they finish and names the command. */
class ProgressTest extends SparkTestSession {

    @Test
    void driverTasksReportLikeStages() {
        StringWriter text = new StringWriter();
        Progress.to(new PrintWriter(text, true), "test-command");
        Progress.Driver d = new Progress.Driver(3, 0);
        for (int i = 0; i < 3; i++) {
            d.done();
        }
        String[] lines = text.toString().strip().split("\\R");
        assertEquals(3, lines.length, text.toString());
        assertTrue(lines[0].matches("test-command: driver: 1/3 tasks done, \\d+ s, ETA \\d+ s"), lines[0]);
        assertTrue(lines[2].startsWith("test-command: driver: 3/3 tasks done"), lines[2]);
        // LocalPool.map keeps the items' order
        assertEquals(List.of(0, 2, 4, 6), LocalPool.map(2, List.of(0, 1, 2, 3), x -> 2 * x));
    }

    @Test
    void countsEveryPartitionOfAStage() throws Exception {
        StringWriter text = new StringWriter();
        Progress p = new Progress(0, new PrintWriter(text, true), "test-command");
        spark.sparkContext().addSparkListener(p);
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            List<Integer> xs = IntStream.range(0, 40).boxed().collect(Collectors.toList());
            long sum = jsc.parallelize(xs, 4).map(x -> (long) x).reduce(Long::sum);
            assertEquals(780L, sum);
            // the listener bus is asynchronous: wait for the stage-completed event
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!text.toString().contains("4/4") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } finally {
            spark.sparkContext().removeSparkListener(p);
        }
        List<String> lines = Arrays.asList(text.toString().split("\\R"));
        Pattern line = Pattern.compile("test-command: stage (\\d+): (\\d)/4 partitions done, \\d+ s, ETA (\\d+ s|unknown)");
        int last = 0;
        for (String l : lines) {
            Matcher m = line.matcher(l);
            assertTrue(m.matches(), l);
            int done = Integer.parseInt(m.group(2));
            assertTrue(done >= last, "counts never go back: " + lines);
            last = done;
        }
        assertEquals(4, last, "the last line counts every partition: " + lines);
        assertTrue(lines.size() >= 2, "a line while running and one at the end: " + lines);
    }
}
