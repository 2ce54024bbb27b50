import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Finds the addresses of a host name; injectable so that tests need no DNS (AppOptions.resolveHost). */
export type HostResolver = (host: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Addresses a webhook may not reach unless WEBHOOK_ALLOW_PRIVATE_URLS (API.md §19.3, §22):
 * unspecified, loopback, private, shared, link-local, unique-local, multicast, broadcast and
 * reserved ranges. IPv4-mapped IPv6 addresses are checked as the IPv4 address they carry.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');

export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return FORBIDDEN.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The address a request to `url` must connect to, or undefined when the target is refused: an
 * unresolvable host, or (unless allowed) any forbidden address among those it resolves to. The
 * connection then goes to this very address, so a second lookup cannot swap in another one.
 */
export async function checkedAddress(
  url: URL,
  allowPrivate: boolean,
  resolve: HostResolver,
): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = isIP(host) !== 0 ? [host] : await resolve(host);
  } catch {
    return undefined;
  }
  if (addresses.length === 0) return undefined;
  if (!allowPrivate && addresses.some(isForbiddenAddress)) return undefined;
  return addresses[0];
}
