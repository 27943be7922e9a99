import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { root } from './packed-package.js';

// A TypeScript project that has memoir and its dependencies but none of its optional peers
// (@lancedb/lancedb, apache-arrow, openai, vitest), as most users' projects are. It lives
// outside the project root: from the consumer under the root, Node and tsc walk up to the
// checkout's node_modules, which has every peer. memoir is a copy of the installed tarball (a
// symlink would resolve, by its real path, into the root again); its dependencies are symlinks
// to the checkout's copies, whose own imports may resolve there, as they would for a user.

/** The consumer project: its directory and the specifiers it imports. */
export interface PeerlessConsumer {
  /** The project directory, under the system's temporary directory. */
  dir: string;
  /** Every subpath of memoir's exports, by the name a user imports. */
  specifiers: string[];
}

/**
 * Create the project: memoir copied from `installed`, `dependencies` and @types/node linked
 * from the checkout, and `every-subpath.ts`, which imports every subpath (ESM) and types a LanceDB store.
 * Throws when an optional peer still resolves from the project, as the check would prove nothing.
 */
export function createPeerlessConsumer(
  installed: string,
  subpaths: string[],
  dependencies: string[],
  optionalPeers: string[],
): PeerlessConsumer {
  const dir = mkdtempSync(join(tmpdir(), 'memoir-no-peers-'));
  const modules = join(dir, 'node_modules');
  cpSync(installed, join(modules, 'memoir'), { recursive: true });
  for (const name of [...dependencies, '@types/node']) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(modules, name), 'dir');
  }
  const require = createRequire(join(dir, 'package.json'));
  const reachable = optionalPeers.filter((peer) => {
    try {
      require.resolve(`${peer}/package.json`);
      return true;
    } catch {
      return false;
    }
  });
  if (reachable.length > 0) throw new Error(`optional peers resolve from ${dir}: ${reachable.join(', ')}`);
  if (!existsSync(join(modules, 'memoir/package.json'))) throw new Error('memoir was not copied');

  const specifiers = subpaths.map((subpath) => (subpath === '.' ? 'memoir' : `memoir/${subpath.slice(2)}`));
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'peerless', private: true, type: 'module' })}\n`);
  const esm = specifiers.map((specifier, index) => `import * as entry${index} from '${specifier}';`);
  writeFileSync(
    join(dir, 'every-subpath.ts'),
    `${esm.join('\n')}
import { createMemory } from 'memoir';
import { createLanceStore } from 'memoir/lancedb';

// The LanceDB store, typed without @lancedb/lancedb or apache-arrow installed.
export const memory = createMemory({ store: createLanceStore({ uri: './agent-lancedb' }) });
export const entries = [${specifiers.map((_, index) => `entry${index}`).join(', ')}];
`,
  );
  return { dir, specifiers };
}
