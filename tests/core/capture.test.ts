import { describe, expect, it } from 'vitest';
import {
  type AuditLine,
  type CaptureOptions,
  createCapture,
  redactText,
  redactValue,
  withCapture,
} from '../../src/core/capture/index.js';
import type { MemoryInput } from '../../src/core/spec/memory.js';
import type { LogLevel } from '../../src/core/spec/runtime.js';
import { ConfigError, createInMemoryStore, createMemory, ValidationError } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { thrownBy } from '../helpers/thrown.js';

const T0 = Date.parse('2025-12-01T12:00:00Z');

function fakeClient() {
  const inputs: MemoryInput[] = [];
  return { inputs, retainAsync: (input: unknown) => void inputs.push(input as MemoryInput) };
}

function recordingLogger() {
  const lines: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
  return {
    lines,
    log: (level: LogLevel, message: string, fields?: Record<string, unknown>) =>
      void lines.push({ level, message, fields }),
  };
}

function setup(options: CaptureOptions = {}) {
  const client = fakeClient();
  const clock = createFixedClock(T0);
  const logger = recordingLogger();
  const capture = createCapture(client, { enabled: true, clock, logger, ...options });
  return { client, clock, logger, capture };
}

const quietMemory = () => createMemory({ store: createInMemoryStore(), logger: { log() {} } });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Automatic Context Capture', () => {
  it('Auto-capture AI screen analysis: stored asynchronously with prompt, result, screen text and timestamp', async () => {
    const memory = quietMemory();
    const clock = createFixedClock(T0);
    const capture = createCapture(memory, { enabled: true, clock, sessionId: 'ses-1', logger: { log() {} } });
    const order: string[] = [];
    memory.on('memory:retained', () => order.push('stored'));
    const analyzeScreenAi = withCapture(
      async (params: { prompt: string; provider: string }) => {
        await tick();
        return { provider: params.provider, elements: ['Save button', 'Search field'], text: 'File Edit View' };
      },
      { capture, tool: 'analyze_screen_ai', screenText: (result) => result.text },
    );

    const result = await analyzeScreenAi({ prompt: 'identify UI elements', provider: 'claude' });
    order.push('returned');
    expect(result.elements).toEqual(['Save button', 'Search field']);
    await memory.flush();
    expect(order).toEqual(['returned', 'stored']);

    const [stored] = await memory.list();
    expect(stored).toBeDefined();
    expect(stored!.kind).toBe('experience');
    expect(stored!.category).toBe('screen');
    expect(stored!.sessionId).toBe('ses-1');
    expect(stored!.entities).toEqual(['analyze_screen_ai']);
    expect(stored!.occurredAt).toBe(new Date(T0).toISOString());
    expect(stored!.content).toContain('Prompt: identify UI elements');
    expect(stored!.content).toContain('Save button');
    expect(stored!.content).toContain('Screen text: File Edit View');
    expect(stored!.content).toContain('"provider":"claude"');
    expect(stored!.metadata).toMatchObject({
      captured: true,
      type: 'screen',
      tool: 'analyze_screen_ai',
      success: true,
    });
    expect(typeof stored!.metadata.durationMs).toBe('number');
    await memory.close();
  });

  it('Auto-capture successful automation action: tagged with action type and success', () => {
    const { client, capture } = setup({ sessionId: 's1' });
    const result = capture.capture({ tool: 'mouse_click', parameters: { x: 500, y: 300 }, result: { clicked: true } });
    expect(result).toEqual({ stored: true });
    expect(client.inputs).toHaveLength(1);
    const input = client.inputs[0]!;
    expect(input.content).toBe('mouse_click({"x":500,"y":300}) succeeded → {"clicked":true}');
    expect(input).toMatchObject({
      kind: 'experience',
      category: 'action',
      entities: ['mouse_click'],
      sessionId: 's1',
      occurredAt: new Date(T0).toISOString(),
      metadata: { captured: true, type: 'action', tool: 'mouse_click', success: true, parameters: { x: 500, y: 300 } },
    });
  });

  it('Skip repetitive actions based on interval filter: same click 2 s later skipped with the reason logged', () => {
    const { client, clock, logger, capture } = setup({ minIntervalSeconds: 5 });
    expect(capture.capture({ tool: 'mouse_click', parameters: { x: 500, y: 300 } })).toEqual({ stored: true });
    clock.advance(2000);
    // Same parameters in another key order are the same call.
    expect(capture.capture({ tool: 'mouse_click', parameters: { y: 300, x: 500 } })).toEqual({
      stored: false,
      reason: 'interval',
    });
    const skip = logger.lines.find((line) => line.fields?.reason === 'interval');
    expect(skip?.level).toBe('debug');
    expect(skip?.message).toContain('mouse_click');
    expect(skip?.fields).toMatchObject({ tool: 'mouse_click', elapsedMs: 2000, minIntervalSeconds: 5 });

    expect(capture.capture({ tool: 'mouse_click', parameters: { x: 10, y: 20 } })).toEqual({ stored: true });
    expect(capture.capture({ tool: 'mouse_double_click', parameters: { x: 500, y: 300 } })).toEqual({ stored: true });
    clock.advance(4000); // 6 s after the first stored click
    expect(capture.capture({ tool: 'mouse_click', parameters: { x: 500, y: 300 } })).toEqual({ stored: true });
    expect(client.inputs).toHaveLength(4);
  });

  it('the interval filter is per session and off with minIntervalSeconds 0', () => {
    const { client, capture } = setup();
    capture.capture({ tool: 'mouse_click', parameters: { x: 1 }, sessionId: 'a' });
    expect(capture.capture({ tool: 'mouse_click', parameters: { x: 1 }, sessionId: 'b' }).stored).toBe(true);
    const zero = setup({ minIntervalSeconds: 0 });
    zero.capture.capture({ tool: 'mouse_click', parameters: { x: 1 } });
    expect(zero.capture.capture({ tool: 'mouse_click', parameters: { x: 1 } }).stored).toBe(true);
    expect(client.inputs).toHaveLength(2);
  });

  it('Respect privacy exclusions: banking_* stores nothing and writes an audit line', () => {
    const audits: AuditLine[] = [];
    const { client, logger, capture } = setup({
      exclude: ['banking_*', 'tmp-??'],
      sessionId: 'banking_session_123',
      onAudit: (line) => audits.push(line),
    });
    expect(capture.capture({ tool: 'mouse_click', parameters: { x: 500, y: 300 } })).toEqual({
      stored: false,
      reason: 'excluded',
    });
    expect(capture.capture({ tool: 'keyboard_type', sessionId: 'tmp-42' }).reason).toBe('excluded');
    expect(capture.capture({ tool: 'keyboard_type', sessionId: 'tmp-420' }).stored).toBe(true);
    expect(client.inputs).toHaveLength(1);
    expect(audits[0]).toEqual({
      at: new Date(T0).toISOString(),
      sessionId: 'banking_session_123',
      tool: 'mouse_click',
      pattern: 'banking_*',
      action: 'excluded',
    });
    expect(audits).toHaveLength(2);
    expect(logger.lines.filter((line) => line.level === 'info' && line.fields?.action === 'excluded')).toHaveLength(2);
  });

  it('enabled: false makes every call a silent no-op', () => {
    const client = fakeClient();
    const logger = recordingLogger();
    const capture = createCapture(client, { logger }); // default: disabled
    expect(capture.enabled).toBe(false);
    expect(capture.capture({ tool: 'mouse_click' })).toEqual({ stored: false, reason: 'disabled' });
    // Even a malformed event raises nothing while disabled.
    expect(capture.capture({ tool: '' })).toEqual({ stored: false, reason: 'disabled' });
    const click = withCapture((params: { x: number }) => ({ clicked: params.x }), { capture, tool: 'mouse_click' });
    expect(click({ x: 3 })).toEqual({ clicked: 3 });
    expect(client.inputs).toHaveLength(0);
    expect(logger.lines).toHaveLength(0);
  });

  it('a malformed event is a ValidationError naming the field; tryCapture logs it instead', () => {
    const { capture, logger } = setup();
    expect(() => capture.capture({ tool: '' })).toThrow(ValidationError);
    // Fails when nothing is thrown: the assertions are not inside a catch that may never run.
    const error = thrownBy(() => capture.capture({ tool: 'x', durationMs: -1 }));
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).field).toBe('event.durationMs');
    expect(capture.tryCapture({ tool: 'x', durationMs: -1 })).toEqual({ stored: false, reason: 'invalid' });
    expect(logger.lines.at(-1)?.level).toBe('warn');
  });

  it('bad options are a ConfigError naming the field', () => {
    const client = fakeClient();
    const field = (options: unknown) => {
      try {
        createCapture(client, options as CaptureOptions);
      } catch (error) {
        expect(ConfigError.isInstance(error)).toBe(true);
        return (error as ConfigError).field;
      }
      return 'no error';
    };
    expect(field({ minIntervalSeconds: -1 })).toBe('minIntervalSeconds');
    expect(field({ exclude: [''] })).toBe('exclude[0]');
    expect(field({ redact: [{ name: 'x', pattern: '(' }] })).toBe('redact[0].pattern');
    expect(field({ redact: [{ name: 'x', pattern: 'a*' }] })).toBe('redact[0].pattern');
    expect(field({ enabled: 'yes' })).toBe('enabled');
    expect(field({ nope: 1 })).toBe('');
    expect(() => createCapture({} as never)).toThrow(ConfigError);
  });

  it('a failing retainAsync never reaches the caller', () => {
    const logger = recordingLogger();
    const capture = createCapture(
      {
        retainAsync() {
          throw new Error('closed');
        },
      },
      { enabled: true, logger },
    );
    expect(capture.capture({ tool: 'mouse_click' })).toEqual({ stored: false, reason: 'error' });
    expect(logger.lines.at(-1)).toMatchObject({ level: 'warn' });
  });

  it('truncates huge results and notes the truncation', () => {
    const { client, capture } = setup();
    capture.capture({ tool: 'read_page', result: 'x'.repeat(10_000) });
    const content = client.inputs[0]!.content;
    expect(content.length).toBeLessThan(4200);
    expect(content).toContain('[truncated, 6000 more characters]');
  });
});

