package org.privacybounds.jobs.common;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
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

    /**
     * Checks, begins the output folder and computes. What {@link #check} prints (the notices and work estimates) is held until the
     * run begins, so that a run refused by then (a bad option, --max-work, a finished --out of other parameters) says so in its
     * one error line only; a dry run prints it (its estimates are what it is for), a rerun of a finished result does not.
     */
    @Override
    public final Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        StringWriter held = new StringWriter();
        spec.commandLine().setErr(new PrintWriter(held, true));
        OutputDir started = null;
        boolean show = false;
        try {
            check();
            started = readsInputsInCompute() ? OutputDir.beginBeforeInputs(spec, common) : OutputDir.begin(spec, common);
            show = true;
        } catch (EarlyExit done) {
            show = common.dryRun;
            throw done;
        } finally {
            release(err, show ? held : null);
        }
        try (OutputDir out = started) {
            compute(out).finish(spec, common, out);
            return 0;
        }
    }

    /** Restores the command's error stream and prints what was held there (nothing where {@code held} is null). */
    private void release(PrintWriter err, StringWriter held) {
        spec.commandLine().setErr(err);
        if (held != null && held.getBuffer().length() > 0) {
            err.print(held);
            err.flush();
        }
    }
}
