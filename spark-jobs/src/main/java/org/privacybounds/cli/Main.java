package org.privacybounds.cli;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.bayes.BayesAuditCommand;
import org.privacybounds.jobs.common.CommonChecks;
import org.privacybounds.jobs.common.EarlyExit;
import org.privacybounds.jobs.common.HadoopLocations;
import org.privacybounds.jobs.common.OptionNames;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Progress;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.ensemble.DarrmAggregateCommand;
import org.privacybounds.jobs.ensemble.DarrmOptimizeCommand;
import org.privacybounds.jobs.ensemble.DarrmVerifyCommand;
import org.privacybounds.jobs.precincts.PrecinctsCommand;
import org.privacybounds.jobs.pufferfish.PabiCommand;
import org.privacybounds.jobs.pufferfish.PufferfishSensitivityCommand;
import org.privacybounds.jobs.quantized.QuantizedProfileCommand;
import org.privacybounds.jobs.quantized.QuantizedSgdCommand;
import org.privacybounds.jobs.rdp.DpSgdAccountantCommand;
import org.privacybounds.jobs.smoothed.ElectionHistoryCommand;
import org.privacybounds.jobs.smoothed.ProfileCommand;
import org.privacybounds.jobs.smoothed.SmoothedCommand;
import org.privacybounds.jobs.smoothed.SmoothedSweepCommand;
import org.privacybounds.jobs.smoothed.UtilityCommand;
import org.privacybounds.jobs.teachers.PrivateTeachersCommand;
import org.privacybounds.numeric.Decimals;
import org.privacybounds.quantized.MonteCarloMean;
import org.privacybounds.validation.BadInputException;

import picocli.CommandLine.Command;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine;

/**
 * The command line: {@code privacy-bounds COMMAND [options]}. Exit 0 on success, 2 on bad input
 * (one line on stderr naming the parameter, the value and what is allowed), 1 on anything else.
 */
