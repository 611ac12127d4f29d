package org.privacybounds.jobs.common;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/** The options every command takes (docs/index.md, "What every command shares"). */
public final class CommonOptions {
    @Option(names = "--json", description = "Print exactly one JSON object on stdout (logs and progress go to stderr).")
    public boolean json;

    /** --out as given, or null. */
    public String outText;

    @Option(names = "--out", paramLabel = "DIR|URI",
            description = "Write results (CSV, JSON, Parquet, PNG) under DIR, atomically: a temporary folder renamed at the end. A URI (file://, hdfs://, s3a://, gs://, abfs://) is written through Hadoop's FileSystem, _SUCCESS last.")
    void setOut(String value) {
        outText = value;
    }

    @Option(names = "--overwrite", description = "Replace an existing --out folder. Without it, rerunning into a finished folder with the same parameters is a no-op and any other existing folder is an error.")
    public boolean overwrite;

    @Option(names = "--master", paramLabel = "URL", defaultValue = "local[*]",
            description = "Spark master for commands that run Spark jobs (default: ${DEFAULT-VALUE}).")
    public String master;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "Seed for anything random; the same seed gives the same result for any partitioning (default: ${DEFAULT-VALUE}).")
    public long seed;

    @Option(names = "--verbose", description = "Show Spark's INFO logging (off by default; progress lines always show).")
    public boolean verbose;

    @Option(names = "--dry-run", description = "Check every option (values, ranges, --out) and read and check every data file the run would read, print the parameters; compute nothing, write nothing.")
    public boolean dryRun;

    @Option(names = "--max-work", paramLabel = "SECONDS", defaultValue = "86400",
            description = "Refuse a run whose estimated work exceeds this many core-seconds (default: ${DEFAULT-VALUE}, one core-day); the estimate is printed with --verbose and --dry-run.")
    public double maxWork;
}
