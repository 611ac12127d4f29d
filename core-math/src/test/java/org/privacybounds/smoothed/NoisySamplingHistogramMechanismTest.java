package org.privacybounds.smoothed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.privacybounds.exact.ExactMath;
import org.privacybounds.exact.ExactSamplingProfile;
import org.privacybounds.validation.BadInputException;

class NoisySamplingHistogramMechanismTest {
    @Test
    void realisedEpsilonExceedsThePapersNominalValue() {
        // the Smoothed DP paper's Algorithm 4, n = 20, T = 2, eps = 10: realised 2.693 > eta eps = 1 (Table 1's claim
        // fails), and below the amplified bound ln(1 + eta (e^eps - 1)) = 7.698
        NoisySamplingHistogramMechanism m = NoisySamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 2, 10);
        double[] worst = m.worstCase(20, 2, 1.0);
        assertEquals(2.693, worst[1], 5e-4);
        assertEquals(1.0, m.nominalEpsilon(20), 1e-15);
        assertEquals(7.698, m.amplifiedEpsilon(20), 5e-4);
        assertTrue(worst[1] > m.nominalEpsilon(20));
        // and n = 10, T = 5, eps = 1: 0.2654 <= 0.5
        NoisySamplingHistogramMechanism m2 = NoisySamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 5, 1);
        assertEquals(0.2654, m2.worstCase(10, 2, 0.1)[1], 5e-5);
    }

    @Test
    void foldedTailAgreesWithABruteForceGrid() {
        // exact path sums the noisy law over an explicit grid [0, T + 60]^m: the skipped mass is
        // below m r^61/(1-r) with r = e^{-2/4}, about 1e-13
        for (Sampling s : Sampling.values()) {
            int[] h = {3, 2};
            int t = 3;
            double noiseEps = 2;
            double eps = 0.1;
            ExactSamplingProfile ex = new ExactSamplingProfile(s, t);
            Map<List<Integer>, BigDecimal> base = ex.noisyLaw(h, noiseEps, 60);
            BigDecimal best = BigDecimal.ZERO;
            BigDecimal e = ExactMath.exp(eps);
            for (int[] hp : ExactSamplingProfile.neighbours(h)) {
                Map<List<Integer>, BigDecimal> other = ex.noisyLaw(hp, noiseEps, 60);
                best = best.max(ExactSamplingProfile.hockeyStick(base, other, e)).max(ExactSamplingProfile.hockeyStick(other, base, e));
            }
            double fast = NoisySamplingHistogramMechanism.of(s, t, noiseEps).profile(h, eps).profile().logDelta();
            assertEquals(0, ExactMath.relativeError(fast, best), 1e-9, s.toString());
        }
    }

    @Test
    void noiseOnlyHelps() {
        // post-processing (Proposition 4): noise cannot increase delta_eps(x)
        int[] h = {6, 4, 2};
        for (double eps : new double[] {0, 0.5, 2}) {
            double plain = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 4).profile(h, eps).delta();
            double noisy = NoisySamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 4, 1).profile(h, eps).profile().delta();
            assertTrue(noisy <= plain + 1e-15, eps + ": " + noisy + " > " + plain);
        }
    }

    @Test
    void tooLargeIsAClearError() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> NoisySamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 5000, 1).profile(new int[] {3000, 3000}, 1));
        assertTrue(e.getMessage().startsWith("T = "), e.getMessage());
        assertThrows(BadInputException.class, () -> NoisySamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 5, 0));
    }
}
