package org.privacybounds.numeric;

/**
 * Accumulates {@code sum_i exp(x_i)} from terms given as logarithms, without overflow or
 * underflow: the running sum is kept as {@code exp(max) * scaled}, rescaled when a larger term
 * arrives. The result is exact to a few ulps relative for sums of positive terms.
 */
public final class LogSumExp {
    private double max = Double.NEGATIVE_INFINITY;
    private double scaled; // sum of exp(x_i - max)
    private long count;

    /** Adds {@code exp(logTerm)}; {@code -Infinity} (a zero term) is ignored. */
    public LogSumExp add(double logTerm) {
        if (Double.isNaN(logTerm)) {
            throw new IllegalArgumentException("log term is NaN");
        }
        if (logTerm == Double.NEGATIVE_INFINITY) {
            return this;
        }
        count++;
        if (logTerm <= max) {
            scaled += Math.exp(logTerm - max);
        } else {
            scaled = scaled * Math.exp(max - logTerm) + 1.0;
            max = logTerm;
        }
        return this;
    }

    /** Adds every term of another accumulator. */
    public LogSumExp addAll(LogSumExp other) {
        if (other.count > 0) {
            add(other.log());
            count += other.count - 1;
        }
        return this;
    }

    /** log of the sum; {@code -Infinity} when no positive term was added. */
    public double log() {
        return count == 0 ? Double.NEGATIVE_INFINITY : max + Math.log(scaled);
    }

    /** Number of positive terms added. */
    public long count() {
        return count;
    }
}
