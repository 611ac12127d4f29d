package org.privacybounds.jobs.smoothed;

import java.math.BigDecimal;

import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.smoothed.SampleSize;
import org.privacybounds.smoothed.Sampling;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** Mechanism options of the smoothed-DP commands (docs/index.md); the noise of Algorithm 4 is {@link NoiseOptions} (profile only). */
public final class MechanismOptions {
    /** Exactly one way to give the sample size. */
    public static final class Size {
        @Option(names = "--eta", paramLabel = "DEC", description = "Sampling rate in (0, 1), as a decimal: T = ceil(eta n) (or round, see --rounding).")
        String eta;

        @Option(names = "--sample-size", paramLabel = "T", description = "Number T of records sampled.")
        Long sampleSize;

        @Option(names = "--lost", paramLabel = "L", description = "Number L of records lost: T = n - L.")
        Long lost;
    }

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "Sample size (exactly one):%n")
    Size size;

    @Option(names = "--rounding", paramLabel = "ceil|round", defaultValue = "ceil",
            description = "T = ceil(eta n) (Algorithm 2) or round(eta n) (the paper's code) (default: ${DEFAULT-VALUE}).")
    String rounding;

    @Option(names = "--sampling", paramLabel = "without|with", defaultValue = "without",
            description = "Sample without replacement (Algorithm 2) or with replacement (Appendix F) (default: ${DEFAULT-VALUE}).")
    String sampling;

    public Sampling sampling() {
        return parseSampling(sampling);
    }

    /** The value of a {@code --sampling without|with} option. */
    static Sampling parseSampling(String value) {
        return switch (value) {
            case "without" -> Sampling.WITHOUT_REPLACEMENT;
            case "with" -> Sampling.WITH_REPLACEMENT;
            default -> throw new UserInputException("--sampling", value, "must be 'without' or 'with'");
        };
    }

    public SampleSize.Rounding rounding() {
        return parseRounding(rounding);
    }

    /** The value of a {@code --rounding ceil|round} option. */
    static SampleSize.Rounding parseRounding(String value) {
        return switch (value) {
            case "ceil" -> SampleSize.Rounding.CEIL;
            case "round" -> SampleSize.Rounding.ROUND;
            default -> throw new UserInputException("--rounding", value, "must be 'ceil' or 'round'");
        };
    }

    /** T for a database of n records. */
    public long sampleSize(long n) {
        rounding(); // checked even when unused (a sample size or a loss needs none), so that a typo is not silently ignored
        sampling();
        if (size.eta != null) {
            BigDecimal eta = SampleSize.parseEta(size.eta);
            return SampleSize.fromEta(eta, n, rounding());
        }
        if (size.lost != null) {
            return SampleSize.fromLost(size.lost, n);
        }
        return SampleSize.checked("--sample-size", size.sampleSize, n);
    }

    /** The sampling in words, for titles: "eta = 0.998 (ceil)", "5 records lost", "T = 50 sampled", with replacement if so. */
    public String describe() {
        String t = size.eta != null ? "eta = " + size.eta + (rounding.equals("round") ? " (T rounded)" : "")
                : size.lost != null ? size.lost + " records lost" : "T = " + size.sampleSize + " sampled";
        return t + (sampling.equals("with") ? ", with replacement" : "");
    }

    /** Echo of the mechanism parameters. */
    public void echo(ObjectNode p) {
        if (size.eta != null) {
            p.put("eta", size.eta);
            p.put("rounding", rounding);
        } else if (size.lost != null) {
            p.put("lost", size.lost);
        } else {
            p.put("sampleSize", size.sampleSize);
        }
        p.put("sampling", sampling);
    }
}
