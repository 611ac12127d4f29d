package org.privacybounds.smoothed.sdp.twocategory;

/**
 * Computes ln delta(h) of the histogram (h, n - h) for every requested h and every requested eps of a {@link LargeNSmoothed}
 * run: {@code result[i][e]} (NaN for an eps that was not requested). {@link LargeNSmoothed#local} and
 * {@link LargeNSmoothed#parallel} compute here; a Spark job spreads the h over its executors.
 */
public interface DeltaSource {
    double[][] logDelta(long[] hs, boolean[] eps);
}
