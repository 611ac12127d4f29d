package org.privacybounds.jobs.common;

import org.privacybounds.validation.BadInputException;

/** Bad input detected by the command line layer: exit code 2 with a one-line message. */
public final class UserInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UserInputException(String parameter, Object value, String allowed) {
        super(new BadInputException(parameter, value, allowed).getMessage());
    }

    public UserInputException(String message) {
        super(message);
    }

    /** The first bad-input exception in a cause chain (Spark wraps task failures), or null. */
    public static RuntimeException findIn(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof UserInputException || c instanceof BadInputException) {
                return (RuntimeException) c;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }
}
