package org.privacybounds.smoothed.sdp.twocategory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ForkJoinTask;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.privacybounds.smoothed.sdp.SmoothedValue;

/**
 * Solves the eps of a run at once, on the fork-join pool the caller runs in, instead of one after the other (a large-n
 * search's end scans, exact batches and slope bounds are mostly sequential: one eps alone leaves a second core idle). The
 * values are those of the sequential run, digit for digit, as long as each eps reads and writes only its own values. When
 * one eps fails, the others stop at their next {@link #checkAbandoned()}, and the failure of the smallest eps index that
 * failed on its own reaches the caller.
 */
final class ParallelEpsilons {
    /** Set when one eps failed: the others stop at their next step instead of running on. */
    private volatile boolean abandoned;

    /** A scheduler for eps run one after the other: a new one per run, so that a failed run never marks the next abandoned. */
    static ParallelEpsilons sequential() {
        return new ParallelEpsilons();
    }

    /** Called by a solving eps between its steps: stops it when another eps has failed. */
    void checkAbandoned() {
        if (abandoned) {
            throw new Abandoned();
        }
    }

    /** {@code one.apply(e)} for every eps index, at once; the results in index order. */
    List<SmoothedValue> solve(double[] eps, IntFunction<SmoothedValue> one) {
        SmoothedValue[] out = new SmoothedValue[eps.length];
        RuntimeException[] failed = new RuntimeException[eps.length];
        IntConsumer run = e -> {
            try {
                out[e] = one.apply(e);
            } catch (RuntimeException ex) {
                abandoned = true;
                failed[e] = ex;
            } catch (Error err) { // out of memory and the like: the others stop too, the error reaches the caller through join
                abandoned = true;
                throw err;
            }
        };
        // the smallest eps (the flattest f: the most work) runs here; the others are forked in increasing order, so an idle
        // thread takes the next largest first (stealing takes the oldest fork), and the parallel parts inside an eps are
        // stolen only once every eps has a thread
        int[] order = IntStream.range(0, eps.length).boxed().sorted(Comparator.comparingDouble(i -> eps[i]))
                .mapToInt(Integer::intValue).toArray();
        List<ForkJoinTask<?>> forked = new ArrayList<>();
        for (int i = 1; i < order.length; i++) {
            int e = order[i];
            forked.add(ForkJoinTask.adapt(() -> run.accept(e)).fork());
        }
        run.accept(order[0]);
        // newest first: a fork no thread has taken yet is run here at once (joining an older one that another thread runs would
        // wait for it with the newer ones still queued)
        for (int i = forked.size() - 1; i >= 0; i--) {
            forked.get(i).join();
        }
        for (RuntimeException ex : failed) {
            if (ex != null && !(ex instanceof Abandoned)) {
                throw ex;
            }
        }
        return List.of(out);
    }

    /** Thrown inside an eps whose run was abandoned because another eps failed; never leaves {@link #solve}. */
    private static final class Abandoned extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Abandoned() {
            super("abandoned", null, false, false);
        }
    }
}
