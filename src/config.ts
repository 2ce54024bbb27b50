import proxyAddr from '@fastify/proxy-addr';
import { isLanguage, LANGUAGES, type Language } from './i18n/languages.js';
import { isValidTimezone } from './domain/timezones.js';

/** The only reader of process.env (API.md §2). Everything else receives a frozen Config. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly publicUrl: string;
  readonly basePath: string;
  readonly siteTimezone: string;
  readonly defaultLanguage: Language;
  readonly defaultPerPage: number;
  readonly maxPerPage: number;
  readonly adminPassword: string | undefined;
  readonly logLevel: string;
  readonly bodyLimit: number;
  /** RESPONSE_CACHE=off disables the response cache for anonymous reads (benchmarks, debugging). */
  readonly responseCache: boolean;
  /** ACCELERATION=off runs every read on its plain path: no caches, no in-memory search (the reference behaviour). */
  readonly acceleration: boolean;
  /** Requests per minute and client (API.md §25.1); 0 is off. */
  readonly rateLimitPerMinute: number;
  readonly rateLimitWritesPerMinute: number;
  readonly rateLimitFailedAuthPerMinute: number;
  /** Proxies (addresses, CIDRs) whose `X-Forwarded-For` names the client (§25.1). */
  readonly trustProxy: readonly string[];
  /** Origins given CORS headers (§25.2): a list, `'*'`, or none when empty. */
  readonly corsOrigins: readonly string[] | '*';
  /** Bearer token `/metrics` asks for (§25.4); open when unset. A secret: never logged. */
  readonly metricsToken: string | undefined;
  /** SITE_NAME: the calendar's name (iCalendar X-WR-CALNAME and PRODID, API.md §19.1); default PUBLIC_URL's host. */
  readonly siteName: string;
  /** ICAL_MAX_EVENTS: the most events one iCalendar feed holds (API.md §19). */
  readonly icalMaxEvents: number;
  /** CHANGES_RETENTION_DAYS: how long change-feed tokens stay valid and changes are kept (API.md §21.1). */
  readonly changesRetentionDays: number;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: webhooks may target loopback, private and other non-public addresses (API.md §22). */
  readonly webhookAllowPrivateUrls: boolean;
  /** WEBHOOK_WORKER=off: this process delivers no webhooks (another process sharing the database does). */
  readonly webhookWorker: boolean;
  /** RECURRENCE_HORIZON_MONTHS: how far ahead a series' occurrences exist (API.md §20.1). */
  readonly recurrenceHorizonMonths: number;
  /** IMPORT_ALLOW_PRIVATE_URLS: whether `POST /import/ics` and `import:tec` may reach private addresses (API.md §19.3, §24). */
  readonly importAllowPrivateUrls: boolean;
  /** SITE_LOGO_URL: an image shown beside the site name on the website (API.md §23); none when unset. */
  readonly siteLogoUrl: string | undefined;
  /** KEPT_LIST_MAX: event lists up to this long are kept whole in memory between writes (README, Performance). */
  readonly keptListMax: number;
  /** KEPT_LIST_HEAD: of a longer list that writes can patch, this many first events are kept. */
  readonly keptListHead: number;
}

