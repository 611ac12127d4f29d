package org.privacybounds.jobs.common;

import java.io.IOException;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The skeleton every command fills in: {@link #check()} the options and refuse work beyond {@code --max-work} before
 * anything is written, {@link #compute(OutputDir)} inside the output folder (one call into the library), and the
 * {@link Report} it returns prints the result and commits the folder.
 *
 * <pre>{@code
 * protected void check() { h = Counts.parse("--counts", counts); WorkLimit.check(spec, common, "--counts", seconds, bytes); }
 * protected Report compute(OutputDir out) { var v = Library.evaluate(h); return Report.of(json(v)).table("results.csv", COLUMNS, rows(v)); }
 * }</pre>
 */
public abstract class BoundsCommand implements Callable<Integer> {
    @Spec
    protected CommandSpec spec;

    @Mixin
    protected CommonOptions common;

    /** The command's picocli model (its output and error streams). */
    public final CommandSpec spec() {
        return spec;
    }

    /** The options every command shares. */
    public final CommonOptions common() {
        return common;
    }

    /** A new result object of this command, {"command": its name}; the command adds its parameters and results. */
    public final ObjectNode resultObject() {
        ObjectNode root = Json.object();
        root.put("command", spec.name());
        return root;
    }

    /** Checks every option and the inputs the estimate needs, and refuses a run beyond {@code --max-work}; writes nothing. */
    protected abstract void check() throws IOException;

    /** Computes the result (inside the output folder, which is null without {@code --out}) and returns how to report it. */
    protected abstract Report compute(OutputDir out) throws IOException;

    /**
     * True when the command reads its inputs only inside {@link #compute} (on Spark), so that a dry run ends where
     * {@link OutputDir#inputsRead} is called instead of before computing.
     */
    protected boolean readsInputsInCompute() {
        return false;
    }

    @Override
    public final Integer call() throws IOException {
        check();
        try (OutputDir out = readsInputsInCompute() ? OutputDir.beginBeforeInputs(spec, common) : OutputDir.begin(spec, common)) {
            compute(out).finish(spec, common, out);
            return 0;
        }
    }
}
