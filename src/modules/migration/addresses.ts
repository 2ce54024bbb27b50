import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isForbiddenAddress } from '../import/ics.fetch.js';

// The addresses themselves are those POST /import/ics refuses (API.md §19.3): one list for both imports.
export { isForbiddenAddress };

export class ForbiddenAddressError extends Error {
  constructor(readonly host: string) {
    super(
      `${host} resolves to a private or local address; set IMPORT_ALLOW_PRIVATE_URLS=true to import from such an address`,
    );
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses forbidden addresses: the connection then goes to an
 * address that was checked, so a name resolving differently a moment later cannot slip through.
 * Node asks for every address (`all`) when it races IPv4 and IPv6: all of them are checked then.
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (addresses.length === 0 || addresses.some((entry) => isForbiddenAddress(entry.address)))
      return callback(new ForbiddenAddressError(hostname), '', 0);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}
