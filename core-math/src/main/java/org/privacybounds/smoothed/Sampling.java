package org.privacybounds.smoothed;

/** How the sampling-histogram mechanism draws its T records. */
public enum Sampling {
    /** T distinct records, uniformly (the Smoothed DP paper, Algorithm 2): the sampled histogram is multivariate hypergeometric. */
    WITHOUT_REPLACEMENT,
    /** T independent uniform draws (the Smoothed DP paper, Appendix F): the sampled histogram is multinomial(T, h/n). */
    WITH_REPLACEMENT
}
