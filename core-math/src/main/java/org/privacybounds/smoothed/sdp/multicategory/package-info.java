/**
 * Certified two-sided bounds on delta_SDP for three or more categories at any n up to 2^31 - 1
 * ({@link org.privacybounds.smoothed.sdp.multicategory.MonotoneBounds}): a lower bound from one assignment's value, an
 * upper bound by branch and bound over regions of assignments, each bounded from evaluations of one pair's divergence.
 */
package org.privacybounds.smoothed.sdp.multicategory;
