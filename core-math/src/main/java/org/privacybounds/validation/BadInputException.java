package org.privacybounds.validation;

/**
 * A user-supplied value is outside what a computation allows. The message names the parameter,
 * the value given and what is allowed, in one line, so a command line can print it as it is.
 */
public final class BadInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String parameter;

    public BadInputException(String parameter, Object value, String allowed) {
        super(parameter + " = " + value + ": " + allowed);
        this.parameter = parameter;
    }

    /** The name of the offending parameter (e.g. {@code --eta} or {@code counts[2]}). */
    public String parameter() {
        return parameter;
    }
}
