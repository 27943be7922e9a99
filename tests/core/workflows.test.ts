import { describe, expect, it } from 'vitest';
import { analyzePatterns } from '../../src/core/procedures/analyze-patterns.js';
import { detectWorkflows, storeWorkflows } from '../../src/core/procedures/detect-workflows.js';
import { suggest } from '../../src/core/procedures/suggest.js';
import { warn } from '../../src/core/procedures/warn.js';
import { workflowFromSession } from '../../src/core/procedures/workflow-from-session.js';
import { createLocalEmbedder, type MemoryInput, ValidationError } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { STORES, type StoreFactory, storeAndClient } from '../helpers/stores.js';

// The Automation Memory spec's "Workflow Pattern Learning", "Context-Aware Suggestions"
// and "Analyze automation success patterns" scenarios, on every store.

const NOW = Date.parse('2025-10-27T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Call {
  tool: string;
  success?: boolean;
  parameters?: Record<string, string | number | boolean>;
  sessionId: string;
  at: number;
  category?: string;
}

function action(call: Call): MemoryInput {
  const success = call.success ?? true;
  const params = call.parameters ? JSON.stringify(call.parameters) : '';
  return {
    kind: 'experience',
    category: call.category ?? 'action',
    content: `${call.tool}(${params}) ${success ? 'succeeded' : 'failed'}`,
    entities: [call.tool],
    sessionId: call.sessionId,
    occurredAt: call.at,
    metadata: {
      captured: true,
      type: 'action',
      tool: call.tool,
      success,
      ...(call.parameters ? { parameters: call.parameters } : {}),
    },
  };
}

const setup = (makeStore: StoreFactory) => storeAndClient(makeStore, { clock: createFixedClock(NOW) });