/** SITE_LOGO_URL: an absolute http(s) URL or a path on this site (the pages' CSP allows both). */
function logoUrl(env: Env): string | undefined {
  const value = env.SITE_LOGO_URL?.trim();
  if (!value) return undefined;
  if (/^https?:\/\/[^\s"<>]+$/i.test(value) || /^\/[^\s"<>]*$/.test(value)) return value;
  throw new ConfigError('SITE_LOGO_URL', `must be an http(s) URL or a path starting with "/", got "${value}"`);
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid configuration: ${variable} ${detail}`);
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function positiveInt(env: Env, name: string, fallback: number, max = 65535 * 1000): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new ConfigError(name, `must be a positive integer, got "${raw}"`);
  }
  return Number(raw);
}

function perMinute(env: Env, name: string): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return 0;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(name, `must be a whole number of requests per minute (0: off), got "${raw}"`);
  }
  return Number(raw);
}

function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function trustProxy(env: Env): string[] {
  const proxies = list(env, 'TRUST_PROXY');
  try {
    proxyAddr.compile(proxies);
  } catch (error) {
    throw new ConfigError('TRUST_PROXY', `must list IP addresses or CIDRs: ${(error as Error).message}`);
  }
  return proxies;
}

/** Origins as browsers send them in `Origin`: scheme, host and port only, lower case, no trailing slash. */
function corsOrigins(env: Env): string[] | '*' {
  const origins = list(env, 'CORS_ORIGINS');
  if (origins.length === 1 && origins[0] === '*') return '*';
  return origins.map((origin) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin.toLowerCase().replace(/\/$/, '')) {
      throw new ConfigError(
        'CORS_ORIGINS',
        `must be "*" or a comma-separated list of origins such as "https://example.org", got "${origin}"`,
      );
    }
    return parsed.origin;
  });
}

function databaseUrl(env: Env): string {
  const raw = env.DATABASE_URL || 'sqlite:data/calendar.db';
  if (/^sqlite:.+/.test(raw) || /^postgres(ql)?:\/\/.+/.test(raw)) return raw;
  throw new ConfigError('DATABASE_URL', `must be "sqlite:<path>" or "postgres://user:pass@host:port/db", got "${raw}"`);
}

function publicUrl(env: Env, host: string, port: number): string {
  const raw = env.PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('PUBLIC_URL', `must be an absolute http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError('PUBLIC_URL', `must be an absolute http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

function basePath(env: Env): string {
  const raw = env.BASE_PATH ?? '';
  if (raw === '' || raw === '/') return '';
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(raw)) {
    throw new ConfigError('BASE_PATH', `must be a path starting with "/", got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

function trueFalse(env: Env, name: string): boolean {
  const value = (env[name] || 'false').toLowerCase();
  if (value !== 'true' && value !== 'false')
    throw new ConfigError(name, `must be "true" or "false", got "${env[name]}"`);
  return value === 'true';
}

function onOff(env: Env, name: string): boolean {
  const value = (env[name] || 'on').toLowerCase();
  if (value !== 'on' && value !== 'off') throw new ConfigError(name, `must be "on" or "off", got "${env[name]}"`);
  return value === 'on';
}

export function loadConfig(env: Env = process.env): Config {
  const port = positiveInt(env, 'PORT', 8080, 65535);
  const host = env.HOST || '127.0.0.1';
  const siteTimezone = env.SITE_TIMEZONE || 'UTC';
  if (!isValidTimezone(siteTimezone)) {
    throw new ConfigError(
      'SITE_TIMEZONE',
      `must be an IANA time zone such as "Europe/Paris" or "UTC", got "${siteTimezone}"`,
    );
  }
  const defaultLanguage = env.DEFAULT_LANGUAGE || 'en';
  if (!isLanguage(defaultLanguage)) {
    throw new ConfigError('DEFAULT_LANGUAGE', `must be one of ${LANGUAGES.join(', ')}, got "${defaultLanguage}"`);
  }
  const defaultPerPage = positiveInt(env, 'DEFAULT_PER_PAGE', 10);
  const maxPerPage = positiveInt(env, 'MAX_PER_PAGE', 50);
  if (defaultPerPage > maxPerPage) {
    throw new ConfigError('DEFAULT_PER_PAGE', `(${defaultPerPage}) must not exceed MAX_PER_PAGE (${maxPerPage})`);
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const adminPassword = env.CALENDAR_ADMIN_PASSWORD?.trim() || undefined;
  const acceleration = onOff(env, 'ACCELERATION');
  const origin = publicUrl(env, host, port);
  return Object.freeze({
    port,
    host,
    databaseUrl: databaseUrl(env),
    publicUrl: origin,
    basePath: basePath(env),
    siteTimezone,
    defaultLanguage,
    defaultPerPage,
    maxPerPage,
    adminPassword,
    logLevel,
    bodyLimit: 1024 * 1024,
    responseCache: onOff(env, 'RESPONSE_CACHE'),
    acceleration,
    rateLimitPerMinute: perMinute(env, 'RATE_LIMIT_PER_MINUTE'),
    rateLimitWritesPerMinute: perMinute(env, 'RATE_LIMIT_WRITES_PER_MINUTE'),
    rateLimitFailedAuthPerMinute: perMinute(env, 'RATE_LIMIT_FAILED_AUTH_PER_MINUTE'),
    trustProxy: trustProxy(env),
    corsOrigins: corsOrigins(env),
    metricsToken: env.METRICS_TOKEN || undefined,
    siteName: env.SITE_NAME?.trim() || new URL(origin).hostname,
    icalMaxEvents: positiveInt(env, 'ICAL_MAX_EVENTS', 2000, 100_000),
    changesRetentionDays: positiveInt(env, 'CHANGES_RETENTION_DAYS', 30, 3650),
    webhookAllowPrivateUrls: trueFalse(env, 'WEBHOOK_ALLOW_PRIVATE_URLS'),
    webhookWorker: onOff(env, 'WEBHOOK_WORKER'),
    recurrenceHorizonMonths: positiveInt(env, 'RECURRENCE_HORIZON_MONTHS', 24, 120),
    importAllowPrivateUrls: trueFalse(env, 'IMPORT_ALLOW_PRIVATE_URLS'),
    siteLogoUrl: logoUrl(env),
    keptListMax: positiveInt(env, 'KEPT_LIST_MAX', 100_000, 1_000_000),
    keptListHead: positiveInt(env, 'KEPT_LIST_HEAD', 1_000, 100_000),
  });
}
