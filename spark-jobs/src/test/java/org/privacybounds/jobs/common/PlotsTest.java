package org.privacybounds.jobs.common;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;

/** The figures' axes, ticks, labels and colours, and that XChart labels every tick we ask for. */
class PlotsTest {

    @Test
    void powersOfTenAreWrittenAsNumbers() {
        assertEquals("1", Plots.powerOfTen(0));
        assertEquals("0.001", Plots.powerOfTen(-3));
        assertEquals("10000", Plots.powerOfTen(4));
        assertEquals("1e-140", Plots.powerOfTen(-140));
        assertEquals("1e5", Plots.powerOfTen(5));
        assertEquals("3.2e-9", Plots.powerOfTen(Math.log10(3.2e-9)));
        assertEquals("0.500", Plots.powerOfTen(Math.log10(0.5)));
    }

    @Test
    void aTitleWiderThanTheChartIsSetSmallerAndAShortOneIsKept() {
        java.awt.Font font = new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 14);
        java.awt.font.FontRenderContext frc = new java.awt.font.FontRenderContext(null, true, true);
        String longTitle = "Smoothed DP of the sampling-histogram mechanism: votes of president_2020_states_three_way.csv, eta = 0.998 (hull of Pi)";
        assertTrue(font.getStringBounds(longTitle, frc).getWidth() > 800, "the case needs a title wider than the chart");
        java.awt.Font fitted = Plots.titleFont(font, longTitle, 800);
        assertTrue(fitted.getSize2D() < 14 && fitted.getStringBounds(longTitle, frc).getWidth() <= 800, "size " + fitted.getSize2D());
        assertEquals(14, Plots.titleFont(font, "Figure 1", 800).getSize2D(), 0);
    }

    /**
     * XChart centres the title over the plot, which a legend beside it narrows and the y axis moves right: with the
     * three-category sweep's title and its ten long legend entries (legend to the right), and a longer title over three (legend
     * below), the saved picture has ink in its title band but none in the first or last three columns there (the first was cut
     * at the left edge before the title was fitted to the chart less its legend, the second at the right before the y axis's
     * allowance).
     */
    @ParameterizedTest
    @ValueSource(ints = {10, 3})
    void aLongTitleOverAPlotNarrowedByItsLegendIsNotCut(int count, @TempDir Path tmp) throws Exception {
        String title = "Smoothed DP of the sampling-histogram mechanism: votes of president_2020_states_three_way.csv, eta = 0.998 (hull of Pi)"
                + (count < 6 ? ", sampled without replacement" : "");
        Plots.Builder b = Plots.figure(title).x("n (records)", Plots.Scale.LINEAR).logXIfWide().y("delta_SDP (log scale)", Plots.Scale.LOG10);
        for (int i = 0; i < count; i++) {
            b.add(new Plots.Series("eps = " + (i + 0.5) + " (upper bound where bounded)", new double[] {1e4, 1e7}, new double[] {-i, -10 - 7 * i},
                    i % 2 == 1, Plots.color(i)));
        }
        Path png = tmp.resolve("t.png");
        b.save(png);
        java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
        int white = Color.WHITE.getRGB();
        boolean ink = false;
        for (int y = 0; y < 30; y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                boolean edge = x < 3 || x >= img.getWidth() - 3;
                if (img.getRGB(x, y) != white) {
                    assertTrue(!edge, "ink at the edge, column " + x + ", row " + y);
                    ink = true;
                }
            }
        }
        assertTrue(ink, "the title is drawn");
    }

    @Test
    void stepsAreOneTwoFiveAndWholeDecadesOnLogAxes() {
        assertEquals(20, Plots.niceStep(140, true));
        assertEquals(1, Plots.niceStep(1.4, true));
        assertEquals(0.2, Plots.niceStep(1.4, false), 1e-15);
        assertEquals(10, Plots.niceStep(100, false));
        assertEquals(500, Plots.niceStep(4000, false));
    }

    @Test
    void aLogAxisEndsAtDecadesAndLabelsAtMostTwelveTicks() {
        Plots.Figure f = Plots.figure("t").x("year", Plots.Scale.LINEAR).xStep(20).y("p", Plots.Scale.LOG10)
                .add(new Plots.Series("d", new double[] {1920, 1960, 2020}, new double[] {-19.6, -60, -138.97}, false, Color.RED)).build();
        assertEquals(-139, f.y().min(), "the range ends at the decade below the data, not at a tick of 20 decades");
        assertEquals(-19, f.y().max(), 0, "and at the decade above it");
        assertTrue(f.y().ticks().length <= Plots.MAX_TICKS, "ticks: " + f.y().ticks().length);
        assertEquals("1e-120", f.y().label(f.y().ticks()[0]));
        assertArrayEquals(new double[] {1920, 1940, 1960, 1980, 2000, 2020}, f.x().ticks(), 0);
        assertTrue(f.x().min() < 1920 && f.x().max() > 2020, "markers at the ends are inside the plot");
        assertTrue(Plots.drawsEveryTick(f), "XChart labels 1920..2020 and every decade tick");
    }

    @Test
    void categoriesSitAtIntegersAndNothingElseIsLabelled() {
        Plots.Figure f = Plots.figure("e").categories("method", List.of("gamma_opt", "gamma_sub", "gamma_const")).y("error", Plots.Scale.LINEAR).yIncludes(0)
                .add(new Plots.Series("a", new double[] {0}, new double[] {0.038}, new double[] {0.0004}, Plots.Style.POINTS, Color.RED))
                .add(new Plots.Series("b", new double[] {1}, new double[] {0.096}, new double[] {0.001}, Plots.Style.POINTS, Color.BLUE)).build();
        assertArrayEquals(new double[] {0, 1, 2}, f.x().ticks(), 0);
        assertEquals("gamma_sub", f.x().label(1));
        assertEquals("", f.x().label(0.5).replaceAll("[\\u200B-\\u200D\\u2060]", ""), "between categories: no visible text");
        assertNotEquals(f.x().label(0.5), f.x().label(1.5), "but distinct labels (XChart loops forever on repeated labels)");
        assertEquals(0, f.y().min());
        assertTrue(f.y().max() >= 0.097, "the error bar fits: " + f.y().max());
        assertTrue(Plots.drawsEveryTick(f));
    }

    @Test
    void aGridOfNOverTwoDecadesGetsALogXAxis() {
        Plots.Figure f = Plots.figure("s").x("n", Plots.Scale.LINEAR).logXIfWide().y("delta", Plots.Scale.LOG10)
                .add(new Plots.Series("eps = 1", new double[] {1000, 10000, 100000}, new double[] {-3, -10, -45}, false, Color.RED)).build();
        assertEquals(Plots.Scale.LOG10, f.x().scale());
        assertArrayEquals(new double[] {3, 4, 5}, f.x().ticks(), 0);
        // one format per axis: 1e5 is past the plain range, so every tick is written 1eK (not 1000, 10000, 1e5)
        assertEquals("1e3", f.x().label(3));
        assertEquals("1e5", f.x().label(5));
        assertArrayEquals(new double[] {3, 4, 5}, f.series().get(0).x(), 1e-12);
        assertTrue(Plots.drawsEveryTick(f));
    }

    @Test
    void underflowsAndNaNsAreLeftOutOfTheirLine() {
        Plots.Figure f = Plots.figure("u").x("x", Plots.Scale.LINEAR).y("y", Plots.Scale.LOG10)
                .add(new Plots.Series("a", new double[] {1, 2, 3}, new double[] {-1, Double.NEGATIVE_INFINITY, Double.NaN}, false, Color.RED))
                .add(new Plots.Series("empty", new double[] {1}, new double[] {Double.NaN}, false, Color.BLUE)).build();
        assertEquals(1, f.series().size(), "a series with no finite point is not drawn");
        assertArrayEquals(new double[] {1}, f.series().get(0).x(), 0);
    }

    @Test
    void twelveOrderedSeriesGetTwelveDistinctColours() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 12; i++) {
            seen.add(Plots.sequential(i, 12).getRGB());
        }
        assertEquals(12, seen.size());
        Set<Integer> categorical = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            categorical.add(Plots.color(i).getRGB());
        }
        assertEquals(20, categorical.size());
    }

    @Test
    void savesThePngAndTheFigureBesideIt(@TempDir Path tmp) throws Exception {
        Path png = tmp.resolve("f.png");
        Plots.figure("title").x("year", Plots.Scale.LINEAR).y("p", Plots.Scale.LOG10)
                .add(new Plots.Series("d", new double[] {1, 2}, new double[] {-5, -7}, false, new Color(0x1f77b4))).save(png);
        byte[] bytes = Files.readAllBytes(png);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(bytes, 4));
        JsonNode j = Json.MAPPER.readTree(Plots.jsonOf(png).toFile());
        assertEquals("title", j.get("title").asText());
        assertEquals("log10", j.get("y").get("scale").asText());
        assertEquals("#1f77b4", j.get("series").get(0).get("color").asText());
        assertEquals(-7, j.get("series").get(0).get("points").get(1).get(1).asDouble());
        assertEquals(tmp.resolve("f.plot.json"), Plots.jsonOf(png));
    }
}
