package org.privacybounds.jobs.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class ColumnsTest {
    record Point(long n, double delta, String label, boolean pure) {
    }

    private static final Columns<Point> COLS = Columns.<Point>of().integer("n", Point::n).shown("n", "%-4d").number("delta", Point::delta)
            .shown("delta", "%-10.3e").number("log10Delta", p -> Math.log10(p.delta())).string("label", Point::label).bool("pure", Point::pure)
            .textOnly("half", "%.1f", p -> p.n() / 2.0);

    private static final List<Point> ROWS = List.of(new Point(10, 0.5, "a,b", true), new Point(3, 0, "c", false));

    @Test
    void oneDeclarationRendersEveryFormat() {
        assertEquals(List.of("n", "delta", "log10Delta", "label", "pure"), COLS.names());
        assertEquals(new StructType().add("n", DataTypes.LongType).add("delta", DataTypes.DoubleType).add("log10Delta", DataTypes.DoubleType)
                .add("label", DataTypes.StringType).add("pure", DataTypes.BooleanType), COLS.schema());
        // CSV: quoted commas, an empty cell for log10 0
        assertEquals("n,delta,log10Delta,label,pure\n10,0.5,-0.3010299956639812,\"a,b\",true\n3,0.0,,c,false\n", COLS.csv(ROWS));
        // JSON: null for log10 0, numbers as numbers
        assertEquals("[{\"n\":10,\"delta\":0.5,\"log10Delta\":-0.3010299956639812,\"label\":\"a,b\",\"pure\":true},"
                + "{\"n\":3,\"delta\":0.0,\"log10Delta\":null,\"label\":\"c\",\"pure\":false}]", Json.write(COLS.json(ROWS)));
        StringWriter s = new StringWriter();
        try (PrintWriter o = new PrintWriter(s)) {
            COLS.printText(o, ROWS);
        }
        assertEquals("n    delta      half\n10   5.000e-01  5.0\n3    0.000e+00  1.5\n", s.toString().replace("\r\n", "\n"));
    }

    @Test
    void aProbabilityBelowTheDoublesPrintsFromItsLog10() {
        assertEquals("1.084935e-2141", Columns.scientific(0.0, -2141 + Math.log10(1.084935)));
        assertEquals("1.000000e-400", Columns.scientific(0.0, -400 + 1e-12));
        assertEquals("1.000000e-307", Columns.scientific(Math.pow(10, -307.0), -307), "within the doubles as %.6e");
        assertEquals("2.500000e-01", Columns.scientific(0.25, Math.log10(0.25)));
        assertEquals("9.999999e-321", Columns.scientific(1e-320, -320 + Math.log10(0.9999999)), "a subnormal from its log10");
        assertEquals("0.000000e+00", Columns.scientific(0.0, Double.NEGATIVE_INFINITY), "a true 0");
    }

    @Test
    void partsOfALargerRecordAndConcatenation() {
        record Outer(String name, Point p) {
        }
        Columns<Outer> c = Columns.<Outer>of().string("name", Outer::name).then(COLS.on(Outer::p));
        assertEquals(List.of("name", "n", "delta", "log10Delta", "label", "pure"), c.names());
        assertEquals(List.of("x", 3L, 0.0, Double.NEGATIVE_INFINITY, "c", false), c.row(new Outer("x", ROWS.get(1))));
    }
}
