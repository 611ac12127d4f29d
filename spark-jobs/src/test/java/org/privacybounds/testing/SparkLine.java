package org.privacybounds.testing;

import org.junit.jupiter.api.Assumptions;

/**
 * The Spark line a build tests (spark-jobs: 3.5, spark-jobs-spark4: 4; the same test sources). What does not depend on the
 * line (documentation, help, schemas, driver-only arithmetic, the launcher's own shell) is checked on the Spark 3.5 build
 * only, which keeps CI within its time.
 */
public final class SparkLine {
    private SparkLine() {
    }

    public static boolean isSpark4() {
        return "4".equals(System.getenv("PRIVACY_BOUNDS_SPARK"));
    }

    /** Skips the calling test (or, from a {@code @BeforeAll}, its class) on the Spark 4 build. */
    public static void checkedOnSpark35Only(String what) {
        Assumptions.assumeFalse(isSpark4(), what + " does not depend on the Spark line: checked on the Spark 3.5 build");
    }
}
