package org.privacybounds.smoothed;

/** Which adjusted utility of the Bayesian adversary (Liu, Wang and Xia, "Smoothed Differential Privacy", Section 3, Appendix A.1). */
public enum UtilityForm {
    /**
     * Appendix A.1, the form plotted in Figure 1: {@code max over neighbours x' of u(x, x', t)},
     * expectation under the real database x, posterior over {x, x'} with a uniform prior (not Eq. (3)'s maximum over the missing value).
     */
    FIGURE1,
    /**
     * Eq. (3): the adversary knows x minus record i and predicts record i; the maximum over which
     * value the record truly has, and over the records i of x. For m = 2 this is
     * {@code max over x' of max(u(x, x', t), u(x', x, t))}.
     */
    EQ3
}
