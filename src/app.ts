import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { connect, type Dialect } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { registerBodyParsers, parseQueryString } from './http/body.js';
import type { ContextSource } from './http/context.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './http/error-handler.js';
import { MAX_SLUG_LENGTH } from './domain/slugs.js';
import { RouteRegistry } from './http/routes.js';
import { orderPreservingSerializerFactory } from './http/serializer.js';
import { isLanguage, LANGUAGES } from './i18n/languages.js';
import { syncSiteTimezone } from './modules/events/events.maintenance.js';
import { registerEventRoutes } from './modules/events/events.routes.js';
import { assignIcalUids } from './modules/ical/ical.maintenance.js';
import { extendHorizon, HORIZON_CHECK_MS } from './modules/events/series/series.horizon.js';
import { createIcalModule } from './modules/ical/ical.module.js';
import { resolveWithDns, type ResolveHost } from './modules/import/ics.fetch.js';
import { registerImportRoutes } from './modules/import/import.routes.js';
import { registerIcalRoutes } from './modules/ical/ical.routes.js';
import { registerPageRoutes } from './modules/pages/pages.routes.js';
import { htmlNotFound, registerHtmlHeaders } from './modules/site/errors.js';
import { registerEditorRoutes } from './modules/admin/admin.routes.js';
import { registerOrganizerRoutes } from './modules/organizers/organizers.routes.js';
import { registerTermRoutes } from './modules/terms/terms.routes.js';
import { registerChangesRoute, schedulePurge } from './modules/sync/changes.routes.js';
import type { LoggedChange } from './changes/change-log.js';
import { enqueueDeliveries } from './modules/webhooks/webhooks.outbox.js';
import { registerWebhookRoutes } from './modules/webhooks/webhooks.routes.js';
import type { WebhooksModule } from './modules/webhooks/webhooks.service.js';
import { DeliveryWorker } from './modules/webhooks/webhooks.worker.js';
import { countPending } from './modules/webhooks/webhooks.repository.js';
import { registerVenueRoutes } from './modules/venues/venues.routes.js';
import { registerDocumentation, registerOptionsRoutes } from './plugins/documentation.js';
import { registerRequestContext } from './plugins/request-context.js';
import { registerCompression } from './plugins/compression.js';
import { registerBodyEtags } from './plugins/etags.js';
import { Cors, registerCors } from './plugins/cors.js';
import { Metrics, registerMetrics } from './plugins/metrics.js';
import { registerOperations } from './plugins/operations.js';
import { authenticationGuard, RateLimits, registerRateLimits } from './plugins/rate-limit.js';
import {
  registerResponseCache,
  ResponseCache,
  serverWithCacheFront,
  type FrontHooks,
} from './plugins/response-cache.js';
import { cacheMaker } from './cache/maker.js';
import { dataVersionOf } from './changes/data-version.js';
import { Writes } from './changes/writes.js';
import { createEventsModule, type EventsModule } from './modules/events/events.module.js';
import { createLinkedModule } from './modules/linked/linked.module.js';
import { createTermsModule } from './modules/terms/terms.module.js';
import type { CredentialRow } from './modules/users/users.repository.js';

export interface AppOptions {
  /** The clock every "now" comes from; tests inject a fixed one. */
  readonly clock?: () => Date;
  /** Pino logger options, or false to silence logging. */
  readonly logger?: boolean | { level: string };
  /** How imports and webhooks resolve host names before their address checks (tests inject one; default DNS). */
  readonly resolveHost?: ResolveHost;
}

/** Process-wide state, built once by buildApp (tests and the server entry read it). */
export interface AppState extends ContextSource {
  readonly dialect: Dialect;
  readonly events: EventsModule;
  /** Delivers this process's share of webhook deliveries (API.md §22). */
  readonly webhookWorker: DeliveryWorker;
}

declare module 'fastify' {
  interface FastifyInstance {
    calendar: AppState;
  }
}

// Every path takes the language segment: the namespace (API.md §1), the iCalendar routes (§19.2
// `ical_url`), the website and the editor (§23); all but the operational routes of §25.4.
const LANGUAGE_PREFIX = new RegExp(`^/(${LANGUAGES.join('|')})(?=[/?]|$)(?!/(?:health|ready|metrics)(?:[/?]|$))`, 'i');

