package org.privacybounds.jobs.common;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.UUID;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A small table written as Parquet on the driver, without a Spark job: a folder holding one snappy-compressed part file
 * and {@code _SUCCESS}, the layout Spark writes and reads ({@code spark.read().parquet(folder)}). For the few hundred rows
 * a command's result has, a Spark write costs 1-3 s of job set-up (and a SparkSession to start); this costs milliseconds.
 * Columns: long, int, double, string and boolean, optional or required as the schema's nullability says; a non-finite double
 * in a nullable column is null.
 */
final class LocalParquet {
    private LocalParquet() {
    }

    static void write(Path folder, StructType schema, List<List<Object>> rows) {
        try {
            Files.createDirectories(folder);
            write0(folder.resolve("part-00000-" + UUID.randomUUID() + "-c000.snappy.parquet"), schema, rows);
            Files.writeString(folder.resolve("_SUCCESS"), "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write0(Path part, StructType schema, List<List<Object>> rows) throws IOException {
        Types.MessageTypeBuilder b = Types.buildMessage();
        for (StructField f : schema.fields()) {
            b.addField(type(f));
        }
        MessageType type = b.named("spark_schema");
        SimpleGroupFactory groups = new SimpleGroupFactory(type);
        StructField[] fields = schema.fields();
        {
            // a plain file (no Hadoop FileSystem, no .crc files) and a Configuration without its default resources
            try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new FileOutput(part)).withConf(new Configuration(false)).withType(type)
                    .withCompressionCodec(CompressionCodecName.SNAPPY).build()) {
                for (List<Object> r : rows) {
                    Group g = groups.newGroup();
                    for (int i = 0; i < fields.length; i++) {
                        Object v = r.get(i);
                        if (v == null || (v instanceof Double d && !Double.isFinite(d) && fields[i].nullable())) {
                            continue; // absent: null
                        }
                        DataType t = fields[i].dataType();
                        if (t.equals(DataTypes.LongType)) {
                            g.add(i, ((Number) v).longValue());
                        } else if (t.equals(DataTypes.IntegerType)) {
                            g.add(i, ((Number) v).intValue());
                        } else if (t.equals(DataTypes.DoubleType)) {
                            g.add(i, ((Number) v).doubleValue());
                        } else if (t.equals(DataTypes.BooleanType)) {
                            g.add(i, (Boolean) v);
                        } else {
                            g.add(i, Binary.fromString(v.toString()));
                        }
                    }
                    w.write(g);
                }
            }
        }
    }

    /** A local file as Parquet's output. */
    private record FileOutput(Path file) implements OutputFile {
        @Override
        public PositionOutputStream create(long blockSizeHint) throws IOException {
            OutputStream o = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), 1 << 16);
            return new PositionOutputStream() {
                private long pos;

                @Override
                public long getPos() {
                    return pos;
                }

                @Override
                public void write(int b) throws IOException {
                    o.write(b);
                    pos++;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    o.write(b, off, len);
                    pos += len;
                }

                @Override
                public void flush() throws IOException {
                    o.flush();
                }

                @Override
                public void close() throws IOException {
                    o.close();
                }
            };
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
            Files.deleteIfExists(file);
            return create(blockSizeHint);
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }
    }

    /** Whether every column has a type this writer handles. */
    static boolean supports(StructType schema) {
        for (StructField f : schema.fields()) {
            DataType t = f.dataType();
            if (!(t.equals(DataTypes.LongType) || t.equals(DataTypes.IntegerType) || t.equals(DataTypes.DoubleType) || t.equals(DataTypes.BooleanType)
                    || t.equals(DataTypes.StringType))) {
                return false;
            }
        }
        return true;
    }

    private static Type type(StructField f) {
        DataType t = f.dataType();
        Type.Repetition rep = f.nullable() ? Type.Repetition.OPTIONAL
                : Type.Repetition.REQUIRED;
        Types.PrimitiveBuilder<PrimitiveType> p;
        if (t.equals(DataTypes.LongType)) {
            p = Types.primitive(PrimitiveTypeName.INT64, rep);
        } else if (t.equals(DataTypes.IntegerType)) {
            p = Types.primitive(PrimitiveTypeName.INT32, rep);
        } else if (t.equals(DataTypes.DoubleType)) {
            p = Types.primitive(PrimitiveTypeName.DOUBLE, rep);
        } else if (t.equals(DataTypes.BooleanType)) {
            p = Types.primitive(PrimitiveTypeName.BOOLEAN, rep);
        } else {
            p = Types.primitive(PrimitiveTypeName.BINARY, rep).as(LogicalTypeAnnotation.stringType());
        }
        return p.named(f.name());
    }
}
