package org.privacybounds.jobs.common;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG line plots (XChart), headless. */
public final class Plots {
    private Plots() {
    }

    /** One line of a plot. */
    public record Series(String name, double[] x, double[] y, boolean dashed, Color color) {
    }

    /**
     * A plot of base-10 logarithms on a linear y axis: the values a log-scale plot would show, but
     * also for probabilities far below the smallest double (1e-308).
     */
    public static void log10Lines(Path png, String title, String xTitle, String yTitle, List<Series> series) {
        XYChart chart = newChart(title, xTitle, yTitle);
        double minX = Double.POSITIVE_INFINITY;
        double maxX = 0;
        for (Series s : series) {
            for (double x : s.x) {
                minX = Math.min(minX, x);
                maxX = Math.max(maxX, x);
            }
        }
        // a grid spanning two decades or more (log-spaced n) reads better on a log axis
        chart.getStyler().setXAxisLogarithmic(minX > 0 && maxX / minX >= 100);
        addSeries(chart, series, Double::isFinite);
        save(chart, png);
    }

    /** A plot with linear axes (points with a non-finite y are left out of their line). */
    public static void lines(Path png, String title, String xTitle, String yTitle, List<Series> series) {
        XYChart chart = newChart(title, xTitle, yTitle);
        addSeries(chart, series, Double::isFinite);
        save(chart, png);
    }

    /** A palette for many lines. */
    public static Color color(int i) {
        Color[] c = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
                new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf)};
        return c[i % c.length];
    }

    /**
     * A plot with a base-10 logarithmic y axis. Points whose y is not a positive double (an
     * underflow) are left out of that line.
     */
    public static void semilogY(Path png, String title, String xTitle, String yTitle, List<Series> series) {
        XYChart chart = newChart(title, xTitle, yTitle);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setXAxisDecimalPattern("#");
        addSeries(chart, series, y -> y > 0 && Double.isFinite(y));
        save(chart, png);
    }

    /** A white 1000 x 600 chart with its legend below, headless. */
    private static XYChart newChart(String title, String xTitle, String yTitle) {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(1000).height(600).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotBackgroundColor(Color.WHITE);
        return chart;
    }

    /** Adds the lines to a chart: points where {@code keep} fails are left out of their line. */
    private static void addSeries(XYChart chart, List<Series> series, java.util.function.DoublePredicate keep) {
        for (Series s : series) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (int i = 0; i < s.x.length; i++) {
                if (keep.test(s.y[i])) {
                    xs.add(s.x[i]);
                    ys.add(s.y[i]);
                }
            }
            if (xs.isEmpty()) {
                continue;
            }
            XYSeries xy = chart.addSeries(s.name, xs, ys);
            xy.setLineColor(s.color);
            xy.setMarkerColor(s.color);
            if (s.dashed) {
                xy.setLineStyle(SeriesLines.DASH_DASH);
                xy.setMarker(SeriesMarkers.NONE);
            } else {
                xy.setLineStyle(new BasicStroke(2f));
                xy.setMarker(SeriesMarkers.CIRCLE);
            }
        }
    }

    private static void save(XYChart chart, Path png) {
        try (OutputStream os = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, os, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
