package org.privacybounds.jobs.common;

import java.io.PrintWriter;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * One progress format for every command's Spark work: a line on stderr per stage every 10 seconds at most, as its
 * partitions (tasks) finish, with an ETA from the stage's measured rate, and one when a stage that ran 10 s or more ends:
 * {@code COMMAND: stage S: 12/32 partitions done, 45 s, ETA 75 s}. Stages shorter than 10 s print nothing.
 */
public final class Progress extends SparkListener {
    private static final long INTERVAL_NANOS = 10_000_000_000L;
    private static final Set<SparkContext> INSTALLED = Collections.newSetFromMap(Collections.synchronizedMap(new WeakHashMap<>()));
    private static volatile PrintWriter out;
    private static volatile String command = "privacy-bounds";

    private final Map<Integer, long[]> stages = new ConcurrentHashMap<>(); // stage -> {tasks, done, start, lastPrint}
    private final long interval;
    private final PrintWriter sink;
    private final String name;

    /** A listener printing at most every {@code intervalNanos} to {@code sink} as {@code name}; null: the command line's. */
    Progress(long intervalNanos, PrintWriter sink, String name) {
        this.interval = intervalNanos;
        this.sink = sink;
        this.name = name;
    }

    /** Where progress goes (the command line's stderr) and which command runs. */
    public static void to(PrintWriter err, String commandName) {
        out = err;
        command = commandName;
    }

    /** Listens to a session's stages, once per Spark context. */
    static void install(SparkContext sc) {
        if (INSTALLED.add(sc)) {
            sc.addSparkListener(new Progress(INTERVAL_NANOS, null, null));
        }
    }

    @Override
    public void onStageSubmitted(SparkListenerStageSubmitted e) {
        long now = System.nanoTime();
        stages.put(e.stageInfo().stageId(), new long[] {e.stageInfo().numTasks(), 0, now, now});
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd e) {
        long[] s = stages.get(e.stageId());
        if (s == null) {
            return;
        }
        synchronized (s) {
            s[1]++;
            long now = System.nanoTime();
            if (now - s[3] >= interval && s[1] < s[0]) {
                s[3] = now;
                print(e.stageId(), s, now);
            }
        }
    }

    @Override
    public void onStageCompleted(SparkListenerStageCompleted e) {
        long[] s = stages.remove(e.stageInfo().stageId());
        if (s != null && System.nanoTime() - s[2] >= interval) {
            print(e.stageInfo().stageId(), s, System.nanoTime());
        }
    }

    private void print(int stage, long[] s, long now) {
        PrintWriter w = sink != null ? sink : out;
        if (w == null) {
            return;
        }
        double elapsed = (now - s[2]) / 1e9;
        double eta = s[1] == 0 ? Double.NaN : elapsed / s[1] * (s[0] - s[1]);
        w.println(String.format(Locale.ROOT, "%s: stage %d: %d/%d partitions done, %.0f s, ETA %s", name != null ? name : command, stage, s[1], s[0], elapsed,
                Double.isNaN(eta) ? "unknown" : String.format(Locale.ROOT, "%.0f s", eta)));
        w.flush();
    }

    /**
     * Progress of driver-side tasks (a command on a local master without Spark), in the same format: a line every 10 s at
     * most while tasks finish, and one at the end when the work took 10 s or more.
     */
    static final class Driver {
        private final long[] s;
        private final long interval;

        Driver(int total, long intervalNanos) {
            long now = System.nanoTime();
            this.s = new long[] {total, 0, now, now};
            this.interval = intervalNanos;
        }

        /** One task finished. */
        void done() {
            synchronized (s) {
                s[1]++;
                long now = System.nanoTime();
                if ((now - s[3] >= interval && s[1] < s[0]) || (s[1] == s[0] && now - s[2] >= interval)) {
                    s[3] = now;
                    PrintWriter w = out;
                    if (w != null) {
                        double elapsed = (now - s[2]) / 1e9;
                        double eta = elapsed / s[1] * (s[0] - s[1]);
                        w.println(String.format(Locale.ROOT, "%s: driver: %d/%d tasks done, %.0f s, ETA %.0f s", command, s[1], s[0], elapsed, eta));
                        w.flush();
                    }
                }
            }
        }
    }

    /** A tracker for {@code total} driver-side tasks. */
    static Driver driver(int total) {
        return new Driver(total, INTERVAL_NANOS);
    }
}
