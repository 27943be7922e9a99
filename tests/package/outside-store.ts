import { execFile } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { childEnvironment, root } from './packed-package.js';

// An outside store in a consumer project: examples/custom-store, copied next to the
// installed tarball and run with vitest from there, so the contract it imports can only be
// the shipped one (the consumer has no sources and no aliases).

const exec = promisify(execFile);

/** Where the example store lands in the consumer project. */
export const EXAMPLE_DIR = 'custom-store';

/** Copy examples/custom-store into the consumer project. */
export function copyExampleStore(consumer: string): void {
  cpSync(join(root, 'examples/custom-store'), join(consumer, EXAMPLE_DIR), { recursive: true });
}

/** What vitest's JSON reporter says about a run, in the parts the test reads. */
export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: Array<{ name: string; assertionResults: Array<{ title: string; status: string }> }>;
}

/**
 * Run the example's contract test with the project's vitest, from the consumer directory;
 * resolve to the exit code, the report and stderr. The enclosing run's VITEST_* variables are
 * left out: they belong to the worker running this test, not to the new run.
 */
export async function runExampleContract(
  consumer: string,
): Promise<{ code: number; report: VitestReport | null; stderr: string }> {
  const env = childEnvironment();
  for (const key of Object.keys(env)) if (/^VITEST/.test(key)) delete env[key];
  const outputFile = join(consumer, 'vitest-report.json');
  // The consumer's own configuration: without one, vitest would find the checkout's above it.
  const config = join(consumer, 'vitest.config.mjs');
  writeFileSync(config, `export default { test: { include: ['${EXAMPLE_DIR}/**/*.test.ts'], testTimeout: 30000 } };\n`);
  const args = [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--root',
    consumer,
    '--config',
    config,
    '--reporter=json',
    `--outputFile=${outputFile}`,
  ];
  let code = 0;
  let stderr = '';
  try {
    ({ stderr } = await exec(process.execPath, args, { cwd: consumer, env, encoding: 'utf8', maxBuffer: 64 << 20 }));
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    code = failed.code;
    stderr = failed.stderr;
  }
  const report = existsSync(outputFile) ? (JSON.parse(readFileSync(outputFile, 'utf8')) as VitestReport) : null;
  return { code, report, stderr };
}

/**
 * The packages a built file loads, following its relative imports (the shared chunks) to
 * the end: what `import`ing or `require`ing that entry brings in.
 */
export function packagesLoadedBy(entry: string): Set<string> {
  const specifiers =
    /\bfrom\s*(['"])([^'"\n]+)\1|\bimport\s*(['"])([^'"\n]+)\3|\b(?:import|require)\s*\(\s*(['"])([^'"\n]+)\5\s*\)/g;
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const match of code.matchAll(specifiers)) {
      const specifier = match[2] ?? match[4] ?? match[6]!;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return packages;
}
