/**
 * Certified delta_SDP for two categories at large n ({@link org.privacybounds.smoothed.sdp.twocategory.LargeNSmoothed}):
 * delta over blocks of histograms bounded from closed forms and exact sums, the expectation over each assignment's law
 * summed where it can matter and the rest bounded (docs/computing.md, "Smoothed DP over a set of distributions").
 */
package org.privacybounds.smoothed.sdp.twocategory;
