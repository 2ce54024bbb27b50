import { PassThroughCache, VersionedCache } from './lru.js';

/** Makes a module's cache: bounded by entry count and by the total size of its values. */
export type CacheMaker = <V>(maxEntries: number, maxSize: number, sizeOf?: (value: V) => number) => VersionedCache<V>;

/**
 * The one switch between the accelerated service and the plain one (ACCELERATION): with
 * acceleration off every cache a module makes keeps nothing, so each read takes its plain path.
 */
export function cacheMaker(acceleration: boolean): CacheMaker {
  return <V>(maxEntries: number, maxSize: number, sizeOf?: (value: V) => number) =>
    acceleration ? new VersionedCache<V>(maxEntries, maxSize, sizeOf) : new PassThroughCache<V>();
}

export const MB = 1024 * 1024;
