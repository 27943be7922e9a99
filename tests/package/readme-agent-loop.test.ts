import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The README's agent loop says it "runs as it is, offline". This runs it: the first TypeScript
// block under "## The agent loop", with `from 'memoir'` pointed at the sources, against a real
// SQLite index in a temporary workspace, and checks what it prints.

const root = resolve(import.meta.dirname, '../..');
let dir: string;

/** The first ```ts block of a README section. */
function snippetOf(readme: string, heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  expect(start, `the README has a "${heading}" section`).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + heading.length + 2);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  expect(code, `the "${heading}" section has a TypeScript snippet`).toBeDefined();
  return code ?? '';
}

beforeAll(() => {
  // Inside the project, so the snippet's imports resolve as the tests' own do.
  dir = mkdtempSync(join(root, '.memoir-test-readme-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("the README's agent loop", () => {
  it('retains, recalls into the prompt, retains the conversation and reflects, offline', async () => {
    const snippet = snippetOf(readFileSync(join(root, 'README.md'), 'utf8'), '## The agent loop');
    expect(snippet).toMatch(/from 'memoir';/);
    for (const call of ['retain(', 'recall(', 'formatContext(', 'reflect(', 'close()']) expect(snippet).toContain(call);

    const file = join(dir, 'agent-loop.ts');
    writeFileSync(file, snippet.replace(/from 'memoir';/g, `from ${JSON.stringify(join(root, 'src/index.ts'))};`));
    const logged: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      logged.push(args);
    });
    try {
      await import(pathToFileURL(file).href);
    } finally {
      log.mockRestore();
    }

    // The stand-in model reports how many memories reached its system prompt: both facts about Sam.
    expect(logged[0]).toEqual(['(2 memories in context) Where does Sam live?']);
    // Reflect wrote Sam's entity page.
    expect(logged[1]).toEqual([['bank/entities/Sam.md']]);
  }, 60_000);
});
