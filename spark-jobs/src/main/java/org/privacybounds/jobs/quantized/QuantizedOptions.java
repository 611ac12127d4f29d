package org.privacybounds.jobs.quantized;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.quantized.CodeGrid;
import org.privacybounds.quantized.OutputRounding;
import org.privacybounds.quantized.QuantizedDistribution;
import org.privacybounds.quantized.SamplingAverageMechanism;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Option;

/** The options of the quantized-SGD mechanism: word size, batch size, output rounding, neighbours. */
public final class QuantizedOptions {
    @Option(names = "--bits", paramLabel = "B", defaultValue = "8", description = "Bits per gradient code, 1..16 (default: ${DEFAULT-VALUE}).")
    int bits;

    @Option(names = "--batch-size", paramLabel = "T", description = "Records per SGD step (default: round(sqrt n), the paper's setting).")
    Integer batchSize;

    @Option(names = "--output-rounding", paramLabel = "MODE", defaultValue = "round",
            description = "What the step releases: round (the batch mean on the code grid, halves away from zero), floor, or none (the exact code sum) (default: ${DEFAULT-VALUE}).")
    OutputRounding rounding;

    @Option(names = "--neighbors", paramLabel = "SET", defaultValue = "all",
            description = "Neighbours of the maximum: all (every present code to every code; the definition) or heuristic (the paper's two: smallest code to the grid maximum, largest to the grid minimum) (default: ${DEFAULT-VALUE}).")
    SamplingAverageMechanism.Neighbors neighbors;

    CodeGrid grid() {
        return new CodeGrid(bits);
    }

    OutputRounding rounding() {
        return rounding;
    }

    SamplingAverageMechanism.Neighbors neighborSet() {
        return neighbors;
    }

    /** T for a database of n records, checked. */
    int sampleSize(long n) {
        int t = batchSize != null ? batchSize : (int) Math.max(1, Math.round(Math.sqrt(n)));
        if (t < 1) {
            throw new UserInputException("--batch-size", t, "must be >= 1");
        }
        if (t > n) {
            throw new UserInputException("--batch-size", t, "T must be <= n = " + n + " (sampling without replacement)");
        }
        return t;
    }

    void check() {
        grid();
        rounding();
        neighborSet();
    }

    void echo(ObjectNode p) {
        p.put("bits", bits);
        if (batchSize != null) {
            p.put("batchSize", batchSize);
        } else {
            p.put("batchSize", "round(sqrt(n))");
        }
        p.put("outputRounding", rounding().label());
        p.put("neighbors", neighborSet().name().toLowerCase(Locale.ROOT));
    }

    /** The named settings of the paper: Figure 2 (right) and the four of Figure 5. */
    static final Map<String, String> PRESETS = new LinkedHashMap<>();

    static {
        PRESETS.put("fig2-right", "gauss:0:0.12,gauss:0.2:0.12");
        PRESETS.put("fig5-1", "gauss:0:0.15,gauss:0.2:0.15");
        PRESETS.put("fig5-2", "gauss:0:0.1,gauss:0.2:0.1");
        PRESETS.put("fig5-3", "gauss:0:0.12,laplace:0:0.12");
        PRESETS.put("fig5-4", "laplace:0:0.12,laplace:0.2:0.12");
    }

    /** The vertex distributions from --distributions or --preset (exactly one of them). */
    static QuantizedDistribution[] distributions(String distributions, String preset, int bits) {
        if ((distributions == null) == (preset == null)) {
            throw new UserInputException("--distributions", distributions == null ? "(none)" : distributions,
                    "give exactly one of --distributions and --preset (" + String.join(", ", PRESETS.keySet()) + ")");
        }
        String text = distributions;
        if (preset != null) {
            text = PRESETS.get(preset.trim().toLowerCase(Locale.ROOT));
            if (text == null) {
                throw new UserInputException("--preset", preset, "must be one of " + String.join(", ", PRESETS.keySet()));
            }
        }
        List<QuantizedDistribution> out = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                out.add(parseDistribution("--distributions", part, bits));
            }
        }
        if (out.isEmpty()) {
            throw new UserInputException("--distributions", text, "give at least one distribution, e.g. gauss:0:0.12");
        }
        return out.toArray(new QuantizedDistribution[0]);
    }

    /** A distribution of the command line in words, for titles: N(0, 0.12^2), Laplace(0, sd 0.12), Laplace(0, scale 0.1). */
    static String describe(String text) {
        String[] p = text.trim().split(":");
        if (p.length != 3) {
            return text.trim();
        }
        return switch (p[0].toLowerCase(Locale.ROOT)) {
            case "gauss", "gaussian", "normal" -> "N(" + p[1] + ", " + p[2] + "^2)";
            case "laplace" -> "Laplace(" + p[1] + ", sd " + p[2] + ")";
            case "laplace-scale" -> "Laplace(" + p[1] + ", scale " + p[2] + ")";
            default -> text.trim();
        };
    }

    /** One distribution of the command line: {@code gauss:MU:SIGMA}, {@code laplace:MU:SIGMA} (sigma the standard deviation) or {@code laplace-scale:MU:B}. */
    static QuantizedDistribution parseDistribution(String option, String text, int bits) {
        String[] p = text.trim().split(":");
        if (p.length != 3) {
            throw new UserInputException(option, text, "write gauss:MU:SIGMA, laplace:MU:SIGMA or laplace-scale:MU:B");
        }
        double m;
        double s;
        try {
            m = Double.parseDouble(p[1]);
            s = Double.parseDouble(p[2]);
        } catch (NumberFormatException e) {
            throw new UserInputException(option, text, "MU and SIGMA must be numbers (gauss:MU:SIGMA)");
        }
        if (!(s > 0) || Double.isInfinite(s)) {
            throw new UserInputException(option, text, "sigma (the last field) must be a finite number > 0");
        }
        if (!Double.isFinite(m)) {
            throw new UserInputException(option, text, "mu must be a finite number");
        }
        return switch (p[0].toLowerCase(Locale.ROOT)) {
            case "gauss", "gaussian", "normal" -> QuantizedDistribution.gaussian(m, s, bits);
            case "laplace" -> QuantizedDistribution.laplace(m, s, bits);
            case "laplace-scale" -> QuantizedDistribution.laplaceScale(m, s, bits);
            default -> throw new UserInputException(option, text, "the family must be gauss, laplace or laplace-scale");
        };
    }
}