describe('redaction', () => {
  it('redacts API keys in parameters and text', () => {
    const { client, capture } = setup();
    capture.capture({
      tool: 'http_request',
      parameters: {
        url: 'https://api.example.com',
        headers: { Authorization: 'Bearer abc.def.ghi123456', 'X-Trace': 'ok' },
        apiKey: 'whatever-1',
        password: 'hunter2',
        body: 'use sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv and ghp_0123456789abcdefghijABCDEFGHIJ and AKIAIOSFODNN7EXAMPLE',
        note: 'slack xoxb-123456789012-abcdefghij, openai sk-proj-abcdefghijklmnop1234',
      },
    });
    const input = client.inputs[0]!;
    const params = (input.metadata as { parameters: Record<string, unknown> }).parameters;
    expect(params.apiKey).toBe('[REDACTED:secret-field]');
    expect(params.password).toBe('[REDACTED:secret-field]');
    expect(params.headers).toEqual({ Authorization: '[REDACTED:secret-field]', 'X-Trace': 'ok' });
    expect(params.url).toBe('https://api.example.com');
    expect(params.body).toBe('use [REDACTED:api-key] and [REDACTED:api-key] and [REDACTED:api-key]');
    expect(params.note).toBe('slack [REDACTED:api-key], openai [REDACTED:api-key]');
    for (const secret of ['hunter2', 'sk-ant', 'ghp_', 'AKIA', 'xoxb', 'abc.def', 'whatever-1']) {
      expect(input.content).not.toContain(secret);
    }
  });

  it('redacts bearer tokens, keyword secrets and passwords in text', () => {
    expect(redactText('curl -H "Authorization: Bearer eyJhbGciOi.payload123.sig456789"')).toBe(
      'curl -H "Authorization: Bearer [REDACTED:bearer-token]"',
    );
    expect(redactText('token=0123456789abcdef0123456789abcdef')).toBe('token=[REDACTED:secret]');
    expect(redactText('{"client_secret":"c2VjcmV0LXZhbHVlLWhlcmUtMTIzNDU2"}')).toBe(
      '{"client_secret":"[REDACTED:secret]"}',
    );
    expect(redactText('login with password: hunter2 now')).toBe('login with password: [REDACTED:password] now');
    expect(redactText('the key to success is patience')).toBe('the key to success is patience');
  });

  it('redacts e-mail addresses', () => {
    expect(redactText('mail peter.parker+news@example.co.uk today')).toBe('mail [REDACTED:email] today');
  });

  it('redacts Luhn-valid card numbers but not order ids that fail Luhn', () => {
    expect(redactText('card 4111 1111 1111 1111 exp 12/27')).toBe('card [REDACTED:card-number] exp 12/27');
    expect(redactText('card 5500-0000-0000-0004')).toBe('card [REDACTED:card-number]');
    expect(redactText('amex 378282246310005')).toBe('amex [REDACTED:card-number]');
    expect(redactText('order 4111111111111112 shipped')).toBe('order 4111111111111112 shipped');
    expect(redactText('at 1764590400000 ms')).toBe('at 1764590400000 ms');
    expect(redactValue({ card: 4111111111111111, order: 4111111111111112 })).toEqual({
      card: '[REDACTED:card-number]',
      order: 4111111111111112,
    });
  });

  it('redactValue copies nested values without changing the input', () => {
    const input = { user: { email: 'a@b.io', tags: ['x', { cookie: 'abc' }] }, when: new Date(T0) };
    const out = redactValue(input);
    expect(out).toEqual({
      user: { email: '[REDACTED:email]', tags: ['x', { cookie: '[REDACTED:secret-field]' }] },
      when: new Date(T0).toISOString(),
    });
    expect(input.user.email).toBe('a@b.io');
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(redactValue(cyclic)).toEqual({ a: 1, self: '[Circular]' });
  });

  it('applies custom rules after the built-ins, and can run without the built-ins', () => {
    const { client, capture } = setup({
      redact: [
        { name: 'employee-id', pattern: /EMP-\d{6}/ },
        { name: 'extension', pattern: 'ext\\. \\d{4}', replacement: '<extension>' },
      ],
    });
    capture.capture({ tool: 'type_text', parameters: { text: 'EMP-123456 at a@b.io, call ext. 1234' } });
    expect(client.inputs[0]!.content).toContain('[REDACTED:employee-id] at [REDACTED:email], call <extension>');

    const bare = setup({ builtInRedaction: false, redact: [{ name: 'code', pattern: 'XYZ' }] });
    bare.capture.capture({ tool: 'type_text', parameters: { password: 'pw', text: 'XYZ a@b.io' } });
    expect((bare.client.inputs[0]!.metadata as { parameters: unknown }).parameters).toEqual({
      password: 'pw',
      text: '[REDACTED:code] a@b.io',
    });
  });
});

