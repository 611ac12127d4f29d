package org.privacybounds.jobs.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The sizes and durations the work estimates print. */
class WorkLimitTest {
    @Test
    void bytesGoUpToTerabytesAndBeyondThatToTwoDigits() {
        assertEquals("512 KB", WorkLimit.bytes(512 * 1024.0));
        assertEquals("286 MB", WorkLimit.bytes(286.0 * (1 << 20)));
        assertEquals("155.5 GB", WorkLimit.bytes(155.5 * (1L << 30)));
        assertEquals("999.0 GB", WorkLimit.bytes(999.0 * (1L << 30)));
        assertEquals("1.0 TB", WorkLimit.bytes(1024.0 * (1L << 30)));
        assertEquals("1,200 TB", WorkLimit.bytes(1241875.2 * (1L << 30)));
        assertEquals("3.5e+06 TB", WorkLimit.bytes(3.5e6 * (1L << 40)));
        assertEquals("unbounded", WorkLimit.bytes(Double.POSITIVE_INFINITY));
    }

    @Test
    void durationsPickTheirUnit() {
        assertEquals("79 s", WorkLimit.duration(79));
        assertEquals("0.037 s", WorkLimit.duration(0.0372));
        assertEquals("0 s", WorkLimit.duration(0));
        assertEquals("5 min", WorkLimit.duration(283));
        assertEquals("24.0 h", WorkLimit.duration(86400));
        assertEquals("44 days", WorkLimit.duration(44 * 86400));
        assertEquals("3 years", WorkLimit.duration(3 * 365 * 86400.0));
        assertEquals("7.6 years", WorkLimit.duration(7.62 * 365 * 86400));
        assertEquals("210 years", WorkLimit.duration(213.4 * 365 * 86400));
        assertEquals("21,000 years", WorkLimit.duration(2.14e4 * 365 * 86400));
        assertEquals("7.6e+08 years", WorkLimit.duration(7.6e8 * 365 * 86400));
    }
}
