package io.eeoutbox.relay.ops;

/** What the metrics adapters read at each scrape: values already at hand, never a query. */
public interface GaugeSource {

    /** The database gauges of the last refresh ({@link GaugeRefresher#latest()}). */
    GaugeRefresher.Gauges databaseGauges();

    /** {@link RelayMetrics#recentBatchDurationP95Seconds()}. */
    double batchDurationP95Seconds();

    static GaugeSource of(GaugeRefresher refresher, RelayMetrics metrics) {
        return new GaugeSource() {
            @Override
            public GaugeRefresher.Gauges databaseGauges() {
                return refresher.latest();
            }

            @Override
            public double batchDurationP95Seconds() {
                return metrics.recentBatchDurationP95Seconds();
            }
        };
    }
}
