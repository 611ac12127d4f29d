package org.privacybounds.rdp;

import org.apache.commons.numbers.gamma.Erfc;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * GNMax (Papernot et al. 2018), the DaRRM paper's baseline in Appendix D.2.1: the class with the most teacher votes after
 * independent N(0, sigma^2) noise on each count. It is (lambda, lambda / sigma^2)-RDP for every lambda >= 1.
 *
 * <pre>{@code
 * Gnmax.Calibration c = Gnmax.calibrate(0.2676, 0.0003); // sigma = 21.46 (Table 4, MNIST, m = 3)
 * }</pre>
 */
public final class Gnmax {
    private Gnmax() {
    }

    /** RDP of one GNMax answer at order lambda. */
    public static double rdp(double lambda, double sigma) {
        return lambda / (sigma * sigma);
    }

    /**
     * The smallest sigma whose RDP, converted by {@link RdpConversion#CLASSIC} (the paper's Theorem D.1), gives
     * (eps, delta)-DP per answer, and the order lambda that attains it.
     */
    public record Calibration(double sigma, double lambda, double epsilon, double delta) {
    }

    /**
     * The paper's search (Appendix D.2.1, Figure 10): sigma^2(lambda) = lambda / (eps - ln(1/delta)/(lambda - 1)) is defined
     * for lambda > lambda_min = ln(1/delta)/eps + 1; on the grid lambda_min + 0.5 j up to 500 the smallest sigma is
     * taken. (Table 4's lambda column is lambda_min + 3, a slip of the paper; its sigma column is what this returns.)
     */
    public static Calibration calibrate(double epsilon, double delta) {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new BadInputException(Parameter.EPSILON, epsilon, "must be a finite number > 0");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new BadInputException(Parameter.DELTA, delta, "must be in (0, 1)");
        }
        double lambdaMin = Math.log(1 / delta) / epsilon + 1;
        double bestVar = Double.POSITIVE_INFINITY;
        double bestLambda = Double.NaN;
        for (int j = 1; lambdaMin + 0.5 * j <= 500; j++) {
            double lambda = lambdaMin + 0.5 * j;
            double var = lambda / (epsilon - Math.log(1 / delta) / (lambda - 1));
            if (var < bestVar) {
                bestVar = var;
                bestLambda = lambda;
            }
        }
        if (Double.isNaN(bestLambda)) {
            throw new BadInputException(Parameter.EPSILON, epsilon, "too small for delta = " + delta + ": lambda_min = " + lambdaMin + " is beyond 500");
        }
        return new Calibration(Math.sqrt(bestVar), bestLambda, epsilon, delta);
    }

    /**
     * The data-dependent RDP bound of Papernot et al. 2018 (the DaRRM paper's Algorithm 6, corrected: the natural log the
     * paper omits, its exponents, and only the top class): for votes n_1..n_C, sigma and order lambda,
     * min(bound_dd, lambda / sigma^2), where bound_dd applies only when its conditions hold.
     */
    public static double dataDependentRdp(int[] votes, double sigma, double lambda) {
        if (votes.length < 2) {
            throw new BadInputException(Parameter.VOTES, votes.length + " classes", "need at least two classes");
        }
        int top = 0;
        for (int i = 1; i < votes.length; i++) {
            if (votes[i] > votes[top]) {
                top = i;
            }
        }
        double q = 0;
        for (int i = 0; i < votes.length; i++) {
            if (i != top) {
                q += 0.5 * Erfc.value((votes[top] - votes[i]) / (2 * sigma));
            }
        }
        double gaussian = rdp(lambda, sigma);
        if (!(q > 0 && q < 1)) {
            return gaussian;
        }
        double mu2 = sigma * Math.sqrt(Math.log(1 / q));
        double mu1 = mu2 + 1;
        double eps1 = mu1 / (sigma * sigma);
        double eps2 = mu2 / (sigma * sigma);
        if (!(mu1 >= lambda && mu2 > 1)) {
            return gaussian;
        }
        double logQub = (mu2 - 1) * eps2 - mu2 * (Math.log(mu1 / (mu1 - 1)) + Math.log(mu2 / (mu2 - 1)));
        if (Math.log(q) > logQub || Math.log(q) + eps2 >= 0) {
            return gaussian;
        }
        // in log space: A^(lambda - 1) and B^(lambda - 1) overflow for large lambda
        double logA = Math.log1p(-q) - Math.log(-Math.expm1((mu2 - 1) / mu2 * (Math.log(q) + eps2)));
        double logB = eps1 - Math.log(q) / (mu1 - 1);
        double dd = LogMath.logAdd(Math.log1p(-q) + (lambda - 1) * logA, Math.log(q) + (lambda - 1) * logB) / (lambda - 1);
        return Math.min(dd, gaussian);
    }
}
