package org.privacybounds.jobs.common;

import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * One progress format for every command, driven by a timer: while a command runs, whenever 10 seconds pass without a line
 * on stderr, one line says what it is doing, {@code COMMAND: PHASE: done/total UNIT, 45 s, ETA 75 s} (the counts and ETA
 * where a total is known: a running Spark stage's partitions, driver-side tasks, or a count a command reports), else
 * {@code COMMAND: PHASE: 45 s}. A phase is what the command does now ("starting Spark", "reading --data", "computing",
 * "writing"); a command names it with {@link #phase}. Commands that print their own progress lines (one per n of a sweep)
 * keep their format: any line on stderr resets the 10 s. Runs shorter than 10 s print nothing of this.
 */
public final class Progress extends SparkListener {
    private static final long INTERVAL_NANOS = 10_000_000_000L;
    private static final Set<SparkContext> INSTALLED = Collections.newSetFromMap(Collections.synchronizedMap(new WeakHashMap<>()));
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "privacy-bounds-progress");
        t.setDaemon(true);
        return t;
    });
    private static volatile PrintWriter out;
    private static volatile String command = "privacy-bounds";
    private static volatile long lastLine = System.nanoTime();
    private static volatile ScheduledFuture<?> beat;
    /** The current phase: its name, unit, total (0: unknown), done, start. */
    private static final Object LOCK = new Object();
    private static String phaseName = "starting";
    private static String phaseUnit = "";
    private static long phaseTotal;
    private static long phaseDone;
    private static long phaseStart = System.nanoTime();
    /** Running Spark stages: stage -> {tasks, done, start}. */
    private static final Map<Integer, long[]> STAGES = new ConcurrentHashMap<>();

    private Progress() {
    }

    /**
     * A stderr writer for the command line that notes every line written to it (the timer stays quiet while a command
     * reports on its own).
     */
    public static PrintWriter stderr(OutputStream err) {
        return new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true) {
            @Override
            public void write(String s, int off, int len) {
                super.write(s, off, len);
                if (s.indexOf('\n', off) >= 0 && s.indexOf('\n', off) < off + len) {
                    lastLine = System.nanoTime();
                }
            }

            @Override
            public void write(char[] buf, int off, int len) {
                super.write(buf, off, len);
                for (int i = off; i < off + len; i++) {
                    if (buf[i] == '\n') {
                        lastLine = System.nanoTime();
                        break;
                    }
                }
            }

            @Override
            public void write(int c) {
                super.write(c);
                if (c == '\n') {
                    lastLine = System.nanoTime();
                }
            }
        };
    }

    /** Where progress goes (the command line's stderr) and which command runs. */
    public static void to(PrintWriter err, String commandName) {
        out = err;
        command = commandName;
    }

    /** Starts the timer for a command's run (until {@link #end}): a line whenever 10 s pass without one. */
    public static void begin(PrintWriter err, String commandName) {
        to(err, commandName);
        phase("starting");
        lastLine = System.nanoTime();
        end();
        beat = TIMER.scheduleAtFixedRate(() -> tick(INTERVAL_NANOS), 1, 1, TimeUnit.SECONDS);
    }

    /** Stops the timer. */
    public static void end() {
        ScheduledFuture<?> b = beat;
        if (b != null) {
            b.cancel(false);
            beat = null;
        }
    }

    /** What the command does now, with no count. */
    public static void phase(String name) {
        phase(name, 0, "");
    }

    /** What the command does now, out of {@code total} {@code unit} (e.g. 54 "files"). */
    public static void phase(String name, long total, String unit) {
        synchronized (LOCK) {
            phaseName = name;
            phaseTotal = total;
            phaseUnit = unit;
            phaseDone = 0;
            phaseStart = System.nanoTime();
        }
    }

    /** {@code n} more of the current phase's total are done. */
    public static void advance(long n) {
        synchronized (LOCK) {
            phaseDone += n;
        }
    }

    /** One timer tick: a line if {@code interval} passed since the last one. */
    static void tick(long interval) {
        long now = System.nanoTime();
        if (now - lastLine < interval) {
            return;
        }
        PrintWriter w = out;
        if (w == null) {
            return;
        }
        String line;
        long[] stage = null;
        int stageId = -1;
        for (Map.Entry<Integer, long[]> e : STAGES.entrySet()) {
            if (stage == null || e.getKey() > stageId) {
                stage = e.getValue();
                stageId = e.getKey();
            }
        }
        synchronized (LOCK) {
            if (stage != null) {
                line = counts(phaseName + ": stage " + stageId, stage[1], stage[0], "partitions", stage[2], now);
            } else if (phaseTotal > 0) {
                line = counts(phaseName, phaseDone, phaseTotal, phaseUnit, phaseStart, now);
            } else {
                line = String.format(Locale.ROOT, "%s: %.0f s", phaseName, (now - phaseStart) / 1e9);
            }
        }
        w.println(command + ": " + line);
        w.flush();
        lastLine = now;
    }

    private static String counts(String what, long done, long total, String unit, long start, long now) {
        double elapsed = (now - start) / 1e9;
        double eta = done == 0 ? Double.NaN : elapsed / done * (total - done);
        return String.format(Locale.ROOT, "%s: %d/%d %s done, %.0f s, ETA %s", what, done, total, unit, elapsed,
                Double.isNaN(eta) ? "unknown" : String.format(Locale.ROOT, "%.0f s", eta));
    }

    /** Counts a session's stages, once per Spark context. */
    static void install(SparkContext sc) {
        if (INSTALLED.add(sc)) {
            sc.addSparkListener(new Progress());
        }
    }

    @Override
    public void onStageSubmitted(SparkListenerStageSubmitted e) {
        STAGES.put(e.stageInfo().stageId(), new long[] {e.stageInfo().numTasks(), 0, System.nanoTime()});
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd e) {
        long[] s = STAGES.get(e.stageId());
        if (s != null) {
            synchronized (s) {
                s[1]++;
            }
        }
    }

    @Override
    public void onStageCompleted(SparkListenerStageCompleted e) {
        STAGES.remove(e.stageInfo().stageId());
    }

    /** Driver-side tasks (a command on a local master without Spark): the current phase counts them. */
    static final class Driver {
        Driver(String name, int total) {
            phase(name, total, "tasks");
        }

        /** One task finished. */
        void done() {
            advance(1);
        }
    }

    /** A tracker for {@code total} driver-side tasks, as the phase "computing". */
    static Driver driver(int total) {
        return new Driver("computing", total);
    }
}
