package org.privacybounds.validation;

/**
 * A user-supplied value is outside what a computation allows. The message names the parameter,
 * the value given and what is allowed, in one line, so a command line can print it as it is.
 *
 * <p>Example:
 * <pre>{@code
 * try {
 *     SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, -1);
 * } catch (BadInputException e) {
 *     System.err.println(e.getMessage());   // "T = -1: must be >= 0"-style: the parameter, the value, what is allowed
 * }
 * }</pre>
 */
public final class BadInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String parameter;
    private final String value;
    private final String allowed;

    /**
     * @param parameter the parameter's name as the mathematics writes it ("eps", "T", "n", "counts"); a command line
     *                  shows its own option name instead ({@link #renamed})
     * @param value     the value given
     * @param allowed   what is allowed, e.g. "must be in (0, 1)"
     */
    public BadInputException(String parameter, Object value, String allowed) {
        super(parameter + " = " + shown(value) + ": " + allowed);
        this.parameter = parameter;
        this.value = shown(value);
        this.allowed = allowed;
    }

    /** The same complaint about the same value under another name (a command line's option for this parameter). */
    public BadInputException renamed(String name) {
        BadInputException e = new BadInputException(name, value, allowed);
        e.setStackTrace(getStackTrace());
        return e;
    }

    /** What is allowed. */
    public String allowed() {
        return allowed;
    }

    /** The value as a message shows it: at most 200 characters (a 5 MB cell stays a one-line message). */
    static String shown(Object value) {
        String s = String.valueOf(value);
        return s.length() <= 200 ? s : s.substring(0, 120) + "... (" + s.length() + " characters)";
    }

    /** The name of the offending parameter (e.g. {@code eta} or {@code counts[2]}). */
    public String parameter() {
        return parameter;
    }
}
