package org.privacybounds.jobs.common;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/** Builds (or joins) the Spark session of a command: quiet unless --verbose, no UI. */
public final class SparkSessions {
    private SparkSessions() {
    }

    /**
     * The active session if there is one (the test fixture's, or spark-submit's), otherwise a new
     * one on {@code master}.
     */
    public static SparkSession get(CommonOptions common, String appName) {
        if (!common.verbose) {
            quiet();
        }
        SparkSession active = SparkSession.getActiveSession().isDefined() ? SparkSession.getActiveSession().get() : null;
        if (active != null) {
            Progress.install(active.sparkContext());
            return active;
        }
        SparkSession.Builder b = SparkSession.builder().appName("privacy-bounds " + appName)
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.sql.session.timeZone", "UTC");
        // spark-submit sets spark.master; only an embedded run takes --master (default local[*])
        if (System.getProperty("spark.master") == null) {
            checkReachable(common.master);
            b.master(common.master);
            // Spark's scratch folders (blockmgr-*, spark-*) under one folder of this run, removed when it ends
            b.config("spark.local.dir", runFolder().toString());
        }
        Progress.phase("starting Spark");
        SparkSession spark = b.getOrCreate();
        Progress.install(spark.sparkContext());
        awaitExecutors(spark);
        Progress.phase("computing");
        return spark;
    }

    /**
     * The number of threads a run may use on the driver instead of starting Spark: the cores of a local master
     * ({@code local} = 1, {@code local[k]} and {@code local[k,f]} = k, {@code local[*]} = every core), or null when Spark is
     * needed anyway (a session is already active, spark-submit set the master, or the master is a cluster).
     */
    public static Integer localThreads(CommonOptions common) {
        if (SparkSession.getActiveSession().isDefined() || SparkSession.getDefaultSession().isDefined() || System.getProperty("spark.master") != null) {
            return null;
        }
        return localThreads(common.master);
    }

    public static Integer localThreads(String master) {
        String m = master.trim();
        if (m.equals("local")) {
            return 1;
        }
        Matcher x = Pattern.compile("local\\[(\\*|\\d+)(,\\d+)?\\]").matcher(m);
        if (!x.matches()) {
            return null;
        }
        int k = x.group(1).equals("*") ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(x.group(1));
        return k >= 1 ? k : null;
    }

    /**
     * A standalone master ({@code spark://HOST:PORT[,HOST:PORT]}) must accept a connection within 5 s before Spark starts: Spark
     * itself retries an unreachable master for 60 s and then logs a stack of errors.
     */
    static void checkReachable(String master) {
        if (!master.startsWith("spark://")) {
            return;
        }
        String last = null;
        for (String hp : master.substring("spark://".length()).split(",")) {
            int colon = hp.lastIndexOf(':');
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(hp.substring(0, colon), Integer.parseInt(hp.substring(colon + 1))), 5000);
                return;
            } catch (IOException | RuntimeException e) {
                last = hp + " (" + e.getMessage() + ")";
            }
        }
        throw new UserInputException("--master", master, "cannot connect to " + last + "; is the master running?");
    }

    /** Seconds a cluster run waits for its first executor ({@code PRIVACY_BOUNDS_EXECUTOR_WAIT}, default 60). */
    static long executorWaitSeconds() {
        String v = System.getenv("PRIVACY_BOUNDS_EXECUTOR_WAIT");
        try {
            return v == null ? 60 : Math.max(1, Long.parseLong(v.trim()));
        } catch (NumberFormatException e) {
            return 60;
        }
    }

    /**
     * On a cluster master, waits a bounded time for the first executor: a master that cannot be reached, or one with no live
     * worker, is then one line and exit 2 instead of a job that waits for resources forever.
     */
    private static void awaitExecutors(SparkSession spark) {
        String master = spark.sparkContext().master();
        if (master.startsWith("local")) {
            return;
        }
        long deadline = System.nanoTime() + executorWaitSeconds() * 1_000_000_000L;
        while (spark.sparkContext().statusTracker().getExecutorInfos().length < 2) {
            if (spark.sparkContext().isStopped() || System.nanoTime() > deadline) {
                spark.stop();
                throw new UserInputException("--master", master, "no executor registered within " + executorWaitSeconds()
                        + " s: is the master reachable and does it have a live worker with free cores? (wait: PRIVACY_BOUNDS_EXECUTOR_WAIT seconds)");
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for executors", e);
            }
        }
    }

    private static Path runFolder;

    /** The scratch folder of this run (created on first use). */
    static synchronized Path runFolder() {
        if (runFolder == null) {
            try {
                runFolder = Files.createTempDirectory("privacy-bounds-run-");
                Path created = runFolder;
                // removed at exit whatever happens (a finished run removes it earlier, after Spark stops)
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        OutputDir.deleteTree(created);
                    } catch (RuntimeException e) {
                        // Spark may still be deleting its own files in there
                    }
                }, "privacy-bounds-scratch"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return runFolder;
    }

    /** Removes the run's scratch folder (after Spark has stopped). */
    public static synchronized void removeRunFolder() {
        if (runFolder != null) {
            try {
                OutputDir.deleteTree(runFolder);
            } catch (UncheckedIOException e) {
                // a scratch file still open: the OS temp cleaner takes it
            }
            runFolder = null;
        }
    }

    /**
     * Spark's INFO logging off; warnings and errors stay. Spark's own logging is initialised first (it loads its default
     * profile, at INFO, on first use when log4j looks unconfigured: under Spark 4's spark-submit that first use comes after
     * this method and would undo it).
     */
    public static void quiet() {
        new SparkConf(false).initializeLogIfNecessary(false, true);
        Configurator.setRootLevel(Level.WARN);
        Configurator.setLevel("org.apache.spark", Level.WARN);
        Configurator.setLevel("org.apache.hadoop", Level.ERROR);
        Configurator.setLevel("org.apache.parquet", Level.ERROR);
        Configurator.setLevel("org.sparkproject", Level.WARN);
        // a task that fails on bad input is reported once, as one line, by the command line
        Configurator.setLevel("org.apache.spark.executor.Executor", Level.FATAL);
        Configurator.setLevel("org.apache.spark.scheduler.TaskSetManager", Level.FATAL);
        // "hostname resolves to a loopback address" is expected: we bind to loopback
        Configurator.setLevel("org.apache.spark.util.Utils", Level.ERROR);
        // "spark.local.dir will be overridden by the cluster manager": expected, we set it for embedded runs only
        Configurator.setLevel("org.apache.spark.SparkConf", Level.ERROR);
        // a failed task's shuffle files are cleaned up noisily; the failure itself is reported as one line
        Configurator.setLevel("org.apache.spark.storage.DiskBlockObjectWriter", Level.ERROR);
        // an unreachable standalone master is reported as one line by SparkSessions
        Configurator.setLevel("org.apache.spark.scheduler.cluster.StandaloneSchedulerBackend", Level.FATAL);
        Configurator.setLevel("org.apache.spark.deploy.client.StandaloneAppClient$ClientEndpoint", Level.FATAL);
    }
}
