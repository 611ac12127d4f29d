package org.privacybounds.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.EarlyExit;
import org.privacybounds.jobs.bayes.BayesAuditCommand;
import org.privacybounds.jobs.ensemble.DarrmAggregateCommand;
import org.privacybounds.jobs.ensemble.DarrmOptimizeCommand;
import org.privacybounds.jobs.ensemble.DarrmVerifyCommand;
import org.privacybounds.jobs.pufferfish.PabiCommand;
import org.privacybounds.jobs.pufferfish.PufferfishSensitivityCommand;
import org.privacybounds.jobs.quantized.QuantizedProfileCommand;
import org.privacybounds.jobs.quantized.QuantizedSgdCommand;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.smoothed.ElectionHistoryCommand;
import org.privacybounds.jobs.smoothed.ProfileCommand;
import org.privacybounds.jobs.smoothed.SmoothedCommand;
import org.privacybounds.jobs.smoothed.SmoothedSweepCommand;
import org.privacybounds.jobs.smoothed.UtilityCommand;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line: {@code privacy-bounds COMMAND [options]}. Exit 0 on success, 2 on bad input
 * (one line on stderr naming the parameter, the value and what is allowed), 1 on anything else.
 */
@Command(name = "privacy-bounds", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Exact, certified privacy bounds where worst-case differential privacy says too little.",
        subcommands = {ProfileCommand.class, UtilityCommand.class, ElectionHistoryCommand.class, SmoothedCommand.class, SmoothedSweepCommand.class, QuantizedSgdCommand.class, QuantizedProfileCommand.class, PufferfishSensitivityCommand.class, PabiCommand.class, DarrmOptimizeCommand.class, DarrmVerifyCommand.class, DarrmAggregateCommand.class, BayesAuditCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Run 'privacy-bounds COMMAND --help' for the options and an example of each command."})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        SparkSession.getDefaultSession().foreach(s -> {
            s.stop();
            return null;
        });
        System.exit(code);
    }

    /** Runs one command with the given streams; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine cl = new CommandLine(new Main());
        PrintWriter o = new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        PrintWriter e = new PrintWriter(new java.io.OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        cl.setOut(o);
        cl.setErr(e);
        cl.setParameterExceptionHandler((ex, a) -> {
            e.println("error: " + ex.getMessage().replaceFirst("^Error: ", ""));
            e.println("Run 'privacy-bounds " + ex.getCommandLine().getCommandName() + " --help' for usage.");
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parse) -> {
            if (ex instanceof EarlyExit done) {
                e.println(done.getMessage());
                if (done.stdout() != null) {
                    o.println(done.stdout());
                }
                return 0;
            }
            RuntimeException bad = UserInputException.findIn(ex);
            if (bad != null) {
                e.println("error: " + bad.getMessage());
                return 2;
            }
            e.println("error: " + ex);
            ex.printStackTrace(e);
            return 1;
        });
        int code = cl.execute(args);
        o.flush();
        e.flush();
        return code;
    }

    /** Version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"privacy-bounds " + (v == null ? "(development build)" : v)};
        }
    }
}
