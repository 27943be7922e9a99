import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnvironment } from './packed-package.js';

// The README's first example, pasted into a fresh `npm init -y` project, which is CommonJS by
// default (no "type" in its package.json). The example is saved under the file name the README
// says (else `index.ts`, what one would pick without a word) and run with tsx as the README
// says, with `memoir` resolving to this checkout's sources. Top-level await fails in CommonJS,
// so the README must say how to run it where it works.

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The first ```ts block of the README, and the text before it. */
function firstExample(readme: string): { code: string; before: string } {
  const match = /```ts\n([\s\S]*?)```/.exec(readme);
  expect(match, 'the README has a TypeScript example').not.toBeNull();
  return { code: match![1]!, before: readme.slice(0, match!.index) };
}

/** A project as `npm init -y` writes it, with `memoir` in node_modules standing for this checkout. */
function freshProject(): string {
  const project = mkdtempSync(join(tmpdir(), 'memoir-readme-cjs-'));
  dirs.push(project);
  const name = 'readme-example';
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name, version: '1.0.0', main: 'index.js', scripts: { test: 'echo "Error: no test specified" && exit 1' }, keywords: [], author: '', license: 'ISC', description: '' }, null, 2)}\n`,
  );
  const memoir = join(project, 'node_modules', 'memoir');
  mkdirSync(memoir, { recursive: true });
  writeFileSync(
    join(memoir, 'package.json'),
    JSON.stringify({ name: 'memoir', type: 'module', exports: { '.': './index.ts' } }),
  );
  writeFileSync(join(memoir, 'index.ts'), `export * from ${JSON.stringify(join(root, 'src', 'index.ts'))};\n`);
  return project;
}

describe("the README's first example in a fresh CommonJS project", () => {
  it('runs as the README says to run it', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const { code, before } = firstExample(readme);
    expect(code).toMatch(/^await /m);
    // The file name the README gives for the example, in the paragraph that introduces it.
    const intro = before.slice(before.lastIndexOf('\n## '));
    const file = /save it as `([^`]+)`/i.exec(intro)?.[1] ?? 'index.ts';
    const project = freshProject();
    writeFileSync(join(project, file), code);
    const { stdout } = await run(tsx, [file], {
      cwd: project,
      env: childEnvironment({ MEMOIR_HOME: join(project, '.memoir') }),
      encoding: 'utf8',
    }).catch((error: { stderr: string; message: string }) => {
      throw new Error(`running ${file} failed:\n${error.stderr || error.message}`);
    });
    expect(stdout).toContain('(2 memories in context) Where does Sam live?');
    expect(stdout).toContain('bank/entities/Sam.md');
  }, 120_000);
});
