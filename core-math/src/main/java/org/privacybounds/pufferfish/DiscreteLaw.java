package org.privacybounds.pufferfish;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * A finite law on R with integer masses: distinct atoms in ascending order and a positive count for
 * each (an empirical distribution is the counts of each value). Probabilities are
 * {@code counts[i] / total}; keeping the counts lets couplings run in exact integer arithmetic.
 *
 * <p>Example:
 * <pre>{@code
 * DiscreteLaw grades = DiscreteLaw.of(12, 14, 15, 15);   // atoms 12, 14, 15 with counts 1, 1, 2
 * double mean = grades.mean();                            // 14
 * }</pre>
 */
public record DiscreteLaw(double[] atoms, long[] counts, long total) implements Serializable {
    private static final long serialVersionUID = 1L;

    public DiscreteLaw {
        if (atoms.length == 0 || atoms.length != counts.length) {
            throw new BadInputException(Parameter.LAW, atoms.length + " atoms, " + counts.length + " counts", "needs at least one atom and one count per atom");
        }
        long sum = 0;
        for (int i = 0; i < atoms.length; i++) {
            if (!Double.isFinite(atoms[i]) || (i > 0 && !(atoms[i] > atoms[i - 1]))) {
                throw new BadInputException(Parameter.ATOMS, Arrays.toString(atoms), "must be finite, distinct and ascending");
            }
            if (counts[i] <= 0) {
                throw new BadInputException(Parameter.COUNTS, "[" + i + "]", counts[i], "must be >= 1");
            }
            sum = Math.addExact(sum, counts[i]);
        }
        if (sum != total) {
            throw new BadInputException(Parameter.TOTAL, total, "must equal the sum of the counts, " + sum);
        }
    }

    /** The law of the given values, each counted once per occurrence (any order, repeats merged). */
    public static DiscreteLaw of(double... values) {
        TreeMap<Double, Long> m = new TreeMap<>();
        for (double v : values) {
            m.merge(v == 0 ? 0.0 : v, 1L, Long::sum);
        }
        return of(m);
    }

    /** The law with {@code counts.get(value)} occurrences of each value. */
    public static DiscreteLaw of(Map<Double, Long> counts) {
        TreeMap<Double, Long> sorted = new TreeMap<>();
        counts.forEach((k, v) -> sorted.merge(k == 0 ? 0.0 : k, v, Long::sum));
        double[] a = new double[sorted.size()];
        long[] c = new long[sorted.size()];
        long total = 0;
        int i = 0;
        for (Map.Entry<Double, Long> e : sorted.entrySet()) {
            a[i] = e.getKey();
            c[i] = e.getValue();
            total = Math.addExact(total, Math.max(0, c[i]));
            i++;
        }
        return new DiscreteLaw(a, c, total);
    }

    public int size() {
        return atoms.length;
    }

    public double min() {
        return atoms[0];
    }

    public double max() {
        return atoms[atoms.length - 1];
    }

    public double mean() {
        double s = 0;
        for (int i = 0; i < atoms.length; i++) {
            s += atoms[i] * counts[i];
        }
        return s / total;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DiscreteLaw d && Arrays.equals(atoms, d.atoms) && Arrays.equals(counts, d.counts);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(atoms) + Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < atoms.length; i++) {
            b.append(i == 0 ? "" : " ").append(atoms[i]).append(':').append(counts[i]);
        }
        return b.append('}').toString();
    }
}
