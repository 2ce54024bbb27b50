import { isIP } from 'node:net';
import { isForbiddenAddress, type ResolveHost } from '../import/ics.fetch.js';

/**
 * The address a request to `url` must connect to, or undefined when the target is refused: an
 * unresolvable host, or (unless allowed) any forbidden address among those it resolves to (the
 * import's rules, API.md §19.3, §22). The connection then goes to this very address, so a second
 * lookup cannot swap in another one.
 */
export async function checkedAddress(
  url: URL,
  allowPrivate: boolean,
  resolve: ResolveHost,
): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = isIP(host) !== 0 ? [host] : (await resolve(host)).map((entry) => entry.address);
  } catch {
    return undefined;
  }
  if (addresses.length === 0) return undefined;
  if (!allowPrivate && addresses.some(isForbiddenAddress)) return undefined;
  return addresses[0];
}
