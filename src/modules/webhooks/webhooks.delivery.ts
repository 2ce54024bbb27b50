import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIPv6 } from 'node:net';
import { checkedAddress } from './webhooks.addresses.js';
import type { ResolveHost } from '../import/ics.fetch.js';
import { signature } from './webhooks.signing.js';

/** A receiver has this long to answer with a 2xx (API.md §22). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** What one attempt gave, as the delivery log shows it. */
export interface AttemptOutcome {
  ok: boolean;
  response_code: number | null;
  duration_ms: number;
  error: string | null;
  /** A `Retry-After` of a 429 or 503, in milliseconds. */
  retryAfterMs?: number;
}

export interface SendOptions {
  allowPrivate: boolean;
  resolve: ResolveHost;
  userAgent: string;
}

/** Connects to the address that was checked, whatever a second lookup would say (no DNS rebinding). */
function pinnedLookup(address: string): LookupFunction {
  const family = isIPv6(address) ? 6 : 4;
  return (_hostname, options, callback) => {
    if (options.all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function retryAfter(response: IncomingMessage): number | undefined {
  if (response.statusCode !== 429 && response.statusCode !== 503) return undefined;
  const header = response.headers['retry-after'];
  if (header === undefined) return undefined;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/**
 * One signed POST of a delivery (Standard Webhooks 1.0): the body as stored, `webhook-id`, the
 * attempt's `webhook-timestamp` and its signature. The target's address is checked at every
 * attempt (API.md §22); redirects are not followed; no answer within ATTEMPT_TIMEOUT_MS fails.
 */
export async function sendDelivery(
  target: { url: string; secret: string },
  message: { msgId: string; body: string },
  nowMs: number,
  options: SendOptions,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const outcome = (fields: Omit<AttemptOutcome, 'duration_ms'>): AttemptOutcome => ({
    ...fields,
    duration_ms: Math.round(performance.now() - started),
  });
  const url = new URL(target.url);
  const address = await checkedAddress(url, options.allowPrivate, options.resolve);
  if (address === undefined) return outcome({ ok: false, response_code: null, error: 'address refused' });
  const timestamp = Math.floor(nowMs / 1000);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(message.body)),
    'user-agent': options.userAgent,
    'webhook-id': message.msgId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(target.secret, message.msgId, timestamp, message.body),
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<AttemptOutcome>((resolve) => {
    const request = send(url, { method: 'POST', headers, lookup: pinnedLookup(address), agent: false }, (response) => {
      response.resume();
      response.on('end', () => {
        const code = response.statusCode ?? 0;
        resolve(
          outcome({
            ok: code >= 200 && code < 300,
            response_code: code,
            error: code >= 200 && code < 300 ? null : `HTTP ${code}`,
            retryAfterMs: retryAfter(response),
          }),
        );
      });
      response.on('error', (error) =>
        resolve(outcome({ ok: false, response_code: response.statusCode ?? null, error: error.message })),
      );
    });
    request.setTimeout(ATTEMPT_TIMEOUT_MS, () => request.destroy(new Error('timeout')));
    request.on('error', (error) => resolve(outcome({ ok: false, response_code: null, error: error.message })));
    request.end(message.body);
  });
}

/** Waits after each failed attempt (API.md §22): 10 attempts over about three days. */
const RETRY_DELAYS_MS = [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400].map((s) => s * 1000);
const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * When to try again after failed attempt number `attempt` (1-based in the current schedule), or
 * undefined after the last one. Jittered by ±10 % so that a recovering receiver is not hit by every
 * delivery at once; a longer Retry-After is honoured, up to a day.
 */
export function nextAttemptAt(
  attempt: number,
  nowMs: number,
  retryAfterMs?: number,
  random = Math.random,
): number | undefined {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  if (delay === undefined) return undefined;
  const jittered = delay * (0.9 + 0.2 * random());
  return Math.round(nowMs + Math.max(jittered, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS)));
}
