package org.privacybounds.smoothed.sdp;

import java.util.Arrays;

import org.privacybounds.numeric.LogMath;

/**
 * delta_SDP(eps) (Liu, Wang and Xia, "Smoothed Differential Privacy", Definition 3, Algorithm 1) with its certificate.
 *
 * @param epsilon            eps
 * @param logDelta           ln delta_SDP
 * @param argmaxAssignment   the maximising assignment (n_1, ..., n_l*): how many records come from each vertex
 * @param relativeErrorBound certified bound on the relative error of delta_SDP
 * @param method             how it was obtained
 * @param evaluated          assignments whose expectation was computed exactly
 * @param excluded           assignments excluded by a proven upper bound
 */
public record SmoothedValue(double epsilon, double logDelta, long[] argmaxAssignment, double relativeErrorBound, String method,
        long evaluated, long excluded) {
    /** The same with the assignment given as int counts (the enumeration methods, n <= 2^31 - 1); null stays null. */
    public SmoothedValue(double epsilon, double logDelta, int[] argmaxAssignment, double relativeErrorBound, String method, long evaluated,
            long excluded) {
        this(epsilon, logDelta, argmaxAssignment == null ? null : Arrays.stream(argmaxAssignment).asLongStream().toArray(),
                relativeErrorBound, method, evaluated, excluded);
    }

    public double delta() {
        return Math.exp(logDelta);
    }

    public double log10Delta() {
        return LogMath.toLog10(logDelta);
    }
}
