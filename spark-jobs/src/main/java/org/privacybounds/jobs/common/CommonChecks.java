package org.privacybounds.jobs.common;

import java.util.regex.Pattern;

import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Checks of options that several commands share, made once before any command runs: --partitions within what Spark's
 * scheduler can hold, and a --master URL of a form Spark knows (so that a typo is one line, not Spark's stack trace).
 */
public final class CommonChecks {
    /** The most Spark partitions a command may ask for (the driver holds one task per partition). */
    public static final int MAX_PARTITIONS = 100_000;
    private static final Pattern MASTER = Pattern.compile(
            "local|local\\[(\\*|[1-9][0-9]*)\\]|local\\[(\\*|[1-9][0-9]*),[1-9][0-9]*\\]|local-cluster\\[[1-9][0-9]*,[1-9][0-9]*,[1-9][0-9]*\\]"
                    + "|spark://[^\\s/:]+:[0-9]{1,5}(,[^\\s/:]+:[0-9]{1,5})*|yarn|k8s://\\S+|mesos://\\S+");

    private CommonChecks() {
    }

    /** Throws {@link UserInputException} for a bad shared option of the command that is about to run. */
    public static void check(ParseResult command) {
        for (OptionSpec o : command.matchedOptions()) {
            Object v = o.getValue();
            switch (o.longestName()) {
                case "--partitions" -> {
                    long p = ((Number) v).longValue();
                    if (p < 0 || p > MAX_PARTITIONS) {
                        throw new UserInputException("--partitions", v, "must be in [0, " + MAX_PARTITIONS + "] (0: Spark's default)");
                    }
                }
                case "--master" -> {
                    String m = String.valueOf(v).trim();
                    if (!MASTER.matcher(m).matches()) {
                        throw new UserInputException("--master", v, "must be local[*], local[N], spark://HOST:PORT, yarn or k8s://URL");
                    }
                }
                default -> {
                    // checked by the command
                }
            }
        }
    }
}
