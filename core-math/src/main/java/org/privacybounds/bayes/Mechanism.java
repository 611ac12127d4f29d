package org.privacybounds.bayes;

import java.util.Arrays;
import java.util.Locale;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The exponential mechanisms of the notes "DP Bayesian inference" over the posteriors of one n: each releases r with
 * probability proportional to exp(eps u(k, r) / (2 S(k))) and differs in the sensitivity S(k).
 */
public enum Mechanism {
    /** S = the global sensitivity (the notes prove eps-DP). */
    GLOBAL,
    /** S = the local sensitivity of the database (the notes claim: not DP). */
    LOCAL,
    /** S = the smooth sensitivity S_beta with beta from (eps, delta). */
    SMOOTH;

    /** How the smooth sensitivity's beta follows from (eps, delta): the notes give two. */
    public enum SmoothBeta {
        /** beta = eps / (2 ln(2/delta)), as Lemma 3.1 states it. */
        STATEMENT,
        /** beta = eps / (2 ln(3/delta)), as its proof uses it. */
        PROOF;

        public double beta(double eps, double delta) {
            return eps / (2 * Math.log((this == STATEMENT ? 2 : 3) / delta));
        }

        /** The form named "statement" or "proof" (any case, surrounding blanks ignored). */
        public static SmoothBeta parse(String text) {
            for (SmoothBeta b : values()) {
                if (b.name().equalsIgnoreCase(text.strip())) {
                    return b;
                }
            }
            throw new BadInputException(Parameter.SMOOTH_BETA, text, "must be statement or proof");
        }
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** S(k) for k = 0..n. */
    public double[] sensitivity(PosteriorFamily family, double eps, double delta, SmoothBeta beta) {
        if (!(eps > 0) || Double.isInfinite(eps)) {
            throw new BadInputException(Parameter.EPS, eps, "must be a finite number > 0");
        }
        return switch (this) {
            case GLOBAL -> {
                double[] s = new double[family.n() + 1];
                Arrays.fill(s, family.globalSensitivity());
                yield s;
            }
            case LOCAL -> family.localSensitivity();
            case SMOOTH -> {
                if (!(delta > 0 && delta < 1)) {
                    throw new BadInputException(Parameter.DELTA, delta, "must be in (0, 1)");
                }
                yield family.smoothSensitivity(beta.beta(eps, delta));
            }
        };
    }
}