/**
 * Strips BASE_PATH and the optional `/{lang}` segment before routing, so one set of routes serves
 * `/calendar/events/v1/...` and `/{lang}/calendar/events/v1/...` (API.md §1).
 */
function rewriteUrlFor(config: Config) {
  return (raw: IncomingMessage): string => {
    let url = raw.url ?? '/';
    if (
      config.basePath !== '' &&
      (url === config.basePath || url.startsWith(`${config.basePath}/`) || url.startsWith(`${config.basePath}?`))
    ) {
      url = url.slice(config.basePath.length) || '/';
    }
    const match = LANGUAGE_PREFIX.exec(url);
    const language = match?.[1].toLowerCase();
    if (match && language !== undefined && isLanguage(language)) {
      raw.calendarPathLanguage = language;
      url = url.slice(match[0].length);
      if (!url.startsWith('/')) url = `/${url}`;
    }
    return url;
  };
}

/** What a request log line shows: never the Authorization header, and `password` values masked. */
function logRequest(request: { method: string; url: string }): { method: string; url: string } {
  return { method: request.method, url: request.url.replace(/([?&]password=)[^&]*/gi, '$1***') };
}

/** The cache front's share of rate limits, CORS and metrics, for the hits it answers before Fastify. */
function frontHooks(limits: RateLimits, cors: Cors, metrics: Metrics): FrontHooks {
  return {
    admit: (request) => limits.anonymous(request)?.over !== true,
    headers: (request, stored) => {
      const count = request.calendarRateCount;
      const allow = cors.allow(request.headers.origin, true);
      if (!count && !allow) return stored;
      return { ...stored, ...(count ? limits.headers(count) : {}), ...allow };
    },
    sent: (route, started, status) => metrics.observe('GET', route, status, (performance.now() - started) / 1000),
  };
}

/**
 * Slow clients (API.md §25.3): headers within 10 s, the whole request within 30 s, idle keep-alive
 * connections closed after 5 s. Node checks the first two on a timer, every second here (its
 * default, 30 s, would hold trickling connections open three times too long).
 */
const SLOW_CLIENT_TIMEOUTS = {
  keepAliveTimeout: 5_000,
  requestTimeout: 30_000,
  http: { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 },
};

