package org.privacybounds.guarantee;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * An (eps, delta) privacy guarantee: delta is kept as its natural log (a delta of 1e-400 is representable), with how it
 * was obtained and a certified bound on its relative error (0 for a closed form).
 *
 * <pre>{@code
 * Guarantee g = Guarantee.of(1.0, 1e-6, "closed form", 0);
 * Guarantee ten = Composition.basic(g, 10); // (10, 1e-5)
 * }</pre>
 *
 * @param epsilon       eps >= 0, in nats
 * @param logDelta      ln delta, at most 0
 * @param method        how it was obtained
 * @param relativeError certified bound on the relative error of delta
 */
public record Guarantee(double epsilon, double logDelta, String method, double relativeError) {
    public Guarantee {
        if (!(epsilon >= 0)) {
            throw new BadInputException(Parameter.EPS, epsilon, "must be >= 0");
        }
        if (Double.isNaN(logDelta) || logDelta > 0) {
            throw new BadInputException(Parameter.DELTA, Math.exp(logDelta), "must be in [0, 1]");
        }
    }

    /** From delta itself. */
    public static Guarantee of(double epsilon, double delta, String method, double relativeError) {
        if (!(delta >= 0 && delta <= 1)) {
            throw new BadInputException(Parameter.DELTA, delta, "must be in [0, 1]");
        }
        return new Guarantee(epsilon, Math.log(delta), method, relativeError);
    }

    /** delta (0 when it underflows a double; {@link #logDelta} keeps it). */
    public double delta() {
        return Math.exp(logDelta);
    }

    /** log10 delta. */
    public double log10Delta() {
        return logDelta / Math.log(10);
    }
}
