package org.privacybounds.jobs.common;

import static java.util.Map.entry;

import java.util.Map;

import org.privacybounds.validation.BadInputException;

/**
 * core-math names parameters as the mathematics does ("eps", "T", "Pi"); a command line names its options. This table
 * turns the one into the other for the error a user reads ("--epsilon = -1: must be ..."), per command where an option
 * differs (the sample size T is --sample-size for the election commands, --batch-size for quantized SGD, the number of
 * steps for PABI).
 */
public final class OptionNames {
    private static final Map<String, String> GLOBAL = Map.ofEntries(entry("eps", "--epsilon"), entry("delta", "--delta"), entry("trials", "--trials"),
            entry("confidence", "--confidence"), entry("bits", "--bits"), entry("L", "--lipschitz"), entry("L_data", "--data-lipschitz"),
            entry("sigma", "--sigma"), entry("step size", "--step-size"), entry("alpha", "--alpha"), entry("secret distance", "--secret-distance"),
            entry("rho", "--correlation"), entry("secret index", "--secret-index"), entry("t", "--threshold"), entry("form", "--form"),
            entry("counts", "--counts"), entry("noise eps", "--noise-epsilon"), entry("T", "--sample-size"), entry("symmetric fold", "--symmetric"),
            entry("n", "--n"), entry("Pi", "--distributions"), entry("eta", "--eta"), entry("lost", "--lost"), entry("lost fraction", "--lost-fraction"),
            entry("sample fraction", "--sample-fraction"), entry("epsilon", "--epsilon"), entry("steps", "--steps"), entry("assignments", "--assignments"), entry("ci", "--ci"),
            entry("work limit", "--max-work"));
    private static final Map<String, String> DARRM = Map.of("K", "--k", "m", "--m", "Delta", "--delta-mech", "M", "--subsample", "delta'",
            "--delta-prime", "m eps", "--m x --epsilon", "Beta prior", "--prior");
    private static final Map<String, Map<String, String>> BY_COMMAND = Map.of("darrm-optimize", DARRM, "darrm-verify", DARRM, "darrm-aggregate", DARRM,
            "quantized-sgd", Map.of("T", "--batch-size"), "quantized-profile",
            Map.of("T", "--batch-size"), "pabi", Map.of("T", "--steps", "covariance", "--correlation"), "dp-sgd-accountant", Map.of("sigma",
                    "--noise-multiplier", "q", "--sampling-rate"), "private-teachers", Map.of("sigma", "--noise-multiplier", "q", "--batch-rate", "C",
                    "--clip", "epochs", "--epochs", "learning rate", "--learning-rate"));

    private OptionNames() {
    }

    /** The option of {@code command} for a core-math parameter name; the name itself when it is already an option or unknown. */
    public static String option(String command, String parameter) {
        if (parameter == null || parameter.startsWith("-")) {
            return parameter;
        }
        Map<String, String> own = BY_COMMAND.getOrDefault(command, Map.of());
        // "covariance file:cov.csv": the parameter, then what it is about
        int space = parameter.indexOf(' ');
        for (String key : new String[] {parameter, space > 0 ? parameter.substring(0, space) : null}) {
            if (key == null) {
                continue;
            }
            String o = own.containsKey(key) ? own.get(key) : GLOBAL.get(key);
            if (o != null) {
                return o + parameter.substring(key.length());
            }
        }
        return parameter;
    }

    /** The error as the command line shows it: a core-math {@link BadInputException} renamed to the command's option. */
    public static RuntimeException forCommand(String command, RuntimeException bad) {
        if (bad instanceof BadInputException b) {
            String o = option(command, b.parameter());
            return o.equals(b.parameter()) ? b : b.renamed(o);
        }
        return bad;
    }
}
