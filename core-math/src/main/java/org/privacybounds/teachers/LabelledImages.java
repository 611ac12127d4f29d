package org.privacybounds.teachers;

import java.io.Serializable;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * Images as feature rows with binary labels (1 = the positive class, e.g. digit 8; 0 = the other).
 *
 * @param x one row of features per image (all rows of the same length)
 * @param y 0 or 1 per image
 */
public record LabelledImages(double[][] x, int[] y) implements Serializable {
    public LabelledImages {
        if (x.length != y.length) {
            throw new BadInputException(Parameter.IMAGES, x.length + " rows and " + y.length + " labels", "need one label per image");
        }
        for (int i = 0; i < x.length; i++) {
            if (x[i].length != x[0].length) {
                throw new BadInputException(Parameter.IMAGES, "row " + i + " has " + x[i].length + " features", "every row needs " + x[0].length);
            }
            if (y[i] != 0 && y[i] != 1) {
                throw new BadInputException(Parameter.LABELS, "row " + i + ": " + y[i], "labels must be 0 or 1");
            }
        }
    }

    public int size() {
        return y.length;
    }

    public int features() {
        return x.length == 0 ? 0 : x[0].length;
    }

    /** The rows at the given indices, in that order. */
    public LabelledImages subset(int[] idx) {
        double[][] xs = new double[idx.length][];
        int[] ys = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            xs[i] = x[idx[i]];
            ys[i] = y[idx[i]];
        }
        return new LabelledImages(xs, ys);
    }
}
