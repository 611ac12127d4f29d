package org.privacybounds.jobs.common;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.font.FontRenderContext;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * PNG plots (XChart, headless), each written with the figure it draws as {@code NAME.plot.json} beside it (title, axes with
 * their scale, range and ticks, and every series with its points), so that tests, and users who replot, read exactly what
 * the picture shows.
 *
 * <p>Logarithmic axes are drawn from base-10 logarithms on a linear axis whose ticks are labelled as powers of ten: the
 * values a log-scale plot would show, also for probabilities far below the smallest double (1e-308), and with ticks chosen
 * here (whole decades, at most {@link #MAX_TICKS}) rather than one per decade. A categorical x axis places its categories
 * at 0, 1, 2, ...
 */
public final class Plots {
    /** At most this many labelled ticks on an axis. */
    public static final int MAX_TICKS = 12;

    static {
        // charts are drawn off screen, also on machines with a display server (as on a cluster's driver)
        System.setProperty("java.awt.headless", "true");
    }

    private Plots() {
    }

    /** How an axis maps values. */
    public enum Scale {
        /** Values as given. */
        LINEAR,
        /** The values are base-10 logarithms; ticks are labelled 10^k. */
        LOG10,
        /** The values are category indices 0..k-1; ticks are the category names. */
        CATEGORY
    }

    /** How a series is drawn. */
    public enum Style {
        /** A solid line with a marker at every point. */
        LINE,
        /** A dashed line, no markers (reference curves). */
        DASHED,
        /** Markers only, with error bars when the series has them. */
        POINTS,
        /** A wide pale line, no markers, drawn under the others (a curve that nearly coincides with another). */
        BAND,
        /** A histogram's outline: a solid line through the given corners, no markers. */
        OUTLINE
    }

    /**
     * One series: points (x, y), optional symmetric error bars (half-widths, in y units), style, colour, and a variant that
     * sets its marker shape and dash pattern (series that may lie on top of one another get different variants, so each stays
     * visible).
     */
    public record Series(String name, double[] x, double[] y, double[] error, Style style, Color color, int variant) {
        /** A series of variant 0. */
        public Series(String name, double[] x, double[] y, double[] error, Style style, Color color) {
            this(name, x, y, error, style, color, 0);
        }

        /** A solid (markers) or dashed (reference) line. */
        public Series(String name, double[] x, double[] y, boolean dashed, Color color) {
            this(name, x, y, null, dashed ? Style.DASHED : Style.LINE, color, 0);
        }

        /** The same series drawn as variant {@code v}. */
        public Series variant(int v) {
            return new Series(name, x, y, error, style, color, v);
        }
    }

    /**
     * A histogram as an outline series: {@code counts[i]} of the bin from {@code edges[i]} to {@code edges[i + 1]}, drawn as
     * bars' outlines (from 0 up, across, down to 0), so the bins sit where their values are.
     */
    public static Series histogram(String name, double[] edges, double[] counts, Color color, int variant) {
        int n = counts.length;
        double[] x = new double[2 * n + 2];
        double[] y = new double[2 * n + 2];
        x[0] = edges[0];
        for (int i = 0; i < n; i++) {
            x[2 * i + 1] = edges[i];
            y[2 * i + 1] = counts[i];
            x[2 * i + 2] = edges[i + 1];
            y[2 * i + 2] = counts[i];
        }
        x[2 * n + 1] = edges[n];
        return new Series(name, x, y, null, Style.OUTLINE, color, variant);
    }

    /** An axis: its title, scale, the range drawn and the ticks labelled. */
    public record Axis(String title, Scale scale, double min, double max, double step, List<String> categories) {
        /** The tick positions. */
        public double[] ticks() {
            int k = (int) Math.floor((max - min) / step + 1e-9);
            double first = Math.ceil(min / step - 1e-9) * step;
            List<Double> t = new ArrayList<>();
            for (double v = first; v <= max + 1e-9 * step && t.size() <= k + 1; v += step) {
                t.add(Math.abs(v) < 1e-12 * step ? 0.0 : v);
            }
            return t.stream().mapToDouble(Double::doubleValue).toArray();
        }

        /** The label of a tick. */
        public String label(double v) {
            return switch (scale) {
                case LINEAR -> plain(v, step);
                // one format per axis: plain numbers (0.001 .. 10000) when every tick is one, else 1e-k / 1ek throughout
                case LOG10 -> min >= -3 - 1e-9 && max <= 4 + 1e-9 ? powerOfTen(v) : scientificPowerOfTen(v);
                case CATEGORY -> {
                    long i = Math.round(v);
                    // between and beyond the categories: no text, but distinct (XChart requires distinct labels)
                    yield Math.abs(v - i) < 1e-9 && i >= 0 && i < categories.size() ? categories.get((int) i) : invisible(Math.round(v * 1000));
                }
            };
        }
    }

    /** A figure: title, axes and series. */
    public record Figure(String title, Axis x, Axis y, List<Series> series) {
        /** The JSON form written beside the PNG. */
        public ObjectNode toJson() {
            ObjectNode o = Json.object();
            o.put("title", title);
            axisJson(o.putObject("x"), x);
            axisJson(o.putObject("y"), y);
            ArrayNode arr = o.putArray("series");
            for (Series s : series) {
                ObjectNode j = arr.addObject();
                j.put("name", s.name());
                j.put("style", s.style().name().toLowerCase(Locale.ROOT));
                j.put("color", String.format(Locale.ROOT, "#%06x", s.color().getRGB() & 0xffffff));
                j.put("variant", s.variant());
                ArrayNode pts = j.putArray("points");
                for (int i = 0; i < s.x().length; i++) {
                    ArrayNode p = pts.addArray();
                    p.add(s.x()[i]);
                    p.add(s.y()[i]);
                    if (s.error() != null) {
                        p.add(s.error()[i]);
                    }
                }
            }
            return o;
        }

        private static void axisJson(ObjectNode o, Axis a) {
            o.put("title", a.title());
            o.put("scale", a.scale().name().toLowerCase(Locale.ROOT));
            o.put("min", a.min());
            o.put("max", a.max());
            ArrayNode t = o.putArray("ticks");
            for (double v : a.ticks()) {
                ObjectNode tick = t.addObject();
                tick.put("at", v);
                tick.put("label", a.label(v));
            }
            if (a.categories() != null) {
                ArrayNode c = o.putArray("categories");
                a.categories().forEach(c::add);
            }
        }
    }

    /** A figure under construction. */
    public static final class Builder {
        private final String title;
        private String xTitle = "";
        private Scale xScale = Scale.LINEAR;
        private List<String> categories;
        private String yTitle = "";
        private Scale yScale = Scale.LINEAR;
        private Double xStep;
        private boolean logXIfWide;
        private Double yMin;
        private Double yMax;
        private final List<Series> series = new ArrayList<>();

        private Builder(String title) {
            this.title = title;
        }

        /** The x axis. */
        public Builder x(String axisTitle, Scale scale) {
            this.xTitle = axisTitle;
            this.xScale = scale;
            return this;
        }

        /** A categorical x axis: the categories sit at x = 0, 1, ... */
        public Builder categories(String axisTitle, List<String> names) {
            this.xTitle = axisTitle;
            this.xScale = Scale.CATEGORY;
            this.categories = List.copyOf(names);
            return this;
        }

        /** The x tick spacing (default: chosen from the range). */
        public Builder xStep(double step) {
            this.xStep = step;
            return this;
        }

        /** A linear x axis whose positive values span two decades or more becomes a log axis (a log-spaced grid of n). */
        public Builder logXIfWide() {
            this.logXIfWide = true;
            return this;
        }

        /** The y axis. */
        public Builder y(String axisTitle, Scale scale) {
            this.yTitle = axisTitle;
            this.yScale = scale;
            return this;
        }

        /** Values the y range includes besides the data's (e.g. 0 for a bar-like error plot). */
        public Builder yIncludes(double v) {
            yMin = yMin == null ? v : Math.min(yMin, v);
            yMax = yMax == null ? v : Math.max(yMax, v);
            return this;
        }

        /** Adds a series; points with a non-finite x or y are left out (an underflow to 0 must be passed as log10). */
        public Builder add(Series s) {
            List<double[]> kept = new ArrayList<>();
            for (int i = 0; i < s.x().length; i++) {
                if (Double.isFinite(s.x()[i]) && Double.isFinite(s.y()[i])) {
                    kept.add(new double[] {s.x()[i], s.y()[i], s.error() == null ? 0 : s.error()[i]});
                }
            }
            if (!kept.isEmpty()) {
                series.add(new Series(s.name(), kept.stream().mapToDouble(p -> p[0]).toArray(), kept.stream().mapToDouble(p -> p[1]).toArray(),
                        s.error() == null ? null : kept.stream().mapToDouble(p -> p[2]).toArray(), s.style(), s.color(), s.variant()));
            }
            return this;
        }

        /** Adds series. */
        public Builder addAll(List<Series> all) {
            all.forEach(this::add);
            return this;
        }

        /** The figure with its axes' ranges and ticks worked out. */
        public Figure build() {
            if (logXIfWide && xScale == Scale.LINEAR && wideAndPositive()) {
                List<Series> logged = new ArrayList<>();
                for (Series s : series) {
                    double[] lx = new double[s.x().length];
                    for (int i = 0; i < lx.length; i++) {
                        lx[i] = Math.log10(s.x()[i]);
                    }
                    logged.add(new Series(s.name(), lx, s.y(), s.error(), s.style(), s.color(), s.variant()));
                }
                series.clear();
                series.addAll(logged);
                xScale = Scale.LOG10;
                xTitle = xTitle + " (log scale)";
            }
            double x0 = Double.POSITIVE_INFINITY;
            double x1 = Double.NEGATIVE_INFINITY;
            double y0 = yMin == null ? Double.POSITIVE_INFINITY : yMin;
            double y1 = yMax == null ? Double.NEGATIVE_INFINITY : yMax;
            for (Series s : series) {
                for (int i = 0; i < s.x().length; i++) {
                    double e = s.error() == null ? 0 : Math.abs(s.error()[i]);
                    x0 = Math.min(x0, s.x()[i]);
                    x1 = Math.max(x1, s.x()[i]);
                    y0 = Math.min(y0, s.y()[i] - e);
                    y1 = Math.max(y1, s.y()[i] + e);
                }
            }
            if (!(x0 <= x1)) {
                x0 = 0;
                x1 = 1;
            }
            if (!(y0 <= y1)) {
                y0 = 0;
                y1 = 1;
            }
            Axis x = xScale == Scale.CATEGORY ? new Axis(xTitle, xScale, -0.5, categories.size() - 0.5, 1, categories)
                    : axis(xTitle, xScale, x0, x1, xStep, false);
            Axis y = axis(yTitle, yScale, y0, y1, null, true);
            return new Figure(title, x, y, List.copyOf(series));
        }

        private boolean wideAndPositive() {
            double lo = Double.POSITIVE_INFINITY;
            double hi = 0;
            for (Series s : series) {
                for (double v : s.x()) {
                    if (!(v > 0)) {
                        return false;
                    }
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
            return hi / lo >= 100;
        }

        /** Builds the figure and writes {@code png} and its {@code .plot.json}. */
        public Figure save(Path png) {
            Figure f = build();
            render(f, png);
            return f;
        }
    }

    /** Starts a figure. */
    public static Builder figure(String title) {
        return new Builder(title);
    }

    /** Reads the figure written beside a PNG (tests, replotting). */
    public static Path jsonOf(Path png) {
        String name = png.getFileName().toString();
        return png.resolveSibling((name.endsWith(".png") ? name.substring(0, name.length() - 4) : name) + ".plot.json");
    }

    /** A 1-2-5 step giving at most {@link #MAX_TICKS} ticks over the span; whole numbers on a log axis. */
    static double niceStep(double span, boolean wholeNumbers) {
        if (!(span > 0)) {
            return 1;
        }
        double raw = span / (MAX_TICKS - 2);
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = mag;
        for (double m : new double[] {1, 2, 5, 10}) {
            step = m * mag;
            if (step >= raw) {
                break;
            }
        }
        return wholeNumbers ? Math.max(1, Math.round(step)) : step;
    }

    private static Axis axis(String title, Scale scale, double lo, double hi, Double fixedStep, boolean padAtTicks) {
        double span = hi - lo;
        if (span == 0) {
            double d = scale == Scale.LOG10 ? 1 : Math.max(Math.abs(lo) * 0.1, 1e-9);
            lo -= d;
            hi += d;
            span = hi - lo;
        }
        double step = fixedStep != null ? fixedStep : niceStep(span, scale == Scale.LOG10);
        double min;
        double max;
        if (scale == Scale.LOG10) {
            // whole decades: the range reaches at most a decade beyond the data (a tick step of 5 decades must not stretch it)
            min = Math.floor(lo + 1e-9);
            max = Math.ceil(hi - 1e-9);
        } else if (padAtTicks) {
            // the range ends at ticks, so the extremes are labelled
            min = Math.floor(lo / step + 1e-9) * step;
            max = Math.ceil(hi / step - 1e-9) * step;
        } else {
            // a little room either side of the data, so markers at the ends are not cut
            min = lo - 0.03 * span;
            max = hi + 0.03 * span;
        }
        return new Axis(title, scale, min, max, step, null);
    }

    /** A distinct label that draws nothing: the number written in zero-width characters. */
    static String invisible(long k) {
        StringBuilder b = new StringBuilder(k < 0 ? "\u2060" : "\u200B");
        for (long v = Math.abs(k); v > 0; v >>= 1) {
            b.append((v & 1) == 1 ? '\u200C' : '\u200D');
        }
        return b.toString();
    }

    /** A decimal label with as many places as the step needs. */
    static String plain(double v, double step) {
        int places = Math.max(0, (int) Math.ceil(-Math.log10(step) - 1e-9));
        if (Math.abs(v) >= 1e6 || (v != 0 && Math.abs(v) < 1e-4)) {
            // scientific, with digits down to the step's, so neighbouring ticks never read the same
            int digits = (int) Math.max(1, Math.min(15, Math.floor(Math.log10(Math.abs(v))) - Math.floor(Math.log10(step))));
            return String.format(Locale.ROOT, "%." + digits + "e", v);
        }
        return String.format(Locale.ROOT, "%." + places + "f", v);
    }

    /** 10^v as 1eK (whole k), or 3.2e-9 between decades. */
    static String scientificPowerOfTen(double v) {
        long k = Math.round(v);
        if (Math.abs(v - k) < 1e-9) {
            return "1e" + k;
        }
        double e = Math.floor(v);
        return String.format(Locale.ROOT, "%.2ge%d", Math.pow(10, v - e), (long) e);
    }

    /** 10^v written as a number: 0.01, 1, 1000, 1e-8, 3.2e-9. */
    static String powerOfTen(double v) {
        long k = Math.round(v);
        if (Math.abs(v - k) < 1e-9) {
            if (k >= -3 && k <= 4) {
                return new BigDecimal(BigInteger.ONE, (int) -k).toPlainString();
            }
            return "1e" + k;
        }
        double e = Math.floor(v);
        double mantissa = Math.pow(10, v - e);
        if (e >= -3 && e <= 4) {
            return String.format(Locale.ROOT, "%.3g", Math.pow(10, v));
        }
        return String.format(Locale.ROOT, "%.2ge%d", mantissa, (long) e);
    }

    /** A number for a title or legend: an integer as one, else at most four significant digits (6.452, 0.002, 1.5e-7). */
    public static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toString().replace("E", "e");
    }

    /**
     * The colour of series i of {@code count} ordered series (eps, n): distinct hues for up to ten, beyond that the sequential
     * map (the variant, marker and dash, then tells neighbours apart).
     */
    public static Color ordered(int i, int count) {
        return count <= 10 ? color(i) : sequential(i, count);
    }

    /** Colours for unordered series (methods, candidates): ten well-separated hues, then the same hues darker. */
    public static Color color(int i) {
        Color[] c = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
                new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf)};
        Color base = c[i % c.length];
        return i / c.length % 2 == 0 ? base : base.darker();
    }

    /**
     * Colours for ordered series (eps, n): {@code count} distinct colours along the viridis colour map, dark for the first
     * and light for the last, so neighbouring values get neighbouring colours and no two series share one.
     */
    public static Color sequential(int i, int count) {
        // viridis at 0, 0.125, ..., 1 (matplotlib's colour map), interpolated linearly; the yellow end is cut at 0.9
        int[] stops = {0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c, 0x28ae80, 0x5ec962, 0xaddc30, 0xfde725};
        double t = count <= 1 ? 0 : 0.9 * i / (count - 1);
        double pos = t * (stops.length - 1);
        int a = Math.min((int) Math.floor(pos), stops.length - 2);
        double f = pos - a;
        int r = (int) Math.round(((stops[a] >> 16) & 255) * (1 - f) + ((stops[a + 1] >> 16) & 255) * f);
        int g = (int) Math.round(((stops[a] >> 8) & 255) * (1 - f) + ((stops[a + 1] >> 8) & 255) * f);
        int b = (int) Math.round((stops[a] & 255) * (1 - f) + (stops[a + 1] & 255) * f);
        return new Color(r, g, b);
    }

    /** Whether XChart, as configured here, labels every tick of the figure's axes (tests). */
    static boolean drawsEveryTick(Figure f) {
        return draw(f).everyTickLabelled();
    }

    /** A drawn chart, and whether XChart labelled every tick of ours. */
    private record Drawn(XYChart chart, boolean everyTickLabelled) {
    }

    private static Drawn draw(Figure f) {
        // XChart picks its own tick step from a pixel spacing hint; draw, check that every tick of ours got a label, and
        // halve the hint until it does (XChart then labels a finer grid, of which ours is a subset)
        XYChart chart = null;
        for (double factor = 1.0; factor > 0.01; factor /= 2) {
            Set<Double> xs = new HashSet<>();
            Set<Double> ys = new HashSet<>();
            chart = chart(f, factor, xs, ys);
            BitmapEncoder.getBufferedImage(chart);
            if (labelled(f.x(), xs) && labelled(f.y(), ys)) {
                return new Drawn(chart, true);
            }
        }
        return new Drawn(chart, false);
    }

    private static void render(Figure f, Path png) {
        XYChart chart = draw(f).chart();
        try (OutputStream os = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, os, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            Files.writeString(jsonOf(png), Json.write(f.toJson()) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The least and the most pixels the y axis's labels and title take left of the plot (for fitting the title). */
    static final int Y_AXIS_MIN = 40;
    static final int Y_AXIS_MAX = 120;

    /** The title's font, smaller (down to 9 points) where the title would be wider than {@code width} pixels (XChart would cut it). */
    static Font titleFont(Font font, String title, int width) {
        FontRenderContext frc = new FontRenderContext(null, true, true);
        Font f = font;
        while (f.getSize2D() > 9 && f.getStringBounds(title, frc).getWidth() > width) {
            f = f.deriveFont(f.getSize2D() - 1);
        }
        return f;
    }

    private static boolean labelled(Axis a, Set<Double> seen) {
        for (double t : a.ticks()) {
            boolean found = false;
            for (double v : seen) {
                if (Math.abs(v - t) <= 1e-6 * a.step()) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    private static XYChart chart(Figure f, double hintFactor, Set<Double> xSeen, Set<Double> ySeen) {
        boolean wide = f.series().size() > 5;
        XYChart chart = new XYChartBuilder().width(wide ? 1200 : 1000).height(600).title(f.title()).xAxisTitle(f.x().title())
                .yAxisTitle(f.y().title()).build();
        var st = chart.getStyler();
        // XChart centres the title over the plot, not the chart: with the plot from x0 (after the y axis, Y_AXIS_MIN to
        // Y_AXIS_MAX pixels) to the chart's width W less a legend to its right (L: its longest entry, line and paddings), a
        // title of width t stays inside if t <= x0 + W - L (left edge) and t <= W - x0 + L (right edge)
        FontRenderContext frc = new FontRenderContext(null, true, true);
        double legend = !wide ? 0 : f.series().stream().mapToDouble(s -> st.getLegendFont().getStringBounds(s.name(), frc).getWidth()).max().orElse(0)
                + st.getLegendSeriesLineLength() + 4 * st.getLegendPadding() + 20;
        double room = Math.min(Y_AXIS_MIN + chart.getWidth() - legend, chart.getWidth() - Y_AXIS_MAX + legend) - 20;
        st.setChartTitleFont(titleFont(st.getChartTitleFont(), f.title(), (int) room));
        // many series: the legend to the right, one entry per line, so it never covers the plot
        st.setLegendPosition(wide ? Styler.LegendPosition.OutsideE : Styler.LegendPosition.OutsideS);
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotBackgroundColor(Color.WHITE);
        st.setPlotGridLinesColor(new Color(0xdddddd));
        st.setPlotGridLinesStroke(new BasicStroke(0.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_BEVEL, 10f, new float[] {3f, 3f}, 0f));
        st.setXAxisMin(f.x().min());
        st.setXAxisMax(f.x().max());
        st.setYAxisMin(f.y().min());
        st.setYAxisMax(f.y().max());
        ticks(f.x(), hintFactor, wide ? 880 : 900, xSeen, st::setXAxisTickMarkSpacingHint, st::setxAxisTickLabelsFormattingFunction);
        ticks(f.y(), hintFactor, 430, ySeen, st::setYAxisTickMarkSpacingHint, st::setyAxisTickLabelsFormattingFunction);
        st.setErrorBarsColorSeriesColor(true);
        for (Series s : f.series()) {
            XYSeries xy = s.error() == null ? chart.addSeries(s.name(), s.x(), s.y()) : chart.addSeries(s.name(), s.x(), s.y(), s.error());
            xy.setLineColor(s.color());
            xy.setMarkerColor(s.color());
            switch (s.style()) {
                case DASHED -> {
                    xy.setLineStyle(SeriesLines.DASH_DASH);
                    xy.setMarker(SeriesMarkers.NONE);
                }
                case LINE -> {
                    xy.setLineStyle(stroke(s.variant(), 2f));
                    // a marker per point while they stay apart; dense curves are lines only
                    xy.setMarker(s.x().length <= 40 ? MARKERS[s.variant() % MARKERS.length] : SeriesMarkers.NONE);
                }
                case OUTLINE -> {
                    xy.setLineStyle(stroke(s.variant(), 2f));
                    xy.setMarker(SeriesMarkers.NONE);
                }
                case BAND -> {
                    xy.setLineStyle(new BasicStroke(9f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
                    xy.setMarker(SeriesMarkers.NONE);
                }
                case POINTS -> {
                    xy.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                    xy.setMarker(SeriesMarkers.DIAMOND);
                }
            }
        }
        return chart;
    }

    /** Marker shapes of the variants. */
    private static final Marker[] MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND,
        SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS, SeriesMarkers.PLUS};

    /** Solid for variant 0, then long dashes, dots, dash-dot, ... */
    private static BasicStroke stroke(int variant, float width) {
        float[][] dashes = {null, {10f, 5f}, {2f, 4f}, {10f, 4f, 2f, 4f}, {16f, 6f}, {4f, 4f}, {12f, 4f, 2f, 4f, 2f, 4f}};
        float[] d = dashes[variant % dashes.length];
        return d == null ? new BasicStroke(width) : new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, d, 0f);
    }

    /**
     * Makes XChart draw the axis' ticks: the spacing hint is a fraction of the step's length in pixels (XChart picks that step
     * or a finer one, and then labels those ticks too, with the same formatter). The values XChart labels that are ticks of
     * ours are collected in {@code seen}.
     */
    private static void ticks(Axis a, double factor, int pixels, Set<Double> seen, IntFunction<?> hint,
            Function<Function<Double, String>, ?> fmt) {
        int px = (int) Math.max(12, Math.floor(factor * pixels * a.step() / (a.max() - a.min())));
        hint.apply(px);
        fmt.apply(v -> {
            double k = v / a.step();
            if (Math.abs(k - Math.round(k)) < 1e-6) {
                seen.add(v);
            }
            return a.label(v);
        });
    }
}
