package org.privacybounds.quantized;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.privacybounds.validation.BadInputException;

class SmoothedSgdTest {
    @Test
    void assignmentSets() {
        List<int[]> e = new SmoothedSgd.Endpoints().of(10, 3);
        assertEquals(3, e.size());
        assertArrayEquals(new int[] {0, 10, 0}, e.get(1));
        // grid:2 at n = 49: n_1 = 49, round(24.5) = 25, 0; grid:4 at n = 2 drops the duplicates
        List<int[]> g = new SmoothedSgd.Grid(2).of(49, 2);
        assertEquals(List.of("49+0", "25+24", "0+49"), g.stream().map(SmoothedSgd::label).toList());
        assertEquals(List.of("2+0", "1+1", "0+2"), new SmoothedSgd.Grid(4).of(2, 2).stream().map(SmoothedSgd::label).toList());
        assertEquals(6, new SmoothedSgd.All().of(5, 2).size());
        BadInputException three = assertThrows(BadInputException.class, () -> new SmoothedSgd.Grid(3).of(10, 3));
        assertEquals("assignments", three.parameter());
        assertThrows(BadInputException.class, () -> new SmoothedSgd.All().of(SmoothedSgd.MAX_ALL_N + 1, 2));
        assertThrows(BadInputException.class, () -> new SmoothedSgd.Grid(0));
    }

    @Test
    void theBoundIsTheLargestUpperLimitAndComposesLikeDp() {
        QuantizedDistribution[] pi = {QuantizedDistribution.gaussian(0, 0.12, 8), QuantizedDistribution.gaussian(0.2, 0.12, 8)};
        SamplingAverageMechanism m = new SamplingAverageMechanism(new CodeGrid(8), 6, OutputRounding.ROUND);
        double[] eps = {0.5, 2};
        int n = 36;
        List<SmoothedSgd.Estimate> est = new ArrayList<>();
        List<int[]> as = new SmoothedSgd.Grid(2).of(n, 2);
        for (int[] a : as) {
            List<SmoothedSgd.Trial> trials = new ArrayList<>();
            for (int r = 0; r < 10; r++) {
                trials.add(SmoothedSgd.trial(m, pi, n, a, 3, r, eps, SamplingAverageMechanism.Neighbors.ALL));
            }
            // the estimate is MonteCarloMean of the exact deltas, drawn from the documented seeds
            double[] vals = new double[10];
            for (int r = 0; r < 10; r++) {
                int[] h = DatabaseSampler.histogram(pi, a, DatabaseSampler.trialSeed(3, SmoothedSgd.settingKey(n, a), r));
                vals[r] = m.profile(h, eps)[1].delta();
            }
            MonteCarloMean mc = MonteCarloMean.of(vals, 6.0 / n, 0.9);
            SmoothedSgd.Estimate x = SmoothedSgd.estimate(a, trials, 1, 6.0 / n, 0.9, MonteCarloMean.Interval.STUDENT);
            assertEquals(mc.mean(), x.mean(), 0);
            assertEquals(mc.studentHigh(), x.ciHigh(), 0);
            assertEquals(mc.bernsteinHigh(), x.bernsteinHigh(), 0);
            est.add(x);
        }
        SmoothedSgd.StepBound b = SmoothedSgd.bound(n, 6, 2, est, MonteCarloMean.Interval.STUDENT, 10);
        double max = est.stream().mapToDouble(SmoothedSgd.Estimate::ciHigh).max().getAsDouble();
        assertEquals(max, b.smoothedDelta(), 0);
        assertEquals(est.stream().filter(x -> x.ciHigh() == max).findFirst().get().assignment(), b.argmaxAssignment());
        assertEquals(20, b.composedEpsilon(), 1e-12);
        assertEquals(Math.min(1, 10 * max), b.composedDelta(), 1e-15);
        assertEquals(6.0 / 36, b.dpDelta(), 0);
        assertThrows(BadInputException.class, () -> MonteCarloMean.Interval.parse("wald"));
        assertEquals(MonteCarloMean.Interval.STUDENT, MonteCarloMean.Interval.parse("student-t"));
        assertThrows(BadInputException.class, () -> SmoothedSgd.bound(n, 6, 2, est, MonteCarloMean.Interval.STUDENT, 0));
    }
}