@Command(name = "privacy-bounds", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Exact, certified privacy bounds where worst-case differential privacy says too little.",
        subcommands = {ProfileCommand.class, UtilityCommand.class, ElectionHistoryCommand.class, PrecinctsCommand.class, SmoothedCommand.class, SmoothedSweepCommand.class, QuantizedSgdCommand.class, QuantizedProfileCommand.class, PufferfishSensitivityCommand.class, PabiCommand.class, DarrmOptimizeCommand.class, DarrmVerifyCommand.class, DarrmAggregateCommand.class, PrivateTeachersCommand.class, DpSgdAccountantCommand.class, BayesAuditCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Run 'privacy-bounds COMMAND --help' for the options and an example of each command."})
public final class Main implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** No command given: the usage on stderr and exit 2 (a script that forgot its command must not look successful). */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("error: no command given");
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** Set once the command has returned: a shutdown before that is an interruption (SIGINT, SIGTERM). */
    private static volatile boolean finished;

    public static void main(String[] args) {
        Thread hook = new Thread(() -> {
            if (!finished) {
                // the JVM exits with 128 + the signal (130 for Ctrl-C); say so in one line and leave no partial output
                System.err.println("privacy-bounds: interrupted; nothing was written to --out (its temporary folder is removed)");
                OutputDir.abandonAll();
            }
        }, "privacy-bounds-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        int code = run(args, System.out, System.err);
        finished = true;
        SparkSession.getDefaultSession().foreach(s -> {
            s.stop();
            return null;
        });
        SparkSessions.removeRunFolder();
        System.exit(code);
    }

    /** Runs one command with the given streams; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine cl = new CommandLine(new Main());
        PrintWriter o = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        PrintWriter e = Progress.stderr(err);
        cl.setOut(o);
        cl.setErr(e);
        // a Path option (an input file) may be a file: URI, or a URI of a Hadoop FileSystem (hdfs://, s3a://, ...) copied into
        // this run's scratch folder; picocli names the option in the error
        cl.registerConverter(Path.class, v -> {
            try {
                return HadoopLocations.isRemote(v) ? HadoopLocations.download("input", v)
                        : HadoopLocations.local("input", v);
            } catch (UserInputException bad) {
                throw new CommandLine.TypeConversionException(bad.getMessage().replaceFirst("^input = ", ""));
            }
        });
        // decimals are kept as typed (no double rounding) within the range where they mean anything
        cl.registerConverter(BigDecimal.class, v -> {
            try {
                return Decimals.parse(v);
            } catch (NumberFormatException bad) {
                throw new CommandLine.TypeConversionException("'" + v + "' is not a decimal number");
            }
        });
        // whole numbers as people write them for elections and datasets: 158000000 or 1.58e8 (exactly an integer)
        cl.registerConverter(Long.class, v -> wholeNumber(v, Long.MIN_VALUE, Long.MAX_VALUE));
        cl.registerConverter(long.class, v -> wholeNumber(v, Long.MIN_VALUE, Long.MAX_VALUE));
        cl.registerConverter(Integer.class, v -> (int) wholeNumber(v, Integer.MIN_VALUE, Integer.MAX_VALUE));
        cl.registerConverter(int.class, v -> (int) wholeNumber(v, Integer.MIN_VALUE, Integer.MAX_VALUE));
        cl.registerConverter(MonteCarloMean.Interval.class, v -> {
            try {
                return MonteCarloMean.Interval.parse(v);
            } catch (BadInputException bad) {
                throw new CommandLine.TypeConversionException("'" + v + "': " + bad.allowed());
            }
        });
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        readableHelp(cl);
        boolean verbose = Arrays.asList(args).contains("--verbose");
        cl.setParameterExceptionHandler((ex, a) -> {
            // one line, as for every other bad input: the problem, a suggestion where picocli has one, where the usage is
            StringBuilder line = new StringBuilder("error: ").append(printable(ex.getMessage().replaceFirst("^Error: ", "")));
            if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
                line.append("; did you mean: ").append(String.join(" or ", u.getSuggestions().subList(0, Math.min(3, u.getSuggestions().size())))).append('?');
            }
            String name = ex.getCommandLine().getCommandName();
            e.println(line.append(" (run 'privacy-bounds ").append(name.equals("privacy-bounds") ? "" : name + " ").append("--help' for usage)"));
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
            if (shuttingDown()) {
                return 130; // interrupted: the shutdown hook says so in one line; the job's cancellation is not an error of its own
            }
            RuntimeException bad = UserInputException.findIn(ex);
            if (bad != null) {
                // core-math names the parameter as the mathematics does; the user reads this command's option
                bad = OptionNames.forCommand(cmd.getCommandName(), bad);
                e.println("error: " + printable(bad.getMessage()));
                return 2;
            }
            e.println("error: " + printable(oneLine(ex)) + (verbose ? "" : " (run with --verbose for the stack trace)"));
            if (verbose) {
                ex.printStackTrace(e);
            }
            return 1;
        });
        cl.setExecutionStrategy(parsed -> {
            ParseResult sub = parsed;
            while (sub.hasSubcommand()) {
                sub = sub.subcommand();
            }
            Progress.to(e, sub.commandSpec().name());
            if (sub.isUsageHelpRequested() || sub.isVersionHelpRequested()) {
                return new CommandLine.RunLast().execute(parsed);
            }
            try {
                CommonChecks.check(sub);
            } catch (UserInputException bad) {
                throw new CommandLine.ExecutionException(sub.commandSpec().commandLine(), bad.getMessage(), bad);
            }
            // a line on stderr whenever 10 s pass without one, for as long as the command runs
            Progress.begin(e, sub.commandSpec().name());
            try {
                return new CommandLine.RunLast().execute(parsed);
            } finally {
                Progress.end();
            }
        });
        int code;
        try {
            code = cl.execute(args);
        } catch (OutOfMemoryError oom) {
            // the run's arrays are unreachable by now: there is room to say so in one line
            e.println("error: out of memory: the run needed more than the JVM's heap of " + Math.round(Runtime.getRuntime().maxMemory() / 1e6)
                    + " MB; give it more (PRIVACY_BOUNDS_JAVA_OPTS=-Xmx..) or reduce the work; nothing was written to --out"
                    + (verbose ? "" : " (run with --verbose for the stack trace)"));
            if (verbose) {
                oom.printStackTrace(e);
            }
            code = 1;
        }
        o.flush();
        e.flush();
        return code;
    }

    /**
     * Help that reads well and pastes: each command's description is one paragraph wrapped to the usage width, and the
     * examples of the footer are printed verbatim (never wrapped inside a command; long ones continue with a backslash).
     */
    static void readableHelp(CommandLine cl) {
        List<CommandLine> all = new ArrayList<>(cl.getSubcommands().values());
        all.add(cl);
        for (CommandLine c : all) {
            c.setUsageHelpAutoWidth(true);
            c.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_DESCRIPTION, help -> {
                String[] d = help.commandSpec().usageMessage().description();
                if (d.length == 0) {
                    return "";
                }
                return wrap(String.join(" ", d).replace("%n", " ").replace("%%", "%").replaceAll("\\s+", " ").trim(),
                        help.commandSpec().usageMessage().width()) + "%n".replace("%n", System.lineSeparator());
            });
            c.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER, help -> {
                StringBuilder b = new StringBuilder();
                for (String line : help.commandSpec().usageMessage().footer()) {
                    b.append(line.replace("%%", "%")).append(System.lineSeparator());
                }
                return b.toString();
            });
        }
    }

    /** A command's --help as the documentation shows it: {@code width} columns, whatever the terminal. */
    public static String helpText(String command, int width) {
        CommandLine cl = new CommandLine(new Main());
        readableHelp(cl);
        CommandLine c = cl.getSubcommands().get(command);
        c.setUsageHelpAutoWidth(false);
        c.setUsageHelpWidth(width);
        return c.getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /** The names of every command, in the order of the usage. */
    public static List<String> commandNames() {
        return new CommandLine(new Main()).getSubcommands().keySet().stream().filter(n -> !n.equals("help")).toList();
    }

    /** Word wrap at {@code width} columns. */
    static String wrap(String text, int width) {
        StringBuilder out = new StringBuilder();
        int col = 0;
        for (String w : text.split(" ")) {
            if (col > 0 && col + 1 + w.length() > width) {
                out.append(System.lineSeparator());
                col = 0;
            } else if (col > 0) {
                out.append(' ');
                col++;
            }
            out.append(w);
            col += w.length();
        }
        return out.toString();
    }

    /** True while the JVM shuts down (SIGINT, SIGTERM): hooks can no longer be added then. */
    static boolean shuttingDown() {
        Thread probe = new Thread(() -> { });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }

    /** The innermost cause's message, which names what went wrong (a full disk, a lost executor), with its type. */
    static String oneLine(Throwable ex) {
        Throwable root = ex;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        if (root instanceof IOException && m != null && m.contains("No space left on device")) {
            return "the disk is full (No space left on device); nothing was written to --out";
        }
        return root.getClass().getSimpleName() + (m == null ? "" : ": " + m.lines().findFirst().orElse(""));
    }

    /**
     * A whole number as typed, in [min, max]: digits, or a decimal that is exactly an integer (1.58e8, 2.0); picocli names the
     * option in the error.
     */
    static long wholeNumber(String v, long min, long max) {
        BigDecimal d;
        try {
            d = Decimals.parse(v);
        } catch (NumberFormatException bad) {
            d = null;
        }
        if (d == null || d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
            throw new CommandLine.TypeConversionException("'" + v + "' is not a whole number (e.g. 158000000 or 1.58e8)");
        }
        if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new CommandLine.TypeConversionException("'" + v + "' is out of range (at most " + max + " in size)");
        }
        return d.longValue();
    }

    /** The message with control characters (from input files or arguments) shown as escapes, on one line. */
    static String printable(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(c -> {
            if (c == '\n') {
                b.append("\\n");
            } else if (c == '\r') {
                b.append("\\r");
            } else if (c == '\t') {
                b.append("\\t");
            } else if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT) {
                b.append(String.format("\\u%04x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.toString();
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
