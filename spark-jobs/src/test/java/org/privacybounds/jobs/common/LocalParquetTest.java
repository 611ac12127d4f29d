package org.privacybounds.jobs.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.testing.SparkTestSession;

/** Parquet written on the driver reads back in Spark exactly as Spark's own write does. */
class LocalParquetTest extends SparkTestSession {
    @Test
    void readsBackLikeSparksOwnWrite(@TempDir Path dir) throws Exception {
        StructType schema = new StructType().add("n", DataTypes.LongType, false).add("k", DataTypes.IntegerType).add("delta", DataTypes.DoubleType)
                .add("log10Delta", DataTypes.DoubleType).add("label", DataTypes.StringType).add("pure", DataTypes.BooleanType);
        List<List<Object>> rows = List.of(Arrays.asList(10L, 3, 0.5, Math.log10(0.5), "a,b \"c\"", true),
                Arrays.asList(2_000_000_000_000L, -1, 0.0, Double.NEGATIVE_INFINITY, "é", false), Arrays.asList(1L, 0, 1e-300, -300.0, null, null));
        LocalParquet.write(dir.resolve("local.parquet"), schema, rows);
        assertTrue(Files.exists(dir.resolve("local.parquet/_SUCCESS")));
        try (var s = Files.list(dir.resolve("local.parquet"))) {
            assertFalse(s.anyMatch(p -> p.getFileName().toString().endsWith(".crc")), "no checksum files");
        }
        Dataset<Row> d = spark.read().parquet(dir.resolve("local.parquet").toString());
        assertEquals(schema.fieldNames().length, d.columns().length);
        for (int i = 0; i < schema.fields().length; i++) {
            assertEquals(schema.fields()[i].name(), d.schema().fields()[i].name());
            assertEquals(schema.fields()[i].dataType(), d.schema().fields()[i].dataType());
        }
        List<Row> got = d.collectAsList();
        assertEquals(3, got.size());
        assertEquals(10L, got.get(0).getLong(0));
        assertEquals(3, got.get(0).getInt(1));
        assertEquals(Math.log10(0.5), got.get(0).getDouble(3), 0);
        assertEquals("a,b \"c\"", got.get(0).getString(4));
        assertTrue(got.get(0).getBoolean(5));
        assertEquals(2_000_000_000_000L, got.get(1).getLong(0));
        assertTrue(got.get(1).isNullAt(3), "log10 of 0 is null");
        assertEquals("é", got.get(1).getString(4));
        assertEquals(1e-300, got.get(2).getDouble(2), 0);
        assertNull(got.get(2).get(4));
        assertTrue(got.get(2).isNullAt(5));
    }
}
