package org.privacybounds.jobs.smoothed;

import org.privacybounds.jobs.common.UserInputException;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Option;

/** Algorithm 4's additive noise: only {@code profile} computes the noisy mechanism, so only it offers these options. */
public final class NoiseOptions {
    @Option(names = "--noise", paramLabel = "none|exponential", defaultValue = "none",
            description = "Algorithm 4's additive exponential-mechanism noise on the sampled histogram (default: ${DEFAULT-VALUE}).")
    String noise;

    @Option(names = "--noise-epsilon", paramLabel = "E",
            description = "Noise level of Algorithm 4: each coordinate gets noise with Pr[v] proportional to exp(-E |v - c| / 4). Required with --noise exponential.")
    Double noiseEpsilon;

    /** True for --noise exponential (which needs --noise-epsilon). */
    public boolean noisy() {
        return switch (noise) {
            case "none" -> false;
            case "exponential" -> {
                if (noiseEpsilon == null) {
                    throw new UserInputException("--noise-epsilon", "missing", "is required with --noise exponential");
                }
                yield true;
            }
            default -> throw new UserInputException("--noise", noise, "must be 'none' or 'exponential'");
        };
    }

    /** Echo of the noise parameters. */
    public void echo(ObjectNode p) {
        p.put("noise", noise);
        if (noiseEpsilon != null) {
            p.put("noiseEpsilon", noiseEpsilon);
        }
    }
}