describe('withCapture', () => {
  it('a throwing handler: the error is rethrown unchanged and the failure captured with success false', async () => {
    const { client, capture } = setup();
    const boom = new TypeError('element not found');
    const clickSync = withCapture(
      (_params: { selector: string }) => {
        throw boom;
      },
      { capture, tool: 'click_element' },
    );
    expect(() => clickSync({ selector: '#save' })).toThrow(boom);
    const clickAsync = withCapture(
      async (_params: { selector: string }): Promise<void> => {
        throw boom;
      },
      { capture, tool: 'click_element_async' },
    );
    await expect(clickAsync({ selector: '#save' })).rejects.toBe(boom);
    expect(client.inputs).toHaveLength(2);
    for (const input of client.inputs) {
      expect(input.metadata).toMatchObject({ success: false, parameters: { selector: '#save' } });
      expect(input.content).toContain('failed');
      expect(input.content).toContain('TypeError: element not found');
    }
  });

  it('keeps the handler return value (the same promise object) and adds no awaits', async () => {
    const { client, capture } = setup();
    const promise = Promise.resolve(42);
    const wrapped = withCapture(() => promise, { capture, tool: 'answer' });
    expect(wrapped(undefined)).toBe(promise);
    expect(client.inputs).toHaveLength(0); // captured when it settles
    expect(await promise).toBe(42);
    expect(client.inputs).toHaveLength(1);
    const sync = withCapture((n: number) => n * 2, { capture, tool: 'double' });
    expect(sync(21)).toBe(42);
    expect(client.inputs[1]!.metadata).toMatchObject({ parameters: { input: 21 }, success: true });
  });

  it('rejects bad options with a ConfigError', () => {
    const { capture } = setup();
    expect(() => withCapture(() => 1, { capture, tool: '' })).toThrow(ConfigError);
    expect(() => withCapture(() => 1, { capture: {} as never, tool: 'x' })).toThrow(ConfigError);
  });
});

