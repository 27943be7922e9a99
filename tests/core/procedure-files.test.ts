import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProcedureFile } from '../../src/core/procedure-files/procedure-file.js';
import { createMemory, loadConfig, type MemoirEvents, ValidationError } from '../../src/index.js';
import { createFixedClock, createScriptedLanguageModel } from '../../src/testing/index.js';
import { T0 } from '../helpers/clients.js';
import { clientIn, DEPLOY_PROCEDURE, DEPLOY_TASK, isReflection, procedureModel } from '../helpers/procedure-tasks.js';
import { tempDir } from '../helpers/stores.js';

const DAY = 86_400_000;
const procedureFiles = (home: string) =>
  readdirSync(join(home, 'procedures'))
    .filter((name) => name.endsWith('.md'))
    .sort();

function collect<E extends keyof MemoirEvents>(memory: ReturnType<typeof clientIn>, event: E) {
  const seen: Parameters<MemoirEvents[E]>[0][] = [];
  memory.on(event, ((payload: Parameters<MemoirEvents[E]>[0]) => void seen.push(payload)) as MemoirEvents[E]);
  return seen;
}

const SIMILAR_TASK = { ...DEPLOY_TASK, request: 'investigate the deployment failures of the scout api' };

describe('procedure files', () => {
  it('a similar task updates the stored procedure instead of creating another, keeping the earlier version', async () => {
    const home = tempDir();
    const model = procedureModel();
    const memory = clientIn(home, { languageModel: model });
    const updated = collect(memory, 'procedure:updated');
    await memory.procedures.learn(DEPLOY_TASK);
    await memory.flush();
    await memory.procedures.learn(SIMILAR_TASK);
    await memory.flush();
    expect(procedureFiles(home)).toEqual(['investigate-deployment-failures.md']);
    expect(model.calls.filter((call) => !isReflection(call))).toHaveLength(1);
    expect(updated).toHaveLength(1);
    const [procedure] = await memory.procedures.list();
    expect(procedure!.whatWorks).toContain('Merged: check the deploy dashboard too');
    expect(procedure!.triggerExamples).toContain(SIMILAR_TASK.request);
    const history = readdirSync(join(home, 'procedures', '.history', 'investigate-deployment-failures'));
    expect(history).toHaveLength(1);
    await memory.close();
  });

  it('an unrelated task creates a second file', async () => {
    const home = tempDir();
    const model = procedureModel((request) =>
      request.messages.at(-1)!.content.includes('invoice')
        ? { ...DEPLOY_PROCEDURE, title: 'Reconcile unpaid invoices', triggerExamples: ['which invoices are unpaid'] }
        : DEPLOY_PROCEDURE,
    );
    const memory = clientIn(home, { languageModel: model });
    await memory.procedures.learn(DEPLOY_TASK);
    await memory.procedures.learn({ ...DEPLOY_TASK, request: 'which invoices from October are still unpaid?' });
    await memory.flush();
    expect(procedureFiles(home)).toEqual(['investigate-deployment-failures.md', 'reconcile-unpaid-invoices.md']);
    await memory.close();
  });

  it('a file with broken YAML is reported (event, invalidFiles, doctor) and left untouched', async () => {
    const home = tempDir();
    const memory = clientIn(home, { languageModel: procedureModel() });
    const invalid = collect(memory, 'procedure:invalid');
    await memory.procedures.learn(DEPLOY_TASK);
    await memory.flush();
    const file = join(home, 'procedures', 'investigate-deployment-failures.md');
    const broken = readFileSync(file, 'utf8').replace('title: Investigate deployment failures', 'title: [unclosed');
    writeFileSync(file, broken);
    expect(await memory.procedures.findRelevant('why did deploys fail')).toEqual([]);
    expect(await memory.procedures.list()).toEqual([]);
    expect(invalid).toHaveLength(1);
    expect(invalid[0]!.reason).toMatch(/not valid YAML/);
    expect((await memory.procedures.invalidFiles())[0]?.file).toBe(file);
    expect((await memory.doctor()).procedures.invalid).toEqual([{ file, reason: invalid[0]!.reason }]);
    // A similar task neither rewrites nor deletes the broken file.
    await memory.procedures.learn(SIMILAR_TASK);
    await memory.flush();
    expect(readFileSync(file, 'utf8')).toBe(broken);
    await expect(memory.procedures.recordUse('investigate-deployment-failures', { success: true })).rejects.toThrow(
      /not a readable procedure/,
    );
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(invalid).toHaveLength(1);
    await memory.close();
  });

  it('two reflections on similar tasks at once produce one procedure, across two clients of one home', async () => {
    const home = tempDir();
    const first = clientIn(home, { languageModel: procedureModel(), concurrency: 2 });
    const second = createMemory({
      store: (await import('../../src/index.js')).createInMemoryStore(),
      procedures: { directory: join(home, 'procedures') },
      languageModel: procedureModel(),
      logger: { log() {} },
    });
    await Promise.all([
      first.procedures.learn(DEPLOY_TASK),
      first.procedures.learn(SIMILAR_TASK),
      second.procedures.learn(SIMILAR_TASK),
    ]);
    await Promise.all([first.flush(), second.flush()]);
    expect(procedureFiles(home)).toEqual(['investigate-deployment-failures.md']);
    expect(readdirSync(join(home, 'procedures', '.history', 'investigate-deployment-failures'))).toHaveLength(2);
    await Promise.all([first.close(), second.close()]);
  });

  it('writes are atomic: a reader never sees half a file, and no temp file is left', async () => {
    const home = tempDir();
    const memory = clientIn(home);
    const long = Array.from({ length: 30 }, (_, index) => `step ${index} ${'x'.repeat(3000)}`);
    await memory.procedures.save({ id: 'big', title: 'Big procedure', steps: long });
    const file = join(home, 'procedures', 'big.md');
    let writing = true;
    const reads: string[] = [];
    const reader = (async () => {
      while (writing) reads.push(await readFile(file, 'utf8'));
    })();
    for (let round = 0; round < 25; round++) {
      await memory.procedures.save({
        id: 'big',
        title: 'Big procedure',
        steps: long.map((step) => `${step} ${round}`),
      });
    }
    writing = false;
    await reader;
    expect(reads.length).toBeGreaterThan(0);
    for (const text of reads)
      expect(parseProcedureFile(text, 'big', new Date(T0).toISOString()).procedure.steps).toHaveLength(30);
    expect(readdirSync(join(home, 'procedures')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await memory.close();
  });

  it('stale() lists procedures unused for 90 days; recordUse counts uses and keeps a hand edit', async () => {
    const home = tempDir();
    const clock = createFixedClock(T0);
    const memory = clientIn(home, { clock });
    await memory.procedures.save({
      id: 'old',
      title: 'Rotate the TLS certificates',
      lastUsedAt: new Date(T0 - 120 * DAY).toISOString(),
    });
    await memory.procedures.save({ id: 'fresh', title: 'Restart the ingest worker' });
    expect((await memory.procedures.stale()).map((procedure) => procedure.id)).toEqual(['old']);
    const file = join(home, 'procedures', 'old.md');
    writeFileSync(
      file,
      `${readFileSync(file, 'utf8')}\n## Notes\nAsk Dana before rotating.\n`.replace(
        'title:',
        '# checked by hand\ntitle:',
      ),
    );
    clock.set(T0 + DAY);
    const used = await memory.procedures.recordUse('old', { success: true });
    await memory.procedures.recordUse('old', { success: false });
    expect(used).toMatchObject({ successCount: 1, lastUsedAt: new Date(T0 + DAY).toISOString() });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# checked by hand');
    expect(text).toContain('## Notes\nAsk Dana before rotating.');
    expect(text).toContain('failure_count: 1');
    expect((await memory.procedures.stale()).map((procedure) => procedure.id)).toEqual([]);
    clock.set(T0 + 200 * DAY);
    // Oldest use first: 'fresh' was never used, so its creation (T0) counts, a day before 'old' was used.
    expect((await memory.procedures.stale()).map((procedure) => procedure.id)).toEqual(['fresh', 'old']);
    expect((await memory.procedures.stale({ days: 199.5 })).map((procedure) => procedure.id)).toEqual(['fresh']);
    await expect(memory.procedures.recordUse('missing', { success: true })).rejects.toThrow(/does not exist/);
    await memory.close();
  });

  it('a reflection model answering garbage writes no file, emits procedure:failed and keeps the task', async () => {
    const home = tempDir();
    const model = createScriptedLanguageModel(['the deploys were fine, no JSON here', '{"title": 42}']);
    const memory = clientIn(home, { languageModel: model });
    const failed = collect(memory, 'procedure:failed');
    const errors = collect(memory, 'error');
    expect(await memory.procedures.learn(DEPLOY_TASK)).toMatchObject({ scheduled: true });
    await memory.flush();
    expect(model.calls).toHaveLength(2);
    expect(procedureFiles(home)).toEqual([]);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.input).toMatchObject({ request: DEPLOY_TASK.request });
    expect(errors).toEqual([]);
    const episode = await memory.get(failed[0]!.episodeId!);
    expect(episode?.content).toContain(DEPLOY_TASK.request);
    expect(episode?.content).toContain('slack_search');
    await memory.close();
  });

  it('save, get, list and delete; bad input is a ValidationError naming the field', async () => {
    const home = tempDir();
    const memory = clientIn(home);
    const saved = await memory.procedures.save({ title: 'Rotate the TLS certificates', steps: ['Run certbot renew'] });
    expect(saved).toMatchObject({ id: 'rotate-the-tls-certificates', source: 'manual', successCount: 0 });
    const again = await memory.procedures.save({ title: 'Rotate the TLS certificates' });
    expect(again.id).toBe('rotate-the-tls-certificates-2');
    expect((await memory.procedures.get(saved.id))?.steps).toEqual(['Run certbot renew']);
    expect((await memory.procedures.list()).map((procedure) => procedure.id)).toEqual([saved.id, again.id]);
    expect(await memory.procedures.delete(again.id)).toBe(true);
    expect(await memory.procedures.delete(again.id)).toBe(false);
    expect(await memory.procedures.get(again.id)).toBeNull();
    const refused = await memory.procedures.save({ title: '' }).catch((error: unknown) => error);
    expect(ValidationError.isInstance(refused) && refused.field).toBe('procedure.title');
    const badId = await memory.procedures.get('../etc/passwd').catch((error: unknown) => error);
    expect(ValidationError.isInstance(badId) && badId.field).toBe('id');
    const badQuery = await memory.procedures.findRelevant('   ').catch((error: unknown) => error);
    expect(ValidationError.isInstance(badQuery) && badQuery.field).toBe('query');
    await memory.close();
  });

  it("a scoped client sees and changes only its own scope's procedures", async () => {
    const home = tempDir();
    const alice = clientIn(home, { scope: { userId: 'alice' } });
    const bob = clientIn(home, { scope: { userId: 'bob' } });
    const saved = await alice.procedures.save({
      title: 'Alice deploy checklist',
      triggerExamples: ['deploy checklist'],
    });
    expect(saved.scope).toEqual({ userId: 'alice' });
    expect(await bob.procedures.list()).toEqual([]);
    expect(await bob.procedures.get(saved.id)).toBeNull();
    expect(await bob.procedures.findRelevant('deploy checklist', { threshold: 0 })).toEqual([]);
    await expect(bob.procedures.recordUse(saved.id, { success: true })).rejects.toThrow(/does not exist/);
    await expect(bob.procedures.delete(saved.id)).rejects.toThrow(/does not exist/);
    expect((await alice.procedures.findRelevant('deploy checklist'))[0]?.procedure.id).toBe(saved.id);
    await Promise.all([alice.close(), bob.close()]);
  });

  it('createWorkflowFromSession writes a procedure file too', async () => {
    const home = tempDir();
    const memory = clientIn(home);
    await memory.retain(
      ['navigate', 'fill_form', 'click_submit'].map((tool, index) => ({
        content: `${tool} step`,
        category: 'action',
        sessionId: 's1',
        occurredAt: T0 - 1000 + index,
        metadata: { tool, success: true },
      })),
    );
    const procedure = await memory.createWorkflowFromSession('s1', 'Submit the form');
    expect(existsSync(join(home, 'procedures', `${procedure.id}.md`))).toBe(true);
    expect((await memory.procedures.get(procedure.id))?.steps).toEqual(['navigate()', 'fill_form()', 'click_submit()']);
    expect(await memory.store.get('procedure', [procedure.id])).toHaveLength(1);
    await memory.close();
  });

  it('config: the seed keys in the config file and MEMOIR_PROCEDURES_* variables', () => {
    const home = tempDir();
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({
        procedures: { enabled: false, min_tool_calls: 4, similarity_threshold: 0.4, max_per_prompt: 1 },
      }),
    );
    const { config, sources } = loadConfig({ env: { MEMOIR_HOME: home, MEMOIR_PROCEDURES_UPDATE_THRESHOLD: '0.8' } });
    expect(config).toMatchObject({
      proceduresEnabled: false,
      proceduresMinToolCalls: 4,
      proceduresSimilarityThreshold: 0.4,
      proceduresUpdateThreshold: 0.8,
      proceduresMaxPerPrompt: 1,
      proceduresReflectionModel: null,
    });
    expect(sources.proceduresUpdateThreshold).toEqual({ kind: 'env', variable: 'MEMOIR_PROCEDURES_UPDATE_THRESHOLD' });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ procedures: { min_tool_call: 4 } }));
    expect(() => loadConfig({ env: { MEMOIR_HOME: home } })).toThrow(/procedures\.min_tool_call/);
    expect(() => loadConfig({ env: { MEMOIR_HOME: home, MEMOIR_PROCEDURES_ENABLED: 'maybe' } })).toThrow(
      /proceduresEnabled must be true or false/,
    );
  });
});
