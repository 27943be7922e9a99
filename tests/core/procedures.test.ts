import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { runCli } from '../../src/cli/index.js';
import type { MemoryClient } from '../../src/index.js';
import { captureOutput } from '../helpers/cli-output.js';
import { clientIn, DEPLOY_TASK, isReflection, procedureModel, recordingLogger } from '../helpers/procedure-tasks.js';
import { tempDir } from '../helpers/stores.js';

// The seed's eight verification steps (Subrosa v3, "Verification"), on the default SQLite
// store in a temporary home, the local embedder and a scripted reflection model.

async function learnDeployTask(memory: MemoryClient) {
  const result = await memory.procedures.learn(DEPLOY_TASK);
  await memory.flush();
  return result;
}

describe('procedures: the seed verification steps', () => {
  it('1. start: boots without errors and creates the storage (procedures directory, the store table of procedure embeddings)', async () => {
    const home = tempDir();
    const memory = clientIn(home, { languageModel: procedureModel() });
    expect(await memory.procedures.list()).toEqual([]);
    expect(existsSync(join(home, 'procedures'))).toBe(true);
    await memory.close();
    const db = new Database(join(home, 'memoir.sqlite'), { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    db.close();
    expect(tables).toContain('procedures');
  });

  it('2–3. a complex task (3+ tools) is reflected on, and the log says "Created procedure: <file>"', async () => {
    const home = tempDir();
    const logger = recordingLogger();
    const model = procedureModel();
    const memory = clientIn(home, { languageModel: model, logger });
    expect(memory.procedures.shouldReflect(DEPLOY_TASK)).toBe(true);
    expect(await learnDeployTask(memory)).toEqual({ scheduled: true, reason: null });
    expect(model.calls.filter(isReflection)).toHaveLength(1);
    const file = join(home, 'procedures', 'investigate-deployment-failures.md');
    expect(logger.lines).toContainEqual({ level: 'info', message: `Created procedure: ${file}` });
    await memory.close();
  });

  it('4. the filesystem shows a .md file with valid front matter and the four sections', async () => {
    const home = tempDir();
    const memory = clientIn(home, { languageModel: procedureModel() });
    await learnDeployTask(memory);
    const dir = join(home, 'procedures');
    expect(readdirSync(dir).filter((name) => name.endsWith('.md'))).toEqual(['investigate-deployment-failures.md']);
    const text = readFileSync(join(dir, 'investigate-deployment-failures.md'), 'utf8');
    const front = parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!);
    expect(Object.keys(front)).toEqual([
      'title',
      'created',
      'updated',
      'trigger_examples',
      'success_count',
      'last_used',
    ]);
    expect(front).toMatchObject({
      title: 'Investigate deployment failures',
      created: '2025-12-01T12:00:00.000Z',
      success_count: 1,
      last_used: '2025-12-01T12:00:00.000Z',
    });
    expect(front.trigger_examples).toContain(DEPLOY_TASK.request);
    expect(text).toContain('## Steps\n1. Check the #scout-releases Slack channel');
    expect(text).toContain('## What works\n- Always check Slack first');
    expect(text).toContain("## What doesn't work\n- Don't search all of GitHub");
    expect(text).toContain('## Output format\nLead with');
    await memory.close();
  });

  it('5. a similar task gets the procedure injected into its prompt, and the log says so', async () => {
    const home = tempDir();
    const logger = recordingLogger();
    const memory = clientIn(home, { languageModel: procedureModel(), logger });
    await learnDeployTask(memory);
    const found = await memory.procedures.findRelevant('investigate the deployment failures from yesterday');
    expect(found.map((entry) => entry.procedure.id)).toEqual(['investigate-deployment-failures']);
    const section = memory.procedures.formatProcedures(found);
    expect(section).toMatch(/^## Relevant Procedures\n/);
    expect(section).toContain('1. Check the #scout-releases Slack channel');
    expect(logger.lines.some((line) => line.message.startsWith('Relevant procedure: '))).toBe(true);
    expect(await memory.procedures.findRelevant('what should I cook for dinner tonight')).toEqual([]);
    await memory.close();
  });

  it('6. CLI mode: memoir procedures list, show, find and stale read the same files', async () => {
    const home = tempDir();
    const memory = clientIn(home, { languageModel: procedureModel() });
    await learnDeployTask(memory);
    await memory.close();
    const run = async (...args: string[]) => {
      const out = captureOutput();
      const err = captureOutput();
      const code = await runCli(['--home', home, ...args], {
        stdout: out,
        stderr: err,
        env: {},
        now: () => Date.parse('2025-12-02T00:00:00Z'),
      });
      return { code, out: out.text, err: err.text };
    };
    const list = await run('procedures', 'list', '--json');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.out).procedures.map((p: { id: string }) => p.id)).toEqual([
      'investigate-deployment-failures',
    ]);
    const show = await run('procedures', 'show', 'investigate-deployment-failures');
    expect(show.out).toContain('## Steps');
    const find = await run('procedures', 'find', 'why did the deploys fail again', '--json');
    expect(JSON.parse(find.out).found[0].procedure.id).toBe('investigate-deployment-failures');
    // The CLI's client runs on the wall clock, long after the fixed clock that wrote the file.
    const stale = await run('procedures', 'stale', '--days', '1', '--json');
    expect(JSON.parse(stale.out).procedures.map((p: { id: string }) => p.id)).toEqual([
      'investigate-deployment-failures',
    ]);
    const recent = await run('procedures', 'stale', '--days', '36500', '--json');
    expect(JSON.parse(recent.out).procedures).toEqual([]);
    const missing = await run('procedures', 'show', 'no-such-procedure');
    expect(missing.code).toBe(1);
  });

  it('7. a simple query (< 3 tools) does not trigger reflection', async () => {
    const home = tempDir();
    const model = procedureModel();
    const memory = clientIn(home, { languageModel: model });
    const simple = { request: 'what time is it in Lisbon?', toolCalls: ['clock', 'timezone'] };
    expect(memory.procedures.shouldReflect(simple)).toBe(false);
    expect(await memory.procedures.learn(simple)).toEqual({
      scheduled: false,
      reason: '2 tool call(s); reflection needs at least 3',
    });
    expect(await memory.procedures.learn({ ...DEPLOY_TASK, success: false })).toMatchObject({ scheduled: false });
    expect(memory.procedures.shouldReflect({ toolCalls: 5, error: new Error('boom') })).toBe(false);
    await memory.flush();
    expect(model.calls).toHaveLength(0);
    expect(await memory.procedures.list()).toEqual([]);
    await memory.close();
  });

  it('8. a procedure edited by hand is picked up on the next similar query', async () => {
    const home = tempDir();
    const memory = clientIn(home, { languageModel: procedureModel() });
    await learnDeployTask(memory);
    const file = join(home, 'procedures', 'investigate-deployment-failures.md');
    const edited = readFileSync(file, 'utf8')
      .replace('  - why did deploys fail\n', '  - why did deploys fail\n  - are the rollouts broken\n')
      .replace('Cross-reference with GitHub PR merge times', 'Open the Argo CD rollout history');
    writeFileSync(file, edited);
    const found = await memory.procedures.findRelevant('are the rollouts broken');
    expect(found[0]?.procedure.steps).toContain('Open the Argo CD rollout history');
    expect(found[0]?.procedure.triggerExamples).toContain('are the rollouts broken');
    // The hand edit is the file: nothing rewrote it.
    expect(readFileSync(file, 'utf8')).toBe(edited);
    await memory.close();
  });
});
