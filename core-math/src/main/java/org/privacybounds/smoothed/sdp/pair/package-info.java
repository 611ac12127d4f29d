/**
 * One pair of categories of the sampling-histogram mechanism: its divergence
 * ({@link org.privacybounds.smoothed.sdp.pair.PairDivergence}, which bounds delta of a histogram of any number of
 * categories), and certified lower and upper bounds on its expectation when every record is drawn from one distribution,
 * by its two directions ({@link org.privacybounds.smoothed.sdp.pair.DirectionSum},
 * {@link org.privacybounds.smoothed.sdp.pair.PairDirections} and the boxes it uses).
 */
package org.privacybounds.smoothed.sdp.pair;
