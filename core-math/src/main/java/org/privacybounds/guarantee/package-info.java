/**
 * One privacy guarantee record for every subject ({@link org.privacybounds.guarantee.Guarantee}: eps, delta in log space,
 * how it was obtained and its certified relative error) and one composition module
 * ({@link org.privacybounds.guarantee.Composition}: basic and general composition).
 *
 * <pre>{@code
 * Guarantee perQuery = Guarantee.of(0.2676, 0.0003, "DaRRM, (m eps, m Delta)", 0);
 * Guarantee total = Composition.general(perQuery, 100, 1e-4); // (15.044, 0.030): the DaRRM paper's Table 2
 * }</pre>
 */
package org.privacybounds.guarantee;