describe('Integration with Existing MCP Servers', () => {
  it('Vision MCP auto-captures screen analyses: provider, prompt, result, screen text, async', async () => {
    const memory = quietMemory();
    const capture = createCapture(memory, { enabled: true, logger: { log() {} } });
    const order: string[] = [];
    memory.on('memory:retained', () => order.push('stored'));
    const analyze = withCapture(
      async (params: { prompt: string; provider: string }) => ({
        provider: params.provider,
        analysis: 'A login form with two fields',
        ocr: 'Username Password Sign in',
      }),
      { capture, tool: 'analyze_screen_ai', screenText: (result) => result.ocr },
    );
    const result = await analyze({ prompt: 'describe the screen', provider: 'openai' });
    order.push('returned');
    expect(result.analysis).toBe('A login form with two fields');
    await memory.flush();
    const [stored] = await memory.list();
    expect(order).toEqual(['returned', 'stored']);
    expect(stored!.content).toContain('"provider":"openai"');
    expect(stored!.content).toContain('Prompt: describe the screen');
    expect(stored!.content).toContain('A login form with two fields');
    expect(stored!.content).toContain('Screen text: Username Password Sign in');
    await memory.close();
  });

  it('Hands MCP captures automation actions: type, parameters, success/failure, timestamp', async () => {
    const memory = quietMemory();
    const clock = createFixedClock(T0);
    const capture = createCapture(memory, { enabled: true, clock, logger: { log() {} } });
    const mouseClick = withCapture((params: { x: number; y: number }) => ({ clicked: params.x > 0 }), {
      capture,
      tool: 'mouse_click',
    });
    const keyboardType = withCapture(
      async (params: { text: string }) => {
        if (params.text === '') throw new Error('nothing to type');
        return { typed: params.text.length };
      },
      { capture, tool: 'keyboard_type' },
    );
    expect(mouseClick({ x: 500, y: 300 })).toEqual({ clicked: true });
    await expect(keyboardType({ text: '' })).rejects.toThrow('nothing to type');
    await memory.flush();
    const stored = await memory.list({ orderBy: 'occurredAt' });
    const byTool = Object.fromEntries(stored.map((item) => [item.metadata.tool, item]));
    expect(byTool.mouse_click).toMatchObject({
      category: 'action',
      occurredAt: new Date(T0).toISOString(),
      metadata: { type: 'action', success: true, parameters: { x: 500, y: 300 } },
    });
    expect(byTool.keyboard_type).toMatchObject({ metadata: { success: false, parameters: { text: '' } } });
    await memory.close();
  });

  it('Browser MCP captures navigation and workflows: name, steps, duration, ARIA tree context', async () => {
    const memory = quietMemory();
    const capture = createCapture(memory, { enabled: true, logger: { log() {} } });
    const runWorkflow = withCapture(
      async (params: { name: string; steps: string[] }) => ({
        completed: params.steps.length,
        aria: 'main > form[name=checkout] > button "Pay"',
      }),
      { capture, tool: 'browser_workflow', type: 'workflow', screenText: (result) => result.aria },
    );
    await runWorkflow({ name: 'checkout', steps: ['open cart', 'fill address', 'pay'] });
    await memory.flush();
    const [stored] = await memory.list();
    expect(stored!.category).toBe('workflow');
    expect(stored!.content).toContain('"name":"checkout"');
    expect(stored!.content).toContain('fill address');
    expect(stored!.content).toContain('Screen text: main > form[name=checkout] > button "Pay"');
    expect(typeof stored!.metadata.durationMs).toBe('number');
    await memory.close();
  });

  it('Memory disabled falls back gracefully: tools keep working, nothing stored, no errors', async () => {
    const memory = quietMemory();
    const capture = createCapture(memory, { enabled: false });
    const tool = withCapture(async (params: { x: number }) => params.x + 1, { capture, tool: 'inc' });
    expect(await tool({ x: 1 })).toBe(2);
    await memory.flush();
    expect(await memory.list()).toHaveLength(0);
    await memory.close();
  });
});
