package org.privacybounds.teachers;

import java.io.Serializable;

/** Logistic regression: P(label 1 | x) = sigmoid(w . x + b); the weights are {w_1..w_d, b}. */
public record LogisticModel(double[] weights) implements Serializable {
    /** w . x + b. */
    public double score(double[] x) {
        double s = weights[x.length];
        for (int j = 0; j < x.length; j++) {
            s += weights[j] * x[j];
        }
        return s;
    }

    /** The predicted label (1 when the score is positive). */
    public int predict(double[] x) {
        return score(x) > 0 ? 1 : 0;
    }

    /** Predicted labels of every image. */
    public int[] predict(LabelledImages images) {
        int[] out = new int[images.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = predict(images.x()[i]);
        }
        return out;
    }

    /** Fraction of images whose predicted label is the true one. */
    public double accuracy(LabelledImages images) {
        int ok = 0;
        for (int i = 0; i < images.size(); i++) {
            if (predict(images.x()[i]) == images.y()[i]) {
                ok++;
            }
        }
        return images.size() == 0 ? Double.NaN : (double) ok / images.size();
    }
}
