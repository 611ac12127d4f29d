package org.privacybounds.jobs.common;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
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
            return active;
        }
        SparkSession.Builder b = SparkSession.builder().appName("privacy-bounds " + appName)
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.sql.session.timeZone", "UTC");
        // spark-submit sets spark.master; only an embedded run takes --master (default local[*])
        if (System.getProperty("spark.master") == null) {
            b.master(common.master);
        }
        return b.getOrCreate();
    }

    /** Spark's INFO logging off; warnings and errors stay. */
    public static void quiet() {
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
    }
}
