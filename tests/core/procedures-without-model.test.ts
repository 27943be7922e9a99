import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TaskTrace } from '../../src/core/procedures/procedure-inputs.js';
import { ValidationError } from '../../src/index.js';
import { clientIn, procedureModel } from '../helpers/procedure-tasks.js';
import { tempDir } from '../helpers/stores.js';

// Issue 40: without a model, a procedure is written from the tool calls of the task, and a
// call that FAILED became one of its steps. A failed call (an error, a thrown one, or a tool
// result marked isError) is never a step; the file says which sections need a model. On the
// default SQLite store in a temporary home, with the local embedder.

/** A task of four calls whose third failed, and a fifth whose result says isError. */
const TASK: TaskTrace = {
  request: 'restart the payments service after a failed deploy',
  toolCalls: [
    { name: 'deploy_status', input: { service: 'payments' }, output: 'last deploy failed at 09:12' },
    { name: 'read_logs', input: { service: 'payments', lines: 200 }, output: 'OOM in worker 3' },
    { name: 'restart_cluster', input: { cluster: 'eu-1' }, error: 'permission denied' },
    { name: 'restart_service', input: { service: 'payments' }, output: 'restarted' },
    { name: 'notify_channel', output: { isError: true, content: [{ type: 'text', text: 'channel not found' }] } },
  ],
  response: 'Restarted payments; the OOM in worker 3 caused the failed deploy.',
};

describe('a procedure learned without a model', () => {
  it('lists only the calls that succeeded as steps, and says its other sections need a model', async () => {
    const home = tempDir();
    const memory = clientIn(home);
    expect(await memory.procedures.learn(TASK)).toEqual({ scheduled: true, reason: null });
    await memory.flush();
    const [procedure] = await memory.procedures.list();
    expect(procedure?.steps).toEqual([
      'deploy_status({"service":"payments"})',
      'read_logs({"lines":200,"service":"payments"})',
      'restart_service({"service":"payments"})',
    ]);
    expect(procedure?.steps.join('\n')).not.toMatch(/restart_cluster|notify_channel/);
    expect(procedure?.whatWorks).toEqual([]);
    expect(procedure?.metadata).toMatchObject({ writtenWithoutModel: true });
    const file = readFileSync(`${memory.procedures.directory()}/${procedure?.id}.md`, 'utf8');
    expect(file).toContain('## Needs a model');
    expect(file).toContain('Left out: 2 calls that failed (restart_cluster, notify_channel).');
    expect(file).toMatch(/what works, what doesn't work and the output format need a language model/);
    await memory.close();
  });

  it('a later reflection with a model fills the sections in and drops the note', async () => {
    const home = tempDir();
    const offline = clientIn(home);
    await offline.procedures.learn(TASK);
    await offline.flush();
    const [written] = await offline.procedures.list();
    expect(readFileSync(`${offline.procedures.directory()}/${written?.id}.md`, 'utf8')).toContain('## Needs a model');
    await offline.close();
    const withModel = clientIn(home, {
      languageModel: procedureModel(() => ({
        title: 'Restart a service after a failed deploy',
        triggerExamples: ['restart the payments service after a failed deploy'],
        steps: ['Check the deploy status', 'Read the service logs', 'Restart the service'],
        whatWorks: ['Read the logs before restarting'],
        whatDoesNotWork: ['Restarting the whole cluster needs rights the agent lacks'],
        outputFormat: null,
      })),
    });
    await withModel.procedures.learn(TASK);
    await withModel.flush();
    const [procedure] = await withModel.procedures.list();
    expect(procedure?.whatWorks.length).toBeGreaterThan(0);
    expect(procedure?.metadata.writtenWithoutModel).toBeUndefined();
    const file = readFileSync(`${withModel.procedures.directory()}/${procedure?.id}.md`, 'utf8');
    expect(file).not.toContain('## Needs a model');
    await withModel.close();
  });

  it('a task whose calls all failed writes no procedure', async () => {
    const home = tempDir();
    const memory = clientIn(home);
    const failed = { name: 'ping', error: 'timeout' };
    await memory.procedures.learn({ request: 'ping the three hosts', toolCalls: [failed, failed, failed] });
    await memory.flush();
    expect(await memory.procedures.list()).toEqual([]);
    await memory.close();
  });
});

describe('a per-call scope on learn, findRelevant and get', () => {
  it('learns into the caller’s scope, and another caller neither finds nor gets it', async () => {
    const home = tempDir();
    const memory = clientIn(home);
    await memory.procedures.learn(TASK, { scope: { userId: 'ana' } });
    await memory.flush();
    const request = 'restart the payments service after a failed deploy';
    const found = await memory.procedures.findRelevant(request, { scope: { userId: 'ana' } });
    expect(found).toHaveLength(1);
    expect(found[0]?.procedure.scope).toEqual({ userId: 'ana' });
    expect(await memory.procedures.findRelevant(request, { scope: { userId: 'bo' } })).toEqual([]);
    const id = found[0]!.procedure.id;
    expect((await memory.procedures.get(id, { scope: { userId: 'ana' } }))?.id).toBe(id);
    expect(await memory.procedures.get(id, { scope: { userId: 'bo' } })).toBeNull();
    await memory.close();
  });

  it('a scoped client refuses to learn into another tenant’s scope, naming the field', async () => {
    const home = tempDir();
    const memory = clientIn(home, { scope: { userId: 'ana' } });
    const refused = await memory.procedures.learn(TASK, { scope: { userId: 'bo' } }).catch((error: unknown) => error);
    expect(ValidationError.isInstance(refused)).toBe(true);
    expect((refused as ValidationError).issues[0]?.field).toBe('options.scope.userId');
    expect(await memory.procedures.findRelevant(TASK.request, { scope: { userId: 'bo' } })).toEqual([]);
    await memory.close();
  });
});
