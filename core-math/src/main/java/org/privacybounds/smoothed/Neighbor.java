package org.privacybounds.smoothed;

/**
 * A neighbour of a database under replace-one: one record moved from category {@code from} to
 * category {@code to} (0-based indices; outputs print them 1-based), and the direction of the
 * divergence that attains a maximum.
 */
public record Neighbor(int from, int to, Direction direction) {
}