/** Builds the application (plugins, modules, error handling) without listening. */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const handle = connect(config.databaseUrl);
  const version = dataVersionOf(handle);
  const clock = options.clock ?? (() => new Date());
  const writes = new Writes(handle.db, version, clock);
  try {
    await migrateToLatest(handle.db, handle.dialect);
    await syncSiteTimezone(handle.db, writes, config);
    await assignIcalUids(handle.db, writes, config);
    await extendHorizon(handle.dialect, writes, config, (options.clock ?? (() => new Date()))());
  } catch (error) {
    await handle.close();
    throw error;
  }
  const keep = cacheMaker(config.acceleration);
  const responseCache =
    config.acceleration && config.responseCache ? new ResponseCache(version, config.siteTimezone, clock) : null;
  const limits = new RateLimits(config, clock);
  const cors = new Cors(config.corsOrigins);
  const metrics = new Metrics({
    pool: () => handle.poolStats(),
    cacheLookups: responseCache?.lookups ?? null,
    webhookDeliveriesPending: () => countPending(handle.db),
  });
  const front = frontHooks(limits, cors, metrics);
  const app: FastifyInstance = Fastify({
    logger: options.logger ?? { level: config.logLevel, serializers: { req: logRequest } },
    ...(responseCache ? { serverFactory: serverWithCacheFront(responseCache, front, () => app.log) as never } : {}),
    // The same proxies the rate limits trust, so that logs show the client they count.
    trustProxy: config.trustProxy.length > 0 ? [...config.trustProxy] : false,
    // Requests arriving during a graceful shutdown are served (the database closes after the
    // server); Fastify's own 503 would also answer `/ready`, whose 503 says the same in the contract's form.
    return503OnClosing: false,
    bodyLimit: config.bodyLimit,
    ...SLOW_CLIENT_TIMEOUTS,
    rewriteUrl: rewriteUrlFor(config),
    routerOptions: {
      ignoreTrailingSlash: true,
      querystringParser: parseQueryString,
      // A slug is at most 200 characters (domain/slugs.ts), each up to 12 when percent-encoded.
      maxParamLength: MAX_SLUG_LENGTH * 12,
    },
    frameworkErrors: frameworkErrorHandler(config),
    clientErrorHandler: clientErrorHandler(config),
    schemaController: { compilersFactory: { buildSerializer: orderPreservingSerializerFactory() } },
  });
  const linked = createLinkedModule({ db: handle.db, config, keep, version });
  const terms = createTermsModule({ db: handle.db, config, keep, version });
  const events = createEventsModule({
    db: handle.db,
    config,
    version,
    writes,
    keep,
    acceleration: config.acceleration,
    linked,
    terms,
    offThread: handle.offThread,
    onError: (error) => app.log.error({ err: error }, 'event search candidates could not be read'),
  });
  const webhooks: WebhooksModule = {
    db: handle.db,
    config,
    clock,
    resolve: options.resolveHost ?? resolveWithDns,
    log: (error, message) => app.log.error({ err: error }, message),
    wake: () => {
      if (config.webhookWorker) webhookWorker.wake();
    },
  };
  const webhookWorker = new DeliveryWorker(webhooks);
  // The outbox: deliveries are written in the transaction of the change they report. The worker
  // is woken only by a write that wrote some: looking for due deliveries after every write cost
  // writes without webhooks a fifth of a millisecond each.
  const delivering = new WeakSet<readonly LoggedChange[]>();
  writes.onCommitting(async (trx, logged) => {
    if ((await enqueueDeliveries(trx, config, logged)) > 0) delivering.add(logged);
  });
  writes.onCommitted((_changes, logged) => {
    if (delivering.delete(logged)) webhooks.wake();
  });
  if (config.webhookWorker) {
    app.addHook('onReady', async () => webhookWorker.start());
    app.addHook('onClose', async () => webhookWorker.stop());
  }
  const state: AppState = {
    config,
    db: handle.db,
    dialect: handle.dialect,
    clock,
    version,
    writes,
    events,
    webhookWorker,
  };
  app.decorate('calendar', state);
  // Occurrences follow the horizon as time passes (API.md §20.1); the timer never keeps the process alive.
  const horizonTimer = setInterval(() => {
    extendHorizon(handle.dialect, writes, config, clock()).catch((error: unknown) =>
      app.log.error({ err: error }, 'recurring series could not be extended'),
    );
  }, HORIZON_CHECK_MS);
  horizonTimer.unref();
  app.addHook('onClose', async () => {
    clearInterval(horizonTimer);
    await handle.close();
  });
  // Fastify's own validation is off: parseArgs implements the contract's rules (API.md §5, §6).
  app.setValidatorCompiler(() => () => true);

  registerBodyParsers(app);
  registerErrorHandling(app, config, registerMetrics(app, metrics), htmlNotFound);
  registerHtmlHeaders(app, config);
  // CORS first, so that every answer (a 429 too) is readable cross-origin; then the rate limits,
  // before anything else is done for the request (API.md §25.1, §25.2).
  registerCors(app, cors);
  registerRateLimits(app, limits);
  registerRequestContext(app, state, keep<CredentialRow>(1_000, 1_000), authenticationGuard(limits));
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('Content-Language', request.calendarContext?.lang ?? config.defaultLanguage);
    done(null, payload);
  });
  // ETags of bodies name them uncompressed (API.md §21): before compression.
  registerBodyEtags(app);
  // Before the response cache's own onSend hook, which keeps the bytes as compressed.
  registerCompression(app);
  if (responseCache) registerResponseCache(app, version, responseCache);

  const registry = new RouteRegistry();
  await registerDocumentation(app, registry, config);
  registerEventRoutes(app, registry, events);
  registerVenueRoutes(app, registry, linked);
  registerOrganizerRoutes(app, registry, linked);
  registerTermRoutes(app, registry, terms);
  registerChangesRoute(app, registry, { db: handle.db, config, clock });
  registerWebhookRoutes(app, registry, webhooks);
  schedulePurge(app, { db: handle.db, config, clock });
  registerImportRoutes(app, registry, { events: events.state, resolveHost: options.resolveHost ?? resolveWithDns });
  registerOptionsRoutes(app, registry);
  const ical = createIcalModule(events, keep);
  registerIcalRoutes(app, ical);
  registerPageRoutes(app, events, ical, keep);
  registerEditorRoutes(app);
  registerOperations(app, config, {
    db: handle.db,
    metrics,
    searchIndexState: () => events.searchIndexState(),
    reconcileCounts: () => events.reconcileCounts(),
  });
  return app;
}
