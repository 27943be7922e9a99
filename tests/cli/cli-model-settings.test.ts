import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isReflectionRequest, type OpenAILoopback, startOpenAILoopback } from '../helpers/openai-loopback.js';
import { tempDir } from '../helpers/stores.js';
import { bin, childEnvironment, dataOf, eventually, textOf as textOfResult } from '../integrations/mcp-harness.js';

// Issue 40: the CLI and `memoir mcp` could not be given a language model (`reflection_model`
// had no effect). Both run as child processes here, pointed by --model / --base-url or
// MEMOIR_MODEL / MEMOIR_BASE_URL at a loopback server speaking OpenAI's chat-completions wire
// format; the key comes from MEMOIR_API_KEY and is never printed. Only the model's answers are
// scripted; the procedure file on disk shows the sections the model wrote.

const run = promisify(execFile);
const KEY = 'sk-loopback-secret-4242';

/** What the scripted model writes for any finished task. */
const MODEL_PROCEDURE = {
  title: 'Rotate a leaked API key',
  triggerExamples: ['rotate the leaked key', 'a secret was committed, revoke it'],
  steps: ['Find where the key is used', 'Issue a new key', 'Deploy it', 'Revoke the old key'],
  whatWorks: ['Deploy the new key before revoking the old one'],
  whatDoesNotWork: ['Revoking first: every running service fails its next call'],
  outputFormat: 'List the services touched and the time the old key died.',
};

const TASK = {
  request: 'rotate the API key that leaked in the public repo',
  toolCalls: [
    { name: 'grep_repos', input: { pattern: 'sk-live' }, output: '3 services' },
    { name: 'issue_key', output: 'new key issued' },
    { name: 'deploy_secret', input: { services: 3 }, output: 'deployed' },
    { name: 'revoke_key', output: 'revoked' },
  ],
  narration: ['Deploying before revoking keeps the services up.'],
  response: 'Rotated: 3 services use the new key, the old one is revoked.',
};

let server: OpenAILoopback;

beforeAll(async () => {
  server = await startOpenAILoopback((request) => (isReflectionRequest(request) ? MODEL_PROCEDURE : { memories: [] }));
});

afterAll(async () => {
  await server.close();
});

