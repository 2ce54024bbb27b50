import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/connect.js';

/** What the response cache has answered so far (plugins/response-cache.ts). */
export interface CacheLookups {
  readonly hit: number;
  readonly miss: number;
}

export interface MetricSources {
  pool(): PoolStats;
  /** Null when the response cache is off: its series then stay at 0. */
  readonly cacheLookups: CacheLookups | null;
}

/** Most requests take well under 5 ms: prom-client's default buckets start at 5 ms. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A route label for requests no route matched, so that unknown paths cannot grow the series. */
const UNMATCHED = 'unmatched';

/** `/calendar/events/v1/events/:id(^\d+)` → `/calendar/events/v1/events/:id` (API.md §25.4). */
function routeLabel(pattern: string): string {
  return pattern.replace(/(:\w+)\([^/]*\)/g, '$1');
}

/**
 * The Prometheus metrics of API.md §25.4, in a registry of the app's own (tests build many apps in
 * one process). `webhook_deliveries_pending` is 0 until webhooks exist.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;
  /** Labelled children by label values: prom-client hashes the labels on every inc/observe otherwise. */
  private readonly requestSeries = new Map<string, Counter.Internal>();
  private readonly durationSeries = new Map<string, Histogram.Internal<'method' | 'route'>>();

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    new Counter({
      name: 'response_cache_requests_total',
      help: 'Anonymous reads the response cache answered (hit) or passed on (miss)',
      labelNames: ['result'],
      registers,
      collect() {
        this.reset();
        this.inc({ result: 'hit' }, sources.cacheLookups?.hit ?? 0);
        this.inc({ result: 'miss' }, sources.cacheLookups?.miss ?? 0);
      },
    });
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections of the pool, by state',
      labelNames: ['state'],
      registers,
      collect() {
        const stats = sources.pool();
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'busy' }, stats.busy);
      },
    });
    new Gauge({
      name: 'db_pool_waiting',
      help: 'Queries waiting for a database connection',
      registers,
      collect() {
        this.set(sources.pool().waiting);
      },
    });
    new Gauge({ name: 'webhook_deliveries_pending', help: 'Webhook deliveries not yet made', registers }).set(0);
  }

  /** `route` is Fastify's pattern; its parameters' regular expressions are left out of the label. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const requestKey = `${method} ${route} ${status}`;
    let requests = this.requestSeries.get(requestKey);
    if (!requests) {
      requests = this.requests.labels(method, routeLabel(route), String(status));
      this.requestSeries.set(requestKey, requests);
    }
    requests.inc();
    const durationKey = `${method} ${route}`;
    let durations = this.durationSeries.get(durationKey);
    if (!durations) {
      durations = this.durations.labels(method, routeLabel(route));
      this.durationSeries.set(durationKey, durations);
    }
    durations.observe(seconds);
  }
}

/**
 * Counts every response Fastify sends, timed up to its hand-over to Node (the last onSend hook):
 * an onResponse hook would cost a listener and a tick per response. The cache front counts its
 * hits itself.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const route = request.is404 ? UNMATCHED : (request.routeOptions.url ?? UNMATCHED);
    metrics.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done(null, payload);
  });
}
