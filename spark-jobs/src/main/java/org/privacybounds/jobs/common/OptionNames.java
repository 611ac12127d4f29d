package org.privacybounds.jobs.common;

import static java.util.Map.entry;

import java.util.EnumMap;
import java.util.Map;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * core-math names parameters by typed keys ({@link Parameter}: eps, T, Pi); a command line names its options. This one
 * table turns the one into the other for the error a user reads ("--epsilon = -1: must be ..."), per command where an
 * option differs (the sample size T is --sample-size for the election commands, --batch-size for quantized SGD, the
 * number of steps for PABI). A key without an option here keeps its symbol.
 */
public final class OptionNames {
    private static final Map<Parameter, String> GLOBAL = new EnumMap<>(Map.ofEntries(entry(Parameter.EPS, "--epsilon"),
            entry(Parameter.EPSILON, "--epsilon"), entry(Parameter.DELTA, "--delta"), entry(Parameter.TRIALS, "--trials"),
            entry(Parameter.CONFIDENCE, "--confidence"), entry(Parameter.CONFIDENCE_INTERVAL, "--ci"), entry(Parameter.BITS, "--bits"),
            entry(Parameter.LIPSCHITZ, "--lipschitz"), entry(Parameter.DATA_LIPSCHITZ, "--data-lipschitz"), entry(Parameter.SIGMA, "--sigma"),
            entry(Parameter.STEP_SIZE, "--step-size"), entry(Parameter.ALPHA, "--alpha"), entry(Parameter.SECRET_DISTANCE, "--secret-distance"),
            entry(Parameter.RHO, "--correlation"), entry(Parameter.SECRET_INDEX, "--secret-index"), entry(Parameter.THRESHOLD, "--threshold"),
            entry(Parameter.UTILITY_FORM, "--form"), entry(Parameter.COUNTS, "--counts"), entry(Parameter.NOISE_EPS, "--noise-epsilon"),
            entry(Parameter.SAMPLE_SIZE, "--sample-size"), entry(Parameter.SYMMETRIC_FOLD, "--symmetric"), entry(Parameter.N, "--n"),
            entry(Parameter.PI, "--distributions"), entry(Parameter.ETA, "--eta"), entry(Parameter.LOST, "--lost"),
            entry(Parameter.LOST_FRACTION, "--lost-fraction"), entry(Parameter.SAMPLE_FRACTION, "--sample-fraction"), entry(Parameter.STEPS, "--steps"),
            entry(Parameter.ASSIGNMENTS, "--assignments"), entry(Parameter.WORK_LIMIT, "--max-work"), entry(Parameter.SMOOTH_BETA, "--smooth-beta")));
    private static final Map<Parameter, String> DARRM = Map.of(Parameter.TEACHERS, "--k", Parameter.ALLOWANCE, "--m", Parameter.MECHANISM_DELTA,
            "--delta-mech", Parameter.SUBSAMPLE, "--subsample", Parameter.DELTA_PRIME, "--delta-prime", Parameter.M_EPS, "--m x --epsilon",
            Parameter.BETA_PRIOR, "--prior", Parameter.GAMMA, "--gamma");
    private static final Map<Parameter, String> BATCH = Map.of(Parameter.SAMPLE_SIZE, "--batch-size");
    private static final Map<String, Map<Parameter, String>> BY_COMMAND = Map.of("darrm-optimize", DARRM, "darrm-verify", DARRM, "darrm-aggregate", DARRM,
            "quantized-sgd", BATCH, "quantized-profile", BATCH, "pabi", Map.of(Parameter.SAMPLE_SIZE, "--steps", Parameter.COVARIANCE, "--correlation"),
            "dp-sgd-accountant", Map.of(Parameter.SIGMA, "--noise-multiplier", Parameter.SAMPLING_RATE, "--sampling-rate"),
            "private-teachers", Map.of(Parameter.SIGMA, "--noise-multiplier", Parameter.SAMPLING_RATE, "--batch-rate", Parameter.CLIP, "--clip",
                    Parameter.EPOCHS, "--epochs", Parameter.LEARNING_RATE, "--learning-rate"));

    private OptionNames() {
    }

    /** The option of {@code command} for a parameter, or null when the command has none for it. */
    public static String option(String command, Parameter parameter) {
        String own = BY_COMMAND.getOrDefault(command, Map.of()).get(parameter);
        return own != null ? own : GLOBAL.get(parameter);
    }

    /** The error as the command line shows it: a core-math {@link BadInputException} renamed to the command's option. */
    public static RuntimeException forCommand(String command, RuntimeException bad) {
        if (bad instanceof BadInputException b && b.key() != null) {
            String o = option(command, b.key());
            return o == null ? b : b.renamed(o);
        }
        return bad;
    }
}
