package org.privacybounds.smoothed.sdp.twocategory;

/** A closed range [from, to] of integers: values of h, or of n1 (the records on the p_hi vertex). */
record Span(long from, long to) {
    /** How many integers it holds. */
    long size() {
        return to - from + 1;
    }
}
