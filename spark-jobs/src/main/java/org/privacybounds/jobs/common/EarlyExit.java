package org.privacybounds.jobs.common;

/**
 * A command that ends successfully before doing its work: a dry run, or a rerun into an output
 * folder that already holds the finished result of the same parameters. The command line prints
 * {@link #getMessage()} on stderr, {@link #stdout()} (if any) on stdout, and exits 0.
 */
public final class EarlyExit extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String stdout;

    public EarlyExit(String message, String stdout) {
        super(message, null, false, false);
        this.stdout = stdout;
    }

    /** What to print on stdout, or null. */
    public String stdout() {
        return stdout;
    }
}
