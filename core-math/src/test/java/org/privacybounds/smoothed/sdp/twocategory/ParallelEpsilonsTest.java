package org.privacybounds.smoothed.sdp.twocategory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.privacybounds.smoothed.sdp.SmoothedValue;

/** The eps of a run solved at once: results in index order, and a failure of one eps stops the others and reaches the caller. */
class ParallelEpsilonsTest {
    private static final double[] EPS = {2, 0.5, 7, 1};

    private static SmoothedValue value(int e) {
        return new SmoothedValue(EPS[e], -e, new long[] {e}, 0, "test", e, 0);
    }

    private static <T> T inPool(Callable<T> task) throws Exception {
        ForkJoinPool pool = new ForkJoinPool(2);
        try {
            return pool.submit(task).get();
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void resultsComeInIndexOrderWhateverTheOrderOfTheEps() throws Exception {
        List<SmoothedValue> out = inPool(() -> new ParallelEpsilons().solve(EPS, ParallelEpsilonsTest::value));
        assertEquals(EPS.length, out.size());
        for (int e = 0; e < EPS.length; e++) {
            assertEquals(EPS[e], out.get(e).epsilon());
            assertEquals(-e, out.get(e).logDelta());
        }
        // one eps alone: the same value, on the calling thread
        assertEquals(-1, new ParallelEpsilons().solve(new double[] {EPS[1]}, e -> value(1)).get(0).logDelta());
    }

    @Test
    void aFailureStopsTheOthersAndTheSmallestFailingIndexReachesTheCaller() throws Exception {
        ParallelEpsilons s = new ParallelEpsilons();
        AtomicInteger stopped = new AtomicInteger();
        IllegalStateException one = new IllegalStateException("eps index 1");
        IllegalStateException three = new IllegalStateException("eps index 3");
        ExceptionHolder held = inPool(() -> {
            try {
                s.solve(EPS, e -> {
                    if (e == 1) {
                        throw one;
                    }
                    if (e == 3) {
                        throw three;
                    }
                    // a long eps: steps until another has failed, then stops at its next check
                    for (long i = 0; i < 10_000_000_000L; i++) {
                        try {
                            s.checkAbandoned();
                        } catch (RuntimeException abandoned) {
                            stopped.incrementAndGet();
                            throw abandoned;
                        }
                        Thread.onSpinWait();
                    }
                    return value(e);
                });
                return new ExceptionHolder(null);
            } catch (RuntimeException ex) {
                return new ExceptionHolder(ex);
            }
        });
        assertSame(one, held.ex(), "the failure of the smallest eps index that failed on its own");
        assertEquals(2, stopped.get(), "both other eps stopped at their next check");
    }

    @Test
    void aFailedRunDoesNotAbandonTheNextSequentialRun() {
        assertThrows(IllegalStateException.class, () -> ParallelEpsilons.sequential().solve(new double[] {1}, e -> {
            throw new IllegalStateException("alone");
        }));
        ParallelEpsilons.sequential().checkAbandoned(); // throws if the failure above marked a shared scheduler
    }

    private record ExceptionHolder(RuntimeException ex) {
    }
}
