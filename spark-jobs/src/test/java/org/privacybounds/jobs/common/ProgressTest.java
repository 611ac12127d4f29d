package org.privacybounds.jobs.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.privacybounds.testing.SparkTestSession;

/** The progress timer: a line whenever the interval passes without one, with the phase, its counts and an ETA. */
class ProgressTest extends SparkTestSession {

    @Test
    void thePhaseAndItsCountsAreReported() {
        StringWriter text = new StringWriter();
        Progress.to(new PrintWriter(text, true), "test-command");
        Progress.phase("reading --data");
        Progress.tick(0);
        Progress.Driver d = Progress.driver(3);
        d.done();
        Progress.tick(0);
        d.done();
        d.done();
        Progress.tick(0);
        String[] lines = text.toString().strip().split("\\R");
        assertEquals(3, lines.length, text.toString());
        assertTrue(lines[0].matches("test-command: reading --data: \\d+ s"), lines[0]);
        assertTrue(lines[1].matches("test-command: computing: 1/3 tasks done, \\d+ s, ETA \\d+ s"), lines[1]);
        assertTrue(lines[2].startsWith("test-command: computing: 3/3 tasks done"), lines[2]);
        // LocalPool.map keeps the items' order
        assertEquals(List.of(0, 2, 4, 6), LocalPool.map(2, List.of(0, 1, 2, 3), x -> 2 * x));
    }

    @Test
    void aLineOnStderrResetsTheTimer() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintWriter err = Progress.stderr(bytes);
        Progress.to(err, "test-command");
        Progress.phase("computing");
        err.println("test-command: 1/5 n done");
        Progress.tick(1_000_000_000L); // the command's own line is less than a second old: nothing
        assertEquals("test-command: 1/5 n done", bytes.toString().strip());
        Progress.tick(0);
        assertTrue(bytes.toString().strip().endsWith("test-command: computing: 0 s"), bytes.toString());
    }

    @Test
    void aRunningStageIsCountedWhileItRuns() throws Exception {
        StringWriter text = new StringWriter();
        Progress.to(new PrintWriter(text, true), "test-command");
        Progress.phase("computing");
        Progress.install(spark.sparkContext());
        AtomicBoolean done = new AtomicBoolean();
        Thread ticker = new Thread(() -> {
            while (!done.get()) {
                Progress.tick(0);
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        ticker.start();
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            List<Integer> xs = IntStream.range(0, 40).boxed().collect(Collectors.toList());
            long sum = jsc.parallelize(xs, 4).map(x -> {
                Thread.sleep(25);
                return (long) x;
            }).reduce(Long::sum);
            assertEquals(780L, sum);
        } finally {
            done.set(true);
            ticker.join();
        }
        Pattern line = Pattern.compile("test-command: computing: stage (\\d+): (\\d)/4 partitions done, \\d+ s, ETA (\\d+ s|unknown)");
        List<Integer> counts = new ArrayList<>();
        for (String l : text.toString().split("\\R")) {
            Matcher m = line.matcher(l);
            if (m.matches()) {
                counts.add(Integer.parseInt(m.group(2)));
            } else {
                assertTrue(l.matches("test-command: computing: \\d+ s"), l);
            }
        }
        assertTrue(counts.size() >= 2, "lines while the stage ran: " + text);
        for (int i = 1; i < counts.size(); i++) {
            assertTrue(counts.get(i) >= counts.get(i - 1), "counts never go back: " + counts);
        }
    }
}
