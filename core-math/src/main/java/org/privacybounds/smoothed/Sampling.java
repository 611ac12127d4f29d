package org.privacybounds.smoothed;

/** How the sampling-histogram mechanism draws its T records. */
public enum Sampling {
    /** T distinct records, uniformly (seed 000 Algorithm 2): the sampled histogram is multivariate hypergeometric. */
    WITHOUT_REPLACEMENT,
    /** T independent uniform draws (seed 000 Appendix F): the sampled histogram is multinomial(T, h/n). */
    WITH_REPLACEMENT
}
