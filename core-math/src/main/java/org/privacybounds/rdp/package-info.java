/**
 * Renyi differential privacy (RDP) accounting: the Poisson-subsampled Gaussian mechanism of DP-SGD
 * ({@link org.privacybounds.rdp.SubsampledGaussianRdp}), composition over steps and conversion to (eps, delta)
 * ({@link org.privacybounds.rdp.DpSgdAccountant}, {@link org.privacybounds.rdp.RdpConversion}), and the GNMax
 * aggregator of the DaRRM paper's Appendix D.2.1 ({@link org.privacybounds.rdp.Gnmax}).
 *
 * <p>Example: the TensorFlow Privacy MNIST tutorial (60,000 examples, batches of 256, noise multiplier 1.1, 60 epochs):
 * <pre>{@code
 * DpSgdAccountant.Result r = DpSgdAccountant.account(256.0 / 60000, 1.1, 14063, 1e-5, DpSgdAccountant.defaultOrders());
 * r.epsilon();        // 2.60 (conversion of Canonne, Kamath and Steinke 2020)
 * r.classicEpsilon(); // 3.01 (eps = rdp + log(1/delta)/(alpha - 1), what the tutorial reports)
 * }</pre>
 */
package org.privacybounds.rdp;
