package org.privacybounds.smoothed;

/** Which side of a neighbour pair the hockey-stick divergence is taken from. */
public enum Direction {
    /** {@code d(x, x')}: expectation under the given database x. */
    X_TO_NEIGHBOR("x->x'"),
    /** {@code d(x', x)}: expectation under the neighbour x'. */
    NEIGHBOR_TO_X("x'->x");

    private final String label;

    Direction(String label) {
        this.label = label;
    }

    /** The label used in outputs: {@code x->x'} or {@code x'->x}. */
    public String label() {
        return label;
    }
}
