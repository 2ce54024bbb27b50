import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { ForbiddenAddressError, guardedLookup, isForbiddenAddress } from './addresses.js';

/** How the importer talks to a source site (API.md §24: 30 s timeout, 3 retries at 1, 2, 4 s or Retry-After ≤ 60 s). */
export interface FetchOptions {
  /** Basic credentials `login:application-password`; never logged or echoed. */
  readonly auth?: string;
  readonly allowPrivate: boolean;
  readonly timeoutMs?: number;
  /** Waits before each retry; tests shorten them. */
  readonly retryDelaysMs?: readonly number[];
  /** Called before a retry, so the user sees why the run pauses. */
  readonly onRetry?: (url: string, reason: string, delayMs: number) => void;
}

export interface SourceResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: unknown;
  /** The URL finally answered, after redirects. */
  readonly url: string;
}

export type FailureKind = 'network' | 'timeout' | 'forbidden' | 'http_status' | 'invalid_json' | 'too_large';

export class SourceError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const DEFAULT_DELAYS = [1_000, 2_000, 4_000];
const MAX_BYTES = 50 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const MAX_RETRY_AFTER_S = 60;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a failure is worth trying again: the network, a timeout, 429 and 5xx. */
function retryable(error: SourceError): boolean {
  if (error.kind === 'network' || error.kind === 'timeout') return true;
  return error.kind === 'http_status' && error.status !== undefined && (error.status === 429 || error.status >= 500);
}

/** Retry-After in seconds (or an HTTP date), used when at most 60 s. */
function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - now) / 1000;
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= MAX_RETRY_AFTER_S ? seconds * 1000 : undefined;
}

class RetryableStatus extends SourceError {
  constructor(
    status: number,
    readonly retryAfter: string | undefined,
    readonly response: SourceResponse,
  ) {
    super('http_status', `HTTP ${status}`, status);
  }
}

function checkHost(url: URL, allowPrivate: boolean): void {
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Literal addresses are connected to without a lookup: check them here.
  if (isIP(host) !== 0 && isForbiddenAddress(host)) throw new ForbiddenAddressError(host);
}

function once(url: URL, options: FetchOptions): Promise<SourceResponse> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'calendar-events-service import:tec',
    };
    if (options.auth) headers.authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
    const request = client.request(
      url,
      { method: 'GET', headers, ...(options.allowPrivate ? {} : { lookup: guardedLookup }) },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BYTES) request.destroy(new SourceError('too_large', `response over ${MAX_BYTES} bytes`));
          else chunks.push(chunk);
        });
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, url: url.toString() });
        });
        response.on('error', reject);
      },
    );
    request.setTimeout(options.timeoutMs ?? 30_000, () =>
      request.destroy(new SourceError('timeout', `no answer within ${(options.timeoutMs ?? 30_000) / 1000} s`)),
    );
    request.on('error', (error) => {
      if (error instanceof SourceError) reject(error);
      else if (error instanceof ForbiddenAddressError) reject(new SourceError('forbidden', error.message));
      else reject(new SourceError('network', error.message));
    });
    request.end();
  });
}

/** One GET following up to three redirects, each target checked like the first. */
async function follow(start: URL, options: FetchOptions): Promise<SourceResponse> {
  let url = start;
  for (let hop = 0; ; hop++) {
    try {
      checkHost(url, options.allowPrivate);
    } catch (error) {
      throw new SourceError('forbidden', (error as Error).message);
    }
    const response = await once(url, options);
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && location) {
      if (hop >= MAX_REDIRECTS) throw new SourceError('network', `more than ${MAX_REDIRECTS} redirects`);
      const next = new URL(location, url);
      // Credentials go only where they were given for: never to another origin.
      if (next.origin !== start.origin && options.auth)
        throw new SourceError('forbidden', `redirected to another site (${next.origin}) with credentials`);
      url = next;
      continue;
    }
    if (response.status === 429 || response.status >= 500) {
      throw new RetryableStatus(response.status, headerValue(response.headers['retry-after']), response);
    }
    return response;
  }
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * GET a URL as JSON with the §24 retry rules. Non-2xx answers other than 429/5xx are returned, not
 * thrown: callers tell a 400 for an unknown id from a blocked API. A 429/5xx still failing after the
 * retries is returned too.
 */
export async function getJson(raw: string, options: FetchOptions): Promise<SourceResponse> {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SourceError('forbidden', `only http and https URLs can be imported, got ${url.protocol}`);
  const delays = options.retryDelaysMs ?? DEFAULT_DELAYS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await follow(url, options);
    } catch (error) {
      if (!(error instanceof SourceError) || !retryable(error)) throw error;
      if (attempt >= delays.length) {
        if (error instanceof RetryableStatus) return error.response;
        throw error;
      }
      const wait =
        (error instanceof RetryableStatus ? retryAfterMs(error.retryAfter, Date.now()) : undefined) ?? delays[attempt];
      options.onRetry?.(raw, error.message, wait);
      await sleep(wait);
    }
  }
}
