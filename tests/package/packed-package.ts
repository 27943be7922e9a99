import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

// Packs memoir as `npm pack` does for a release (its prepack script builds dist/, unless the
// checkout's dist/ is newer than every build input, as in CI right after `npm run build`) and
// installs the tarball into a new consumer project, so tests can use the package
// exactly as a user who installed it would.

const exec = promisify(execFile);

/** The project root. */
export const root = resolve(import.meta.dirname, '../..');

/** What a checkout holds besides the package's sources and files: never copied for packing. */
const NOT_COPIED = new Set(['node_modules', '.git', 'dist', 'docs-site', 'coverage']);

export interface PackedPackage {
  /** The temporary directory holding everything below; inside the project root. */
  dir: string;
  /** The tarball `npm pack` wrote. */
  tarball: string;
  /** The paths in the tarball, relative to the package (without tar's `package/`). */
  files: string[];
  /** The consumer project: a package.json, and memoir in its node_modules. */
  consumer: string;
  /** Where the tarball is installed: `<consumer>/node_modules/memoir`. */
  installed: string;
  /** Whether the checkout's fresh dist/ was packed as it is (no prepack build). */
  prebuilt: boolean;
  /** Seconds spent copying, packing (the build) and installing. */
  timings: Record<'copy' | 'pack' | 'install', number>;
}

/**
 * The environment for child processes: this one's, without memoir or OpenAI settings, and
 * without the npm_* variables of an enclosing `npm test`, which would otherwise act on
 * the `npm pack` run inside it (its prefix, its command) as if they were its own.
 */
export function childEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(MEMOIR_|OPENAI_|npm_)/i.test(key) || key === 'MEMORY_STORAGE_PATH') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

async function timed(action: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  await action();
  return Math.round(performance.now() - start) / 1000;
}

/**
 * Pack the package and install the tarball into a consumer project, all inside a new
 * temporary directory under the project root.
 *
 * The tarball is packed from a copy of the working tree, so the build that prepack runs
 * writes the copy's dist/ and never the checkout's, which other tests and processes may
 * be running from. The consumer lives under the project root so that the tarball's
 * dependencies (better-sqlite3 with its compiled binary, zod, …) resolve from the
 * project's node_modules as Node walks up; the tarball itself is extracted into
 * `consumer/node_modules/memoir`, which is what `import 'memoir'` finds first — no
 * registry, no network and no compiling.
 */
export async function packAndInstall(): Promise<PackedPackage> {
  const dir = mkdtempSync(join(root, '.memoir-test-pack-'));
  const source = join(dir, 'source');
  const consumer = join(dir, 'consumer');
  const installed = join(consumer, 'node_modules', 'memoir');

  const copy = await timed(() => {
    for (const entry of readdirSync(root)) {
      if (NOT_COPIED.has(entry) || entry.startsWith('.memoir-test-')) continue;
      cpSync(join(root, entry), join(source, entry), { recursive: true });
    }
  });

  // A dist/ built after every input changed is what prepack would build again (about 2 minutes
  // alone, several times that beside other tests): pack it as it is, and run no scripts.
  const prebuilt = freshBuild();
  if (prebuilt) cpSync(join(root, 'dist'), join(source, 'dist'), { recursive: true });
  const packArgs = [
    'pack',
    '--pack-destination',
    dir,
    '--loglevel',
    'error',
    ...(prebuilt ? ['--ignore-scripts'] : []),
  ];
  const pack = await timed(() =>
    exec('npm', packArgs, {
      cwd: source,
      env: childEnvironment(),
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`npm pack failed: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    }),
  );
  const tarballs = readdirSync(dir).filter((name) => name.endsWith('.tgz'));
  if (tarballs.length !== 1) throw new Error(`npm pack wrote ${tarballs.length} tarballs: ${tarballs.join(', ')}`);
  const tarball = join(dir, tarballs[0]!);

  const { stdout: listing } = await exec('tar', ['-tzf', tarball], { encoding: 'utf8' });
  const files = listing
    .split('\n')
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ''))
    .sort();

  const install = await timed(async () => {
    mkdirSync(installed, { recursive: true });
    const manifest = {
      name: 'memoir-consumer',
      private: true,
      type: 'module',
      dependencies: { memoir: `file:../${tarballs[0]}` },
    };
    writeFileSync(join(consumer, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await exec('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  });

  return { dir, tarball, files, consumer, installed, prebuilt, timings: { copy, pack, install } };
}

/** What the build reads: when one of these is newer than dist/, dist/ is stale. */
const BUILD_INPUTS = [
  'src',
  'bin',
  'package.json',
  'package-lock.json',
  'tsup.config.ts',
  'tsconfig.json',
  'entry-points.json',
  'scripts/entry-points.ts',
];

/** The modification times under `path`: of its files, and of its directories when `directories`. */
function modificationTimes(path: string, directories: boolean): number[] {
  const stat = statSync(path);
  if (!stat.isDirectory()) return [stat.mtimeMs];
  const nested = readdirSync(path).flatMap((entry) => modificationTimes(join(path, entry), directories));
  return directories ? [stat.mtimeMs, ...nested] : nested;
}

/**
 * Whether the checkout's dist/ was built after every build input last changed (tsup cleans
 * dist/ first, so its oldest file dates the build). `MEMOIR_PACK_REBUILD=1` always rebuilds.
 */
export function freshBuild(): boolean {
  if (process.env.MEMOIR_PACK_REBUILD === '1') return false;
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'index.js'))) return false;
  const inputs = BUILD_INPUTS.map((name) => join(root, name)).filter((path) => existsSync(path));
  const newestInput = Math.max(...inputs.flatMap((path) => modificationTimes(path, true)));
  return Math.min(...modificationTimes(dist, false)) > newestInput;
}
