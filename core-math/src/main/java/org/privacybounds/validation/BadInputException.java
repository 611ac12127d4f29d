package org.privacybounds.validation;

/**
 * A user-supplied value is outside what a computation allows. The message names the parameter,
 * the value given and what is allowed, in one line, so a command line can print it as it is.
 *
 * <p>The parameter is a typed {@link Parameter} key (and, for an element, a qualifier such as {@code [2]}), which a command
 * line maps to its own option name; a name the caller chose itself (an option or a file it was given) is kept as it is.
 *
 * <p>Example:
 * <pre>{@code
 * try {
 *     SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, -1);
 * } catch (BadInputException e) {
 *     System.err.println(e.getMessage());   // "T = -1: must be >= 0": the parameter, the value, what is allowed
 *     e.key();                              // Parameter.SAMPLE_SIZE
 * }
 * }</pre>
 */
public final class BadInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final Parameter key;
    private final String qualifier;
    private final String parameter;
    private final String value;
    private final String allowed;

    /**
     * @param key     the parameter
     * @param value   the value given
     * @param allowed what is allowed, e.g. "must be in (0, 1)"
     */
    public BadInputException(Parameter key, Object value, String allowed) {
        this(key, "", value, allowed);
    }

    /**
     * @param key       the parameter
     * @param qualifier which part of it, appended to its name: "[2]" for an element, " file:cov.csv" for a source
     * @param value     the value given
     * @param allowed   what is allowed
     */
    public BadInputException(Parameter key, String qualifier, Object value, String allowed) {
        this(key, qualifier, key.symbol() + qualifier, shown(value), allowed);
    }

    /**
     * A parameter named by the caller itself: an option or a file it was given ("--sample-size", "--data"), shown as it is.
     */
    public BadInputException(String name, Object value, String allowed) {
        this(null, "", name, shown(value), allowed);
    }

    private BadInputException(Parameter key, String qualifier, String parameter, String value, String allowed) {
        super(parameter + " = " + value + ": " + allowed);
        this.key = key;
        this.qualifier = qualifier;
        this.parameter = parameter;
        this.value = value;
        this.allowed = allowed;
    }

    /** The same complaint about the same value under another name (a command line's option for this parameter, with the qualifier). */
    public BadInputException renamed(String name) {
        BadInputException e = new BadInputException(key, qualifier, name + qualifier, value, allowed);
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

    /** The parameter as the message names it (e.g. {@code eta} or {@code counts[2]}). */
    public String parameter() {
        return parameter;
    }

    /** The typed parameter, or null when the caller named it ({@link #BadInputException(String, Object, String)}). */
    public Parameter key() {
        return key;
    }

    /** Which part of the parameter ("[2]"), or "". */
    public String qualifier() {
        return qualifier;
    }
}
