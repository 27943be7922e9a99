import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { childEnvironment, root } from './packed-package.js';

// Are the Types Wrong? (@arethetypeswrong/cli, a devDependency) reads a packed tarball and
// resolves every subpath of its exports the way TypeScript does in each resolution mode a user
// may have — node10 (`"moduleResolution": "node"`), node16 from CommonJS, node16 from ESM and
// bundler — then compares what the types declare with what the JavaScript exports: a subpath
// that does not resolve, CommonJS types that declare a default export the runtime lacks, ESM
// types for a CommonJS file, and so on. It reads the tarball only: no registry, no network.

const exec = promisify(execFile);

/**
 * The CLI as `npm ci` installs it from the lockfile; `ATTW_BIN` names another copy (a checkout
 * whose node_modules predates the devDependency).
 */
export const ATTW_BIN = process.env.ATTW_BIN ?? join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js');

/** One problem attw found: which kind, at which subpath, in which resolution mode. */
export interface AttwProblem {
  /** attw's name for it, e.g. `NoResolution`, `FalseExportDefault`. */
  kind: string;
  /** The subpath of `exports`, e.g. `./openclaw`. */
  entrypoint?: string;
  /** `node10`, `node16-cjs`, `node16-esm` or `bundler`. */
  resolutionKind?: string;
}

/** What the test reads of attw's JSON report. */
export interface AttwReport {
  /** The subpaths it checked. */
  entrypoints: string[];
  /** The resolution modes it checked each in. */
  resolutionKinds: string[];
  /** Every problem, in the order attw lists them. */
  problems: AttwProblem[];
}

interface AttwJson {
  analysis: {
    entrypoints: Record<string, { resolutions: Record<string, unknown> }>;
    problems: AttwProblem[];
  };
}

/**
 * Run attw on `tarball` with its strict profile (all four resolution modes) and resolve to its
 * report. attw exits 1 when it finds problems, so its JSON is read whatever the exit code.
 */
export async function checkTarballTypes(tarball: string, cwd: string): Promise<AttwReport> {
  if (!existsSync(ATTW_BIN)) {
    throw new Error(`${ATTW_BIN} is missing: @arethetypeswrong/cli is a devDependency; run npm ci.`);
  }
  const args = [ATTW_BIN, tarball, '--format', 'json', '--profile', 'strict'];
  const output = await exec(process.execPath, args, {
    cwd,
    env: childEnvironment(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    if (error.stdout?.trimStart().startsWith('{')) return { stdout: error.stdout };
    throw new Error(`attw failed: ${error.message}\n${error.stderr ?? ''}`);
  });
  const { analysis } = JSON.parse(output.stdout) as AttwJson;
  const entrypoints = Object.keys(analysis.entrypoints);
  const resolutionKinds = [
    ...new Set(Object.values(analysis.entrypoints).flatMap((entry) => Object.keys(entry.resolutions))),
  ];
  const problems = analysis.problems.map(({ kind, entrypoint, resolutionKind }) => ({
    kind,
    ...(entrypoint === undefined ? {} : { entrypoint }),
    ...(resolutionKind === undefined ? {} : { resolutionKind }),
  }));
  return { entrypoints, resolutionKinds, problems };
}
