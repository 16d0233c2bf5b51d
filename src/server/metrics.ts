import {
  Counter,
  type CounterConfiguration,
  collectDefaultMetrics,
  Gauge,
  type GaugeConfiguration,
  Histogram,
  type HistogramConfiguration,
  Registry,
} from 'prom-client';

/**
 * The process's Prometheus metrics, served in text format at `GET /metrics`. Each instance of the
 * shop has its own registry: Prometheus scrapes every instance and sums across them itself.
 *
 * Any module may add its own metrics with `counter`, `gauge` and `histogram`, best at module level:
 *
 *   const cacheHits = counter({ name: 'vitrina_catalog_cache_hits_total', help: '…', labelNames: ['kind'] });
 *   cacheHits.inc({ kind: 'product' });
 *
 * Names are `snake_case` with a unit suffix (`_seconds`, `_bytes`, `_total` for counters); label
 * values must come from a small fixed set (never an id, a URL or user input).
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

type MetricClass<Configuration, M> = new (configuration: Configuration) => M;

/**
 * Defining the same name twice returns the metric defined first (so code that runs once per app,
 * such as building services in tests, may define its metrics there); another kind of metric under
 * that name is a programming error.
 */
function define<Configuration extends { name: string }, M>(
  kind: MetricClass<Configuration, M>,
  configuration: Configuration,
): M {
  const existing = metricsRegistry.getSingleMetric(configuration.name);
  if (existing === undefined) return new kind({ ...configuration, registers: [metricsRegistry] });
  if (existing instanceof kind) return existing;
  throw new Error(`The metric ${configuration.name} is already registered as another kind of metric`);
}

export const counter = <Label extends string>(configuration: CounterConfiguration<Label>) =>
  define<CounterConfiguration<Label>, Counter<Label>>(Counter, configuration);

export const gauge = <Label extends string>(configuration: GaugeConfiguration<Label>) =>
  define<GaugeConfiguration<Label>, Gauge<Label>>(Gauge, configuration);

export const histogram = <Label extends string>(configuration: HistogramConfiguration<Label>) =>
  define<HistogramConfiguration<Label>, Histogram<Label>>(Histogram, configuration);