async function memoir(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: childEnvironment(env),
      encoding: 'utf8',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the model settings at the CLI and memoir mcp', () => {
  it('memoir --model --base-url procedures learn: the model writes the procedure, the key comes from MEMOIR_API_KEY', async () => {
    const home = tempDir('memoir-model-cli-');
    const trace = join(home, 'task.json');
    writeFileSync(trace, JSON.stringify(TASK));
    const before = server.requests.length;
    const learned = await memoir(
      ['--model', 'loopback-chat', '--base-url', server.baseURL, '--json', 'procedures', 'learn', trace],
      { MEMOIR_HOME: home, MEMOIR_API_KEY: KEY },
    );
    expect(learned.stderr).not.toContain(KEY);
    expect(learned.code).toBe(0);
    const result = JSON.parse(learned.stdout) as { scheduled: boolean; outcome: { status: string; file: string } };
    expect(result.scheduled).toBe(true);
    expect(result.outcome.status).toBe('created');
    const reflections = server.requests.slice(before).filter(isReflectionRequest);
    expect(reflections).toHaveLength(1);
    expect(reflections[0]!.body.model).toBe('loopback-chat');
    expect(reflections[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    const file = readFileSync(result.outcome.file, 'utf8');
    expect(file).toContain('title: Rotate a leaked API key');
    expect(file).toContain('- Deploy the new key before revoking the old one');
    expect(file).toContain("## What doesn't work\n- Revoking first");
    expect(file).not.toContain('## Needs a model');
  });

  it('proceduresReflectionModel (MEMOIR_PROCEDURES_REFLECTION_MODEL) names the model that reflects, on the same server', async () => {
    const home = tempDir('memoir-model-cli-');
    const trace = join(home, 'task.json');
    writeFileSync(trace, JSON.stringify(TASK));
    const before = server.requests.length;
    const learned = await memoir(['procedures', 'learn', trace], {
      MEMOIR_HOME: home,
      MEMOIR_MODEL: 'loopback-chat',
      MEMOIR_BASE_URL: server.baseURL,
      MEMOIR_PROCEDURES_REFLECTION_MODEL: 'loopback-reflector',
    });
    expect(learned.code).toBe(0);
    expect(learned.stdout).toMatch(/^Created procedure rotate-a-leaked-api-key: /);
    const reflections = server.requests.slice(before).filter(isReflectionRequest);
    expect(reflections.map((request) => request.body.model)).toEqual(['loopback-reflector']);
  });

  it('a model without a key for OpenAI’s own API is a ConfigError naming the setting, not a crash', async () => {
    const home = tempDir('memoir-model-cli-');
    const failed = await memoir(['--model', 'gpt-4o-mini', 'procedures', 'list'], { MEMOIR_HOME: home });
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain('the configured model "gpt-4o-mini" cannot be used');
    expect(failed.stderr).toMatch(/MEMOIR_API_KEY|apiKeyEnv/);
  });

  it('memoir mcp with MEMOIR_MODEL / MEMOIR_BASE_URL: memory_learn_procedure (with narration) is reflected on by the model', async () => {
    const home = tempDir('memoir-model-mcp-');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--tools', 'all'],
      env: childEnvironment({
        MEMOIR_HOME: home,
        MEMOIR_MODEL: 'loopback-chat',
        MEMOIR_BASE_URL: server.baseURL,
        MEMOIR_API_KEY: KEY,
      }),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client({ name: 'memoir-tests', version: '1' });
    await client.connect(transport);
    try {
      const before = server.requests.length;
      const call = async (name: string, args: Record<string, unknown> = {}) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult;
      const learned = await call('memory_learn_procedure', {
        request: TASK.request,
        tool_calls: TASK.toolCalls,
        narration: TASK.narration,
        response: TASK.response,
      });
      expect(dataOf<{ scheduled: boolean }>(learned).scheduled).toBe(true);
      const [procedure] = await eventually(
        async () =>
          dataOf<{ procedures: Array<{ id: string; whatWorks: string[]; whatDoesNotWork: string[] }> }>(
            await call('memory_list_procedures'),
          ).procedures,
        (list) => list.length === 1,
      );
      expect(procedure!.whatWorks).toEqual(MODEL_PROCEDURE.whatWorks);
      expect(procedure!.whatDoesNotWork).toEqual(MODEL_PROCEDURE.whatDoesNotWork);
      const got = await call('memory_get_procedure', { procedure_id: procedure!.id });
      expect(textOfResult(got)).toContain('Deploy the new key before revoking the old one');
      const reflection = server.requests.slice(before).find(isReflectionRequest);
      expect(reflection?.body.model).toBe('loopback-chat');
      // The narration reached the model's prompt.
      expect(JSON.stringify(reflection?.body.messages)).toContain('Deploying before revoking keeps the services up.');
      expect(stderr).not.toContain(KEY);
    } finally {
      await client.close();
    }
  });

  it('memoir mcp without a model: a failed call (error or isError) is never a step, and the file says what needs a model', async () => {
    const home = tempDir('memoir-model-mcp-');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--tools', 'all'],
      env: childEnvironment({ MEMOIR_HOME: home }),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'memoir-tests', version: '1' });
    await client.connect(transport);
    try {
      const call = async (name: string, args: Record<string, unknown> = {}) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult;
      const learned = await call('memory_learn_procedure', {
        request: 'publish the weekly release notes',
        tool_calls: [
          'git_log',
          { name: 'write_file', input: { path: 'NOTES.md' }, output: 'written' },
          { name: 'slack_post', input: { channel: '#general' }, error: 'channel_not_found' },
          { name: 'slack_post', input: { channel: '#releases' }, output: { isError: true, content: [] } },
          { name: 'email_send', input: { to: 'team' }, output: 'sent' },
        ],
      });
      expect(dataOf<{ scheduled: boolean }>(learned).scheduled).toBe(true);
      const [procedure] = await eventually(
        async () =>
          dataOf<{ procedures: Array<{ id: string; steps: string[] }> }>(await call('memory_list_procedures'))
            .procedures,
        (list) => list.length === 1,
      );
      expect(procedure!.steps).toEqual(['git_log', 'write_file({"path":"NOTES.md"})', 'email_send({"to":"team"})']);
      const file = readFileSync(join(home, 'procedures', `${procedure!.id}.md`), 'utf8');
      expect(file).toContain('## Needs a model');
      expect(file).toContain('Left out: 2 calls that failed (slack_post, slack_post).');
    } finally {
      await client.close();
    }
  });
});
