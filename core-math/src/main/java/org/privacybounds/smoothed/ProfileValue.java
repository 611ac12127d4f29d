package org.privacybounds.smoothed;

import org.privacybounds.numeric.LogMath;

/**
 * delta_eps(x) of one database (Liu, Wang and Xia, "Smoothed Differential Privacy", Definition 2) with its certificate.
 *
 * @param epsilon            the eps of the profile
 * @param logDelta           natural log of delta ({@code -Infinity} when delta is exactly 0)
 * @param relativeErrorBound certified bound on |computed - exact| / exact: the truncation bound of
 *                           the outward summation plus a floating-point allowance
 * @param worst              the neighbour and direction attaining the maximum (null if delta = 0)
 * @param method             how it was obtained
 * @param terms              the terms summed to obtain it (a measure of its work; 0 where not counted)
 */
public record ProfileValue(double epsilon, double logDelta, double relativeErrorBound, Neighbor worst, String method, long terms) {
    /** A value whose terms were not counted. */
    public ProfileValue(double epsilon, double logDelta, double relativeErrorBound, Neighbor worst, String method) {
        this(epsilon, logDelta, relativeErrorBound, worst, method, 0);
    }

    /** delta as a double (0 only if it underflows or is exactly 0). */
    public double delta() {
        return Math.exp(logDelta);
    }

    /** log10 delta, accurate even when delta underflows a double. */
    public double log10Delta() {
        return LogMath.toLog10(logDelta);
    }
}
