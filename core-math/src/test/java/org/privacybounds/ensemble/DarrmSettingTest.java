package org.privacybounds.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.validation.BadInputException;

/** The DaRRM setting's public API as its Javadoc shows it. */
class DarrmSettingTest {
    @Test
    void pureSettingOptimizesAndComposes() {
        DarrmSetting s = DarrmSetting.of(11, 3, 0.1, 0, Double.NaN);
        assertEquals(0, s.delta());
        DarrmOptimizer.Result r = DarrmOptimizer.optimize(s.constraints(), s.m(), s.delta(),
                DarrmOptimizer.objective(11, DarrmSetting.UNIFORM_FOLDED_MEAN));
        // the optimised gamma is feasible for (m eps, delta) and at least as good as subsampling m = 3 (the paper's Figure 2)
        double worst = s.constraints().scanAll(DarrmOptimizer.free(r.gamma()), Math.exp(s.m() * s.epsilon()), Double.POSITIVE_INFINITY, 0).max();
        assertTrue(worst <= ConstraintSet.bound(s.m(), s.epsilon(), s.delta()) * (1 + 1e-9), worst + "");
        double[] c = DarrmOptimizer.objective(11, DarrmSetting.UNIFORM_FOLDED_MEAN);
        double opt = 0;
        double sub = 0;
        double[] g = NoiseFunctions.subsampling(11, 3);
        double[] fo = DarrmOptimizer.free(r.gamma());
        double[] fs = DarrmOptimizer.free(g);
        for (int l = 0; l < c.length; l++) {
            opt += c[l] * fo[l];
            sub += c[l] * fs[l];
        }
        assertTrue(opt <= sub + 1e-12, opt + " vs " + sub); // the objective is minimised (c_l <= 0)
        assertEquals(11, s.majorityTau(), 0);
        assertEquals(0, s.majorityGuarantee().delta());
        assertEquals(0.3, s.target().epsilon(), 1e-15);
    }

    @Test
    void subsamplingSetsTheTargetByTheGeneralComposition() {
        DarrmSetting s = DarrmSetting.subsampled(11, 5, 0.0892, 1e-4, 0.1);
        Guarantee g = Composition.general(Guarantee.of(0.0892, 1e-4, "each", 0), 5, 0.1);
        assertEquals(g.epsilon() / 0.0892, s.m(), 1e-15);
        assertEquals(g.delta(), s.delta(), 0);
        Guarantee all = Composition.general(Guarantee.of(0.0892, 1e-4, "each", 0), 11, 0.1);
        assertEquals(all.epsilon() / 0.0892, s.majorityTau(), 1e-15);
        // the default target delta composes m mechanisms: 1 - (1 - Delta)^m
        assertEquals(-Math.expm1(3 * Math.log1p(-1e-4)), DarrmSetting.of(11, 3, 0.1, 1e-4, Double.NaN).delta(), 0);
        // Beta(1, 1) is the uniform prior
        assertEquals(DarrmSetting.UNIFORM_FOLDED_MEAN, DarrmSetting.betaFoldedMean(1, 1), 1e-10);
        assertEquals("K", assertThrows(BadInputException.class, () -> DarrmSetting.of(4, 1, 0.1, 0, Double.NaN)).parameter());
        assertEquals("m eps", assertThrows(BadInputException.class, () -> DarrmSetting.of(301, 300, 3, 0, Double.NaN)).parameter());
        assertEquals("delta", assertThrows(BadInputException.class, () -> DarrmSetting.of(11, 3, 0.1, 0.1, 0.01)).parameter());
        assertEquals("M", assertThrows(BadInputException.class, () -> DarrmSetting.subsampled(11, 12, 0.1, 0, 0.1)).parameter());
    }
}
