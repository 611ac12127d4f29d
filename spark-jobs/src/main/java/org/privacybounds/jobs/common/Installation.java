package org.privacybounds.jobs.common;

import java.nio.file.Path;

import picocli.CommandLine.Model.CommandSpec;

/**
 * Where the tool is installed ({@code -Dprivacybounds.home}, set by the launcher): default data paths such as
 * {@code datasets/...} resolve against it, so a command works from any folder; paths the user gives stay as given
 * (relative to the caller's folder).
 */
public final class Installation {
    private Installation() {
    }

    /** {@code value} itself when the user gave {@code option}; else the default resolved against the installation (if known). */
    public static String defaulted(CommandSpec spec, String option, String value) {
        if (value == null || spec.commandLine().getParseResult() == null || spec.commandLine().getParseResult().hasMatchedOption(option)) {
            return value;
        }
        String home = System.getProperty("privacybounds.home");
        if (home == null || Path.of(value).isAbsolute()) {
            return value;
        }
        return Path.of(home).resolve(value).normalize().toString();
    }
}
