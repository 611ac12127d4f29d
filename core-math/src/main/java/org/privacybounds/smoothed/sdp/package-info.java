/**
 * delta_SDP of the sampling-histogram mechanism over a set of distributions (Liu, Wang and Xia, "Smoothed Differential
 * Privacy", Definition 3 and Algorithm 1): the set itself ({@link org.privacybounds.smoothed.sdp.DistributionSet}, its
 * hull's vertices and the enclosing simplex), every assignment of the records to the vertices exactly at small n
 * ({@link org.privacybounds.smoothed.sdp.VertexEnumeration}) and the result record
 * ({@link org.privacybounds.smoothed.sdp.SmoothedValue}). Larger n: {@code twocategory} (two categories and at most two vertices,
 * up to n = 1e10), {@code multicategory} (three or more categories, certified two-sided bounds) on top of {@code pair} (one pair
 * of categories' divergence and its expectation over a multinomial law).
 */
package org.privacybounds.smoothed.sdp;
