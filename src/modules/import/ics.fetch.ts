import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { ApiError } from '../../errors.js';

/** Resolves a host name to its addresses (tests inject one: no public address is reachable from them). */
export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const resolveWithDns: ResolveHost = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface FetchLimits {
  readonly allowPrivate: boolean;
  readonly resolve: ResolveHost;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
}

/** API.md §19.3: 10 s, 10 MB, at most 3 redirects. */
export const IMPORT_FETCH_LIMITS = { timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 3 } as const;

/**
 * Addresses an import may not reach unless IMPORT_ALLOW_PRIVATE_URLS (API.md §19.3): loopback,
 * private, link-local, unique-local, unspecified, multicast and broadcast.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['255.255.255.255', 32],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fe80::', 10],
  ['fc00::', 7],
  ['ff00::', 8],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');

/** Whether an import may connect to `address`; an IPv4-mapped IPv6 address is judged by its IPv4 address. */
export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return FORBIDDEN.check(mapped[1], 'ipv4');
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
    return FORBIDDEN.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  const family = isIP(address);
  if (family === 0) return true;
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const forbidden = () => new ApiError('rest_import_url_forbidden');

function fetchFailed(reason: 'timeout' | 'network' | 'http_status' | 'too_large', status: number | null): ApiError {
  return new ApiError('rest_import_fetch_failed', { vars: { reason }, data: { reason, http_status: status } });
}

/** An import URL as fetched: `webcal` read as `https`; anything but http(s) is refused. */
export function importUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw.trim().replace(/^webcals?:/i, 'https:'));
  } catch {
    return null;
  }
  return url;
}

export function isFetchableScheme(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** The address to connect to: the host's, checked (every address it resolves to must be allowed). */
async function checkedAddress(url: URL, limits: FetchLimits): Promise<{ address: string; family: number }> {
  if (!isFetchableScheme(url)) throw forbidden();
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await limits.resolve(host);
    } catch {
      throw fetchFailed('network', null);
    }
  }
  if (addresses.length === 0) throw fetchFailed('network', null);
  if (!limits.allowPrivate && addresses.some((a) => isForbiddenAddress(a.address))) throw forbidden();
  return addresses[0];
}

/** One GET to the checked address (the name is never resolved again: no rebinding between check and connect). */
function get(url: URL, address: { address: string; family: number }, signal: AbortSignal): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      {
        host: address.address,
        family: address.family,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        // The certificate is checked against the URL's host name, not the address.
        servername: isIP(url.hostname) === 0 ? url.hostname : undefined,
        headers: { host: url.host, accept: 'text/calendar, */*;q=0.5', 'user-agent': 'calendar-events-service import' },
        signal,
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw fetchFailed('too_large', response.statusCode ?? null);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) {
      response.destroy();
      throw fetchFailed('too_large', response.statusCode ?? null);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The bytes at an import URL (API.md §19.3): every hop's address checked before connecting, at
 * most `maxRedirects` redirects, the whole fetch within `timeoutMs` and `maxBytes`.
 */
export async function fetchCalendar(start: URL, limits: FetchLimits): Promise<Buffer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  let status: number | null = null;
  try {
    let url = start;
    for (let redirects = 0; ; redirects++) {
      const address = await checkedAddress(url, limits);
      const response = await get(url, address, controller.signal);
      status = response.statusCode ?? null;
      const location = response.headers.location;
      if (status !== null && status >= 300 && status < 400 && location !== undefined) {
        response.resume();
        if (redirects >= limits.maxRedirects) throw fetchFailed('http_status', status);
        const next = importUrl(new URL(location, url).href);
        if (!next || !isFetchableScheme(next)) throw forbidden();
        url = next;
        continue;
      }
      if (status === null || status < 200 || status >= 300) {
        response.resume();
        throw fetchFailed('http_status', status);
      }
      return await readBody(response, limits.maxBytes);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw fetchFailed(controller.signal.aborted ? 'timeout' : 'network', status);
  } finally {
    clearTimeout(timer);
  }
}
