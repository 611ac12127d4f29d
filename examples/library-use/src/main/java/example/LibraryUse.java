package example;

import java.math.BigDecimal;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.jobs.precincts.PrecinctJob;
import org.privacybounds.rdp.DpSgdAccountant;
import org.privacybounds.smoothed.PrecinctPrivacy;
import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

/**
 * privacy-bounds used from an application of its own: one exact profile with core-math, one DP-SGD accountant call,
 * and the privacy of every row of a DataFrame of vote counts through the Spark API, on a session this program owns.
 */
public final class LibraryUse {
    public static void main(String[] args) {
        // 1. core-math: delta_eps(x) of publishing a random sample of 1,000 of the 2,000 ballots (1,200 for A, 800 for B)
        SamplingHistogramMechanism half = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 1000);
        ProfileValue v = half.profile(new int[] {1200, 800}, 1.0);
        System.out.println("profile: delta = " + v.delta() + " (log10 " + v.log10Delta() + ", " + v.method() + ")");

        // 2. core-math: eps of DP-SGD (q = 0.01, sigma = 1.1, 1,000 steps, delta = 1e-5)
        DpSgdAccountant.Result acct = DpSgdAccountant.account(0.01, 1.1, 1000, 1e-5, DpSgdAccountant.defaultOrders());
        System.out.println("dp-sgd: eps = " + acct.epsilon() + " at order " + acct.order());
        Guarantee ten = Composition.basic(Guarantee.of(acct.epsilon(), 1e-5, acct.method(), 0), 10);
        System.out.println("dp-sgd, 10 runs: eps = " + ten.epsilon() + ", delta = " + ten.delta());

        // 3. the Spark API on a session we own: every precinct of a DataFrame, half of its ballots published
        SparkSession spark = SparkSession.builder().master("local[2]").appName("library-use").config("spark.ui.enabled", "false").getOrCreate();
        try {
            StructType schema = new StructType().add("county", DataTypes.StringType).add("precinct", DataTypes.StringType)
                    .add("counts", DataTypes.createArrayType(DataTypes.LongType));
            Dataset<Row> counts = spark.createDataFrame(List.of(RowFactory.create("Warren", "1", new Long[] {1200L, 800L}),
                    RowFactory.create("Warren", "2", new Long[] {310L, 290L}), RowFactory.create("Fulton", "1", new Long[] {5L, 95L})), schema);
            PrecinctPrivacy.Setting setting = new PrecinctPrivacy.Setting(PrecinctPrivacy.Draw.SAMPLE_FRACTION, new BigDecimal("0.5"), new double[] {1.0}, 0.5);
            Dataset<Row> result = PrecinctJob.evaluate(spark, counts, setting, List.of("A", "B"), 2);
            for (Row r : result.collectAsList()) {
                Row first = r.<Row>getList(r.fieldIndex("results")).get(0);
                System.out.println("precinct " + r.getString(0) + "/" + r.getString(1) + ": n = " + r.getLong(r.fieldIndex("n")) + ", T = "
                        + r.getLong(r.fieldIndex("sampleSize")) + ", delta(eps = 1) = " + first.getDouble(first.fieldIndex("delta")));
            }
        } finally {
            spark.stop();
        }
    }
}
