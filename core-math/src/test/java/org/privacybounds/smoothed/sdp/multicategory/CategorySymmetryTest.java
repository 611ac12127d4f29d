package org.privacybounds.smoothed.sdp.multicategory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The vertices a relabelling of the categories maps onto a given vertex, while mapping the hull's vertices onto themselves. */
class CategorySymmetryTest {
    @Test
    void twoVerticesThatSwapTwoCategoriesAreOneOrbit() {
        double[][] v = {{0.35, 0.25, 0.40}, {0.25, 0.35, 0.40}};
        assertEquals(0b10, CategorySymmetry.orbit(v, 0));
        assertEquals(0b01, CategorySymmetry.orbit(v, 1));
    }

    @Test
    void aCyclicHullIsOneOrbitOfThree() {
        double[][] v = {{0.5, 0.3, 0.2}, {0.2, 0.5, 0.3}, {0.3, 0.2, 0.5}};
        assertEquals(0b110, CategorySymmetry.orbit(v, 0));
        assertEquals(0b101, CategorySymmetry.orbit(v, 1));
    }

    /** The swap of categories 2 and 3 maps vertices 1 and 2 onto each other and vertex 3 onto itself. */
    @Test
    void aVertexTheRelabellingFixesHasNoOrbit() {
        double[][] v = {{0.5, 0.3, 0.2}, {0.5, 0.2, 0.3}, {0.6, 0.2, 0.2}};
        assertEquals(0b010, CategorySymmetry.orbit(v, 0));
        assertEquals(0, CategorySymmetry.orbit(v, 2));
    }

    /** A relabelling must map every vertex onto a vertex: here the swap maps vertices 1 and 2, but not vertex 3 (0.1 != 0.2). */
    @Test
    void aRelabellingThatMovesAnotherVertexOffTheHullDoesNotCount() {
        double[][] v = {{0.5, 0.3, 0.2}, {0.5, 0.2, 0.3}, {0.7, 0.1, 0.2}};
        assertEquals(0, CategorySymmetry.orbit(v, 0));
        // shares equal only to rounding are not the same vertex
        assertEquals(0, CategorySymmetry.orbit(new double[][] {{0.35, 0.25, 0.40}, {0.25, 0.35000000000000003, 0.40}}, 0));
    }

    @Test
    void withMoreThanEightCategoriesNothingIsSearched() {
        double[] a = {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.15, 0.05};
        double[] b = {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05, 0.15};
        assertEquals(0, CategorySymmetry.orbit(new double[][] {a, b}, 0));
        assertEquals(0b10, CategorySymmetry.orbit(new double[][] {java.util.Arrays.copyOfRange(a, 2, 10), java.util.Arrays.copyOfRange(b, 2, 10)}, 0));
    }
}
