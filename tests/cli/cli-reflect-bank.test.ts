import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startOpenAILoopback, systemOf } from '../helpers/openai-loopback.js';
import { tempDir } from '../helpers/stores.js';

// `memoir reflect --workspace <dir>` in a child process, with no model configured: it writes
// bank/world.md and bank/experience.md from the logs' typed bullets, and says which daily log
// (prose, no ## Retain section) it skipped because no model is set. Fails while reflect never
// writes those pages or reports nothing about such a log.

const run = promisify(execFile);
const bin = resolve(import.meta.dirname, '../../bin/memoir.mjs');
const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function environment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('MEMOIR_') && !key.startsWith('OPENAI_') && key !== 'MEMORY_STORAGE_PATH') env[key] = value;
  }
  return { ...env, MEMOIR_HOME: home };
}

describe('memoir reflect --workspace: bank pages and logs without Retain bullets', () => {
  it('writes bank/world.md and bank/experience.md, and names the prose-only log it skipped for want of a model', async () => {
    const root = join(tempDir('memoir-cli-reflect-bank-'), 'ws');
    mkdirSync(join(root, 'memory'), { recursive: true });
    const yesterday = isoDay(Date.now() - DAY);
    const today = isoDay(Date.now());
    writeFileSync(
      join(root, 'memory', `${yesterday}.md`),
      `# ${yesterday}\n\n## Retain\n\n- W @Peter: Peter keeps the spare keys in the blue drawer.\n- B @warelay: I rotated the warelay API token.\n`,
    );
    writeFileSync(join(root, 'memory', `${today}.md`), `# ${today}\n\nPeter fixed the garage door.\n`);
    const { stdout } = await run(process.execPath, [bin, 'reflect', '--workspace', root], {
      env: environment(tempDir('memoir-cli-reflect-bank-home-')),
      encoding: 'utf8',
    });
    expect(stdout).toContain('created bank/world.md');
    expect(stdout).toContain('created bank/experience.md');
    expect(stdout).toContain(`skipped memory/${today}.md: no language model is set`);
    expect(readFileSync(join(root, 'bank', 'world.md'), 'utf8')).toContain(
      `- ${yesterday} @Peter: Peter keeps the spare keys in the blue drawer.`,
    );
    expect(readFileSync(join(root, 'bank', 'experience.md'), 'utf8')).toContain('I rotated the warelay API token.');
    expect(readFileSync(join(root, 'memory', `${today}.md`), 'utf8')).toBe(
      `# ${today}\n\nPeter fixed the garage door.\n`,
    );
  }, 60_000);

  it("with --model and --base-url, infers the prose-only log's ## Retain bullets through the model (the workspace opens with the configured model)", async () => {
    const root = join(tempDir('memoir-cli-reflect-infer-'), 'ws');
    mkdirSync(join(root, 'memory'), { recursive: true });
    const today = isoDay(Date.now());
    writeFileSync(join(root, 'memory', `${today}.md`), `# ${today}\n\nPeter fixed the garage door.\n`);
    const model = await startOpenAILoopback((request) =>
      systemOf(request).startsWith("You turn one day's log") ? '- W @Peter: Peter fixed the garage door.' : '{}',
    );
    try {
      const { stdout } = await run(
        process.execPath,
        [bin, 'reflect', '--workspace', root, '--model', 'loopback-model', '--base-url', model.baseURL],
        {
          env: { ...environment(tempDir('memoir-cli-reflect-infer-home-')), MEMOIR_API_KEY: 'sk-loopback' },
          encoding: 'utf8',
        },
      );
      expect(stdout).not.toContain('no language model is set');
      expect(model.requests.some((request) => request.body.model === 'loopback-model')).toBe(true);
      expect(stdout).toContain(`## Retain inferred for memory/${today}.md (1 bullet(s))`);
      const day = readFileSync(join(root, 'memory', `${today}.md`), 'utf8');
      expect(day.slice(day.indexOf('## Retain'))).toContain('- W @Peter: Peter fixed the garage door.');
    } finally {
      await model.close();
    }
  }, 60_000);
});
