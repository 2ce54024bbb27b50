import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
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
  /** Webhook deliveries waiting for an attempt, in the whole database (every process's). */
  webhookDeliveriesPending(): Promise<number>;
}

/** Most requests take well under 5 ms: prom-client's default buckets start at 5 ms. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Counts a response to a request no route matched, with the status it is answered with. */
export type UnmatchedObserver = (request: FastifyRequest, reply: FastifyReply, status: number) => void;

/** A route label for requests no route matched, so that unknown paths cannot grow the series. */
const UNMATCHED = 'unmatched';

/** `/calendar/events/v1/events/:id(^\d+)` → `/calendar/events/v1/events/:id` (API.md §25.4). */
function routeLabel(pattern: string): string {
  return pattern.replace(/(:\w+)\([^/]*\)/g, '$1');
}

/**
 * The Prometheus metrics of API.md §25.4, in a registry of the app's own (tests build many apps in
 * one process).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;
  private readonly byPattern = new Map<string, RouteSeries>();

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
    new Gauge({
      name: 'webhook_deliveries_pending',
      help: 'Webhook deliveries waiting for an attempt (first or retry)',
      registers,
      async collect() {
        this.set(await sources.webhookDeliveriesPending());
      },
    });
  }

  /** A response counted outside its route's hooks (the cache front's hits); `route` is Fastify's pattern. */
  observe(method: string, route: string, status: number, seconds: number): void {
    let series = this.byPattern.get(route);
    if (!series) this.byPattern.set(route, (series = this.seriesOf(routeLabel(route))));
    series.observe(method, status, seconds);
  }

  /** What a route's responses are counted and timed under (`route`: its label, see routeLabel). */
  seriesOf(route: string): RouteSeries {
    return new RouteSeries(this.requests, this.durations, route);
  }
}

/**
 * One route's series, their labelled children kept by method and status: prom-client would hash
 * the labels on every call, and a key string per response would be garbage.
 */
export class RouteSeries {
  private readonly requests = new Map<string, Map<number, Counter.Internal>>();
  private readonly durations = new Map<string, Histogram.Internal<'method' | 'route'>>();

  constructor(
    private readonly requestCounter: Counter<'method' | 'route' | 'status'>,
    private readonly durationHistogram: Histogram<'method' | 'route'>,
    private readonly route: string,
  ) {}

  observe(method: string, status: number, seconds: number): void {
    let byStatus = this.requests.get(method);
    if (!byStatus) this.requests.set(method, (byStatus = new Map<number, Counter.Internal>()));
    let requests = byStatus.get(status);
    if (!requests) byStatus.set(status, (requests = this.requestCounter.labels(method, this.route, String(status))));
    requests.inc();
    let durations = this.durations.get(method);
    if (!durations) this.durations.set(method, (durations = this.durationHistogram.labels(method, this.route)));
    durations.observe(seconds);
  }
}

/**
 * Counts every response Fastify sends, timed up to its hand-over to Node (its route's last onSend
 * hook): each route gets its own hook with its series, so a response costs no route look-up, no
 * key string and no `finish` listener. Requests no route matched are counted by the not-found and
 * error handlers (`observeUnmatched`). The cache front counts its hits itself.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): UnmatchedObserver {
  app.addHook('onRoute', (route) => {
    const series = metrics.seriesOf(routeLabel(route.url));
    const count: onSendHookHandler = (request, reply, payload, done) => {
      series.observe(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done(null, payload);
    };
    route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), count];
  });
  const unmatched = metrics.seriesOf(UNMATCHED);
  return (request, reply, status) => unmatched.observe(request.method, status, reply.elapsedTime / 1000);
}
