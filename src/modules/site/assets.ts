import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A file of the project's `public/` folder, found upwards from this module: the same code runs from
 * `src/` (tsx) and from a bundle elsewhere in the tree (the benchmark's production build).
 */
export function readPublicFile(name: string): Buffer {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, 'public', name);
    if (existsSync(candidate)) return readFileSync(candidate);
    dir = dirname(dir);
  }
  throw new Error(`public/${name} not found above ${fileURLToPath(import.meta.url)}`);
}
