package org.privacybounds.jobs.common;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * The work and driver memory of a run, estimated from its options before anything starts: a run that would not finish
 * (beyond {@code --max-work} core-seconds, one core-day by default) or would not fit in the driver's heap is refused with
 * exit 2, naming the options that drive the estimate. The estimates are coarse models fitted to this project's benchmarks
 * on a 2-core machine (bench/results/); they are meant to tell a day from a year, not a minute from two.
 */
public final class WorkLimit {
    /** The share of the driver's maximum heap a run may plan to use. */
    static final double HEAP_SHARE = 0.6;

    private WorkLimit() {
    }

    /** Whether {@link #check} would let a run of this estimate start (within --max-work and the driver's heap share). */
    public static boolean fits(CommonOptions common, double coreSeconds, double driverBytes) {
        return fits(common.maxWork, coreSeconds, driverBytes);
    }

    /** {@link #fits(CommonOptions, double, double)} under a --max-work of {@code maxWork} core-seconds. */
    public static boolean fits(double maxWork, double coreSeconds, double driverBytes) {
        return driverBytes <= HEAP_SHARE * Runtime.getRuntime().maxMemory() && coreSeconds <= maxWork;
    }

    /**
     * Checks an estimate.
     *
     * @param options the options that drive it, as the user would change them (e.g. "--n and --epsilon")
     * @param coreSeconds estimated CPU work
     * @param driverBytes estimated driver memory
     */
    public static void check(picocli.CommandLine.Model.CommandSpec spec, CommonOptions common, String options, double coreSeconds, double driverBytes) {
        refuse(common, options, coreSeconds, driverBytes);
        if (coreSeconds > 60 || common.verbose || common.dryRun) {
            spec.commandLine().getErr().printf(Locale.ROOT, "%s: %s (from %s; limit --max-work %s)%n", spec.name(), describe(coreSeconds, driverBytes), options,
                    duration(common.maxWork));
            spec.commandLine().getErr().flush();
        }
    }

    /**
     * {@link #check} without printing the estimate: for a first estimate made before the inputs are read, where the one printed
     * comes once they are (a missing input then says so in its one error line, with no estimate before it).
     */
    public static void refuse(CommonOptions common, String options, double coreSeconds, double driverBytes) {
        double heap = Runtime.getRuntime().maxMemory();
        if (!(driverBytes <= HEAP_SHARE * heap)) {
            throw new UserInputException(String.format(Locale.ROOT,
                    "%s: the run would need %s of driver memory, more than %.0f %% of the %s heap; reduce them (or give the JVM more: PRIVACY_BOUNDS_JAVA_OPTS=-Xmx..)",
                    options, Double.isFinite(driverBytes) ? "about " + bytes(driverBytes) : "an unbounded amount", HEAP_SHARE * 100, bytes(heap)));
        }
        if (!(coreSeconds <= common.maxWork)) {
            throw new UserInputException(String.format(Locale.ROOT,
                    "%s: the run would take %s of core time, more than --max-work %s; reduce them, or raise --max-work (in seconds) if you mean it",
                    options, Double.isFinite(coreSeconds) ? "about " + duration(coreSeconds) : "an unbounded amount", duration(common.maxWork)));
        }
    }

    static String describe(double seconds, double bytes) {
        return "estimate " + duration(seconds) + " of core time, " + bytes(bytes) + " of driver memory";
    }

    public static String duration(double s) {
        if (!Double.isFinite(s)) {
            return "forever";
        }
        if (s > 0 && s < 1) {
            // two digits: a run of 0.04 s against --max-work 0.01 had read "about 0 s, more than --max-work 0 s"
            return String.format(Locale.ROOT, "%.2g s", s);
        }
        if (s < 120) {
            return String.format(Locale.ROOT, "%.0f s", s);
        }
        if (s < 7200) {
            return String.format(Locale.ROOT, "%.0f min", s / 60);
        }
        if (s < 3 * 86400) {
            return String.format(Locale.ROOT, "%.1f h", s / 3600);
        }
        if (s < 3 * 365 * 86400.0) {
            return String.format(Locale.ROOT, "%.0f days", s / 86400);
        }
        return twoDigits(s / (365 * 86400.0)) + " years";
    }

    /**
     * Two significant digits, which is all an estimate this large means: written out below a million (7.6, 210, 21,000; it
     * printed "2.1e+02 years"), in powers of ten beyond.
     */
    static String twoDigits(double x) {
        if (x >= 1e6) {
            return String.format(Locale.ROOT, "%.2g", x);
        }
        BigDecimal r = new BigDecimal(x).round(new MathContext(2));
        return x >= 100 ? String.format(Locale.ROOT, "%,.0f", r.doubleValue()) : r.stripTrailingZeros().toPlainString();
    }

    public static String bytes(double b) {
        if (!Double.isFinite(b)) {
            return "unbounded";
        }
        if (b < 1 << 20) {
            return String.format(Locale.ROOT, "%.0f KB", b / 1024);
        }
        if (b < 1L << 30) {
            return String.format(Locale.ROOT, "%.0f MB", b / (1 << 20));
        }
        if (b < 1000.0 * (1L << 30)) {
            return String.format(Locale.ROOT, "%.1f GB", b / (1L << 30));
        }
        if (b < 1000.0 * (1L << 40)) {
            return String.format(Locale.ROOT, "%.1f TB", b / (1L << 40));
        }
        // beyond any machine: two digits are all that mean anything (it printed 1241875.2 GB)
        return twoDigits(b / (1L << 40)) + " TB";
    }
}