describe.each(STORES)('workflows (%s)', (_name, makeStore) => {
  it('Detect repeated action sequence', async () => {
    const { store, memory } = setup(makeStore);
    const inputs: MemoryInput[] = [];
    // navigate → fill_form → click_submit, three times in the past week, each in its own session,
    // with unrelated calls around it.
    for (const [index, daysAgo] of [6, 4, 1].entries()) {
      const sessionId = `session_${index}`;
      const start = NOW - daysAgo * DAY;
      const tools = [index === 1 ? 'screenshot' : 'scroll', 'navigate', 'fill_form', 'click_submit', `other_${index}`];
      tools.forEach((tool, step) => {
        inputs.push(action({ tool, sessionId, at: start + step * 60_000 }));
      });
    }
    // Outside the window: not counted.
    for (const [step, tool] of ['navigate', 'fill_form', 'click_submit'].entries()) {
      inputs.push(action({ tool, sessionId: 'old', at: NOW - 30 * DAY + step * 60_000 }));
    }
    await memory.retain(inputs);

    const detected = await detectWorkflows(store, { now: NOW });
    expect(detected).toHaveLength(1);
    const [workflow] = detected;
    expect(workflow?.steps).toEqual(['navigate', 'fill_form', 'click_submit']);
    expect(workflow?.repeats).toBe(3);
    expect(workflow?.sessions).toEqual(['session_0', 'session_1', 'session_2']);
    expect(workflow?.successRate).toBe(1);
    expect(workflow?.confidence).toBeCloseTo(0.75, 5);

    // Stored as a workflow memory with its confidence; storing again does not duplicate.
    const first = await storeWorkflows(detected, (items) => memory.retain(items));
    expect(first?.ids).toHaveLength(1);
    await storeWorkflows(await detectWorkflows(store, { now: NOW }), (items) => memory.retain(items));
    const workflows = await store.list('memory', { filter: { categories: ['workflow'] } });
    expect(workflows).toHaveLength(1);
    expect(workflows[0]?.content).toBe('Recurring workflow (seen 3 times): navigate → fill_form → click_submit');
    expect(workflows[0]?.kind).toBe('observation');
    expect(workflows[0]?.metadata).toMatchObject({
      steps: ['navigate', 'fill_form', 'click_submit'],
      repeats: 3,
      confidence: 0.75,
      sessions: ['session_0', 'session_1', 'session_2'],
    });

    // ...and suggested for automation when a similar context comes up.
    const embedder = createLocalEmbedder();
    const suggestions = await suggest(store, 'navigate fill_form click_submit', {
      embed: (texts) => embedder.embed(texts),
      k: 3,
    });
    expect(suggestions.map((item) => item.category)).toContain('workflow');
    expect(suggestions.find((item) => item.category === 'workflow')?.memoryId).toBe(workflows[0]?.id);
    await memory.close();
  });

  it('detects nothing below minRepeats and lowers confidence for failing steps', async () => {
    const { store, memory } = setup(makeStore);
    const inputs: MemoryInput[] = [];
    for (const [index, daysAgo] of [3, 2, 1, 0.5].entries()) {
      for (const [step, tool] of ['open_app', 'search', 'open_result'].entries()) {
        inputs.push(
          action({
            tool,
            sessionId: `s${index}`,
            at: NOW - daysAgo * DAY + step * 1000,
            success: !(tool === 'open_result' && index < 2),
          }),
        );
      }
    }
    await memory.retain(inputs);
    expect(await detectWorkflows(store, { now: NOW, minRepeats: 5 })).toEqual([]);
    const [workflow, ...rest] = await detectWorkflows(store, { now: NOW });
    expect(rest).toEqual([]);
    expect(workflow?.steps).toEqual(['open_app', 'search', 'open_result']);
    expect(workflow?.repeats).toBe(4);
    expect(workflow?.successRate).toBeCloseTo(10 / 12, 3);
    expect(workflow?.confidence).toBeCloseTo((10 / 12) * 0.8, 3);
    await expect(detectWorkflows(store, { now: NOW, minSteps: 4, maxSteps: 3 })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await memory.close();
  });

  it('Build workflow from successful actions', async () => {
    const { store, memory } = setup(makeStore);
    const tools = [
      ['open_browser', {}],
      ['navigate', { url: 'https://www.google.com' }],
      ['mouse_click', { x: 500, y: 300 }],
      ['type_text', { text: 'memoir' }],
      ['press_key', { key: 'Enter' }],
      ['wait', { ms: 500 }],
      ['screenshot', {}],
      ['mouse_click', { x: 200, y: 410 }],
      ['scroll', { dy: 300 }],
      ['close_tab', {}],
    ] as const;
    const { ids } = await memory.retain(
      tools.map(([tool, parameters], step) =>
        action({ tool, parameters: { ...parameters }, sessionId: 'session_google', at: NOW - HOUR + step * 1000 }),
      ),
    );
    await memory.retain(action({ tool: 'navigate', sessionId: 'session_other', at: NOW - HOUR }));

    const procedure = await workflowFromSession(store, 'session_google', 'google_search_workflow', { now: NOW });
    expect(procedure.source).toBe('session');
    expect(procedure.title).toBe('google_search_workflow');
    expect(procedure.triggerExamples).toEqual(['google_search_workflow']);
    expect(procedure.successCount).toBe(1);
    expect(procedure.steps).toHaveLength(10);
    expect(procedure.steps[0]).toBe('open_browser()');
    expect(procedure.steps[2]).toBe('mouse_click({"x":500,"y":300})');
    expect(procedure.metadata).toEqual({ sessionId: 'session_google', actionIds: ids });
    await store.put('procedure', [procedure]);
    expect((await store.get('procedure', [procedure.id]))[0]?.steps).toEqual(procedure.steps);

    await expect(workflowFromSession(store, 'no_such_session', 'x', { now: NOW })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await memory.close();
  });

  it('skips failed actions when building a workflow, and rejects a session with only failures', async () => {
    const { store, memory } = setup(makeStore);
    await memory.retain([
      action({ tool: 'navigate', sessionId: 'mixed', at: NOW - 3000 }),
      action({ tool: 'mouse_click', success: false, sessionId: 'mixed', at: NOW - 2000 }),
      action({ tool: 'keyboard_submit', sessionId: 'mixed', at: NOW - 1000 }),
      action({ tool: 'mouse_click', success: false, sessionId: 'broken', at: NOW - 1000 }),
    ]);
    const procedure = await workflowFromSession(store, 'mixed', 'Submit the form', { now: NOW });
    expect(procedure.steps).toEqual(['navigate()', 'keyboard_submit()']);
    expect(procedure.id).toMatch(/^submit-the-form-[0-9a-f]{8}$/);
    await expect(workflowFromSession(store, 'broken', 'x', { now: NOW })).rejects.toThrow(/no successful action/);
    await memory.close();
  });

  it('Suggest similar past actions', async () => {
    const { store, memory } = setup(makeStore);
    const {
      ids: [loginId, failedLoginId],
    } = await memory.retain([
      {
        ...action({
          tool: 'fill_login_form',
          parameters: { form: 'login', email: 'user' },
          sessionId: 'oct20',
          at: NOW - 7 * DAY,
        }),
        content: 'Filled the login form with email and password and signed in',
      },
      {
        ...action({ tool: 'fill_login_form', success: false, sessionId: 'oct21', at: NOW - 6 * DAY }),
        content: 'Filled the login form with email and password but sign in failed',
      },
      action({ tool: 'scroll_page', sessionId: 'oct20', at: NOW - 7 * DAY + 1000 }),
      { content: 'The login form uses email and password fields', category: 'note' },
    ]);
    const embedder = createLocalEmbedder();
    const suggestions = await suggest(store, 'login form with email and password fields', {
      embed: (texts) => embedder.embed(texts),
    });
    expect(suggestions[0]?.memoryId).toBe(loginId);
    expect(suggestions[0]?.category).toBe('action');
    expect(suggestions[0]?.score).toBeGreaterThan(0);
    const ids = suggestions.map((item) => item.memoryId);
    expect(ids).not.toContain(failedLoginId);
    expect(suggestions.every((item) => item.category === 'action' || item.category === 'workflow')).toBe(true);

    // Without native vector search, a scan gives the same answer.
    const scanning = new Proxy(store, {
      get(target, key) {
        if (key === 'capabilities') return {};
        if (key === 'searchVector') return undefined;
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const scanned = await suggest(scanning, 'login form with email and password fields', {
      embed: (texts) => embedder.embed(texts),
    });
    expect(scanned.map((item) => item.memoryId)).toEqual(ids);
    expect(scanned[0]?.score).toBeCloseTo(suggestions[0]?.score ?? Number.NaN, 4);
    await memory.close();
  });

  it('Warn about previously failed actions', async () => {
    const { store, memory } = setup(makeStore);
    const inputs: MemoryInput[] = [];
    for (let i = 0; i < 5; i++) {
      const at = NOW - (i + 1) * DAY;
      inputs.push(
        action({ tool: 'mouse_click', parameters: { x: 500, y: 300 }, success: false, sessionId: `s${i}`, at }),
      );
      if (i < 2) {
        inputs.push(
          action({ tool: 'keyboard_submit', parameters: { key: 'Enter' }, sessionId: `s${i}`, at: at + 1000 }),
        );
      }
      if (i === 2) {
        inputs.push(
          action({ tool: 'click_by_selector', parameters: { selector: '#submit' }, sessionId: `s${i}`, at: at + 1000 }),
        );
        // Before the failure: not an alternative.
        inputs.push(action({ tool: 'navigate', sessionId: `s${i}`, at: at - 1000 }));
      }
    }
    // The same tool elsewhere on the screen succeeded.
    inputs.push(action({ tool: 'mouse_click', parameters: { x: 10, y: 10 }, sessionId: 'elsewhere', at: NOW - HOUR }));
    await memory.retain(inputs);

    const warning = await warn(store, { tool: 'mouse_click', parameters: { y: 300, x: 500 } });
    expect(warning.attempts).toBe(5);
    expect(warning.failures).toBe(5);
    expect(warning.successRate).toBe(0);
    expect(warning.message).toBe('mouse_click failed 5 times, success rate 0%');
    expect(warning.alternatives).toHaveLength(3);
    expect(new Set(warning.alternatives.map((item) => item.tool))).toEqual(
      new Set(['keyboard_submit', 'click_by_selector']),
    );
    for (const alternative of warning.alternatives) {
      expect((await memory.get(alternative.memoryId)).content).toBe(alternative.content);
    }

    const anyParameters = await warn(store, { tool: 'mouse_click' });
    expect(anyParameters.attempts).toBe(6);
    expect(anyParameters.message).toBe('mouse_click failed 5 times, success rate 17%');
    const succeeded = await warn(store, { tool: 'keyboard_submit' });
    expect(succeeded.message).toBe('keyboard_submit succeeded 2 times, success rate 100%');
    const unknown = await warn(store, { tool: 'never_used' });
    expect(unknown).toMatchObject({ attempts: 0, message: null, alternatives: [] });
    await expect(warn(store, { tool: '' })).rejects.toBeInstanceOf(ValidationError);
    await memory.close();
  });

  it('Analyze automation success patterns', async () => {
    const { store, memory } = setup(makeStore);
    const inputs: MemoryInput[] = [];
    const add = (tool: string, ok: number, failed: number) => {
      for (let i = 0; i < ok + failed; i++) {
        inputs.push(action({ tool, success: i < ok, sessionId: `${tool}-${i}`, at: NOW - i * HOUR }));
      }
    };
    add('fill_form', 19, 1);
    add('navigate', 8, 0);
    add('click_dynamic', 4, 6);
    add('drag_drop', 1, 4);
    add('hover', 1, 1); // below minAttempts
    add('type_text', 1, 1);
    inputs.push({ ...action({ tool: 'screenshot', sessionId: 'x', at: NOW }), category: 'screen' });
    await memory.retain(inputs);

    const analysis = await analyzePatterns(store, { category: 'action', metric: 'success_rate' });
    expect(analysis.high.map((item) => item.tool)).toEqual(['navigate', 'fill_form']);
    expect(analysis.high[1]).toMatchObject({ attempts: 20, successes: 19, successRate: 0.95 });
    expect(analysis.high[1]?.insight).toBe('fill_form succeeds 95% of the time (19 of 20 attempts)');
    expect(analysis.low.map((item) => item.tool)).toEqual(['drag_drop']);
    expect(analysis.low[0]?.insight).toBe('drag_drop fails 80% of the time (4 of 5 attempts)');
    expect(analysis.tools.map((item) => item.tool)).toEqual(['click_dynamic', 'drag_drop', 'fill_form', 'navigate']);
    const loose = await analyzePatterns(store, { minAttempts: 1 });
    expect(loose.tools.map((item) => item.tool)).toContain('hover');
    expect(loose.tools.map((item) => item.tool)).not.toContain('screenshot');
    await expect(analyzePatterns(store, { metric: 'latency' as unknown as 'success_rate' })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await memory.close();
  });
});
