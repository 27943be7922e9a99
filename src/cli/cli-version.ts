/** The version `memoir --version` prints, read from the package's own package.json. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

function findVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'memoir' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json here, or not a readable one: look further up.
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

/**
 * The `version` of the memoir package.json nearest above this module: `dist/` in an
 * installed package, `src/cli/` in a checkout. Read at run time, once, so a build never
 * carries a stale copy; "unknown" if no such package.json can be read.
 */
export function packageVersion(): string {
  cached ??= findVersion();
  return cached;
}
