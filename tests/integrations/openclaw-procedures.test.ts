import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isReflectionRequest, type OpenAILoopback, startOpenAILoopback } from '../helpers/openai-loopback.js';
import { eventually } from './mcp-harness.js';
import { type FakeHost, fakeHost, stateDirectory } from './openclaw-fake-host.js';

// Procedures at the OpenClaw door (seed 003, issue 40): the plugin on its fake host, a real
// SQLite file, procedure files on disk. After a run with three or more tool calls (agent_end)
// a procedure is learned in the sender's scope; before the next similar prompt it is put
// before the prompt as "Relevant Procedures"; the agent can find, read and hand over
// procedures with tools. Offline the calls that succeeded are the steps; with `llm` pointed at
// a loopback server speaking OpenAI's wire format, the model writes the procedure.

const alice = { agentId: 'main', sessionKey: 'agent:main:alice', sessionId: 's-alice', senderId: 'alice' };
const bob = { agentId: 'main', sessionKey: 'agent:main:bob', sessionId: 's-bob', senderId: 'bob' };
const aliceTool = { agentId: 'main', requesterSenderId: 'alice' };
const bobTool = { agentId: 'main', requesterSenderId: 'bob' };

let clock = Date.now();
const at = () => ++clock;

/** A run as pi writes its transcript: the request, tool calls and their results, narration, the answer. */
function deployRun(calls: Array<{ name: string; args: object; result: string; isError?: boolean }>): unknown[] {
  const messages: unknown[] = [{ role: 'user', content: 'why did the deploys fail this week?', timestamp: at() }];
  calls.forEach((call, index) => {
    messages.push({
      role: 'assistant',
      content: [
        ...(index === 0 ? [{ type: 'text', text: 'The deploy bot posts to #releases first, so I start there.' }] : []),
        { type: 'toolCall', id: `call-${index}`, name: call.name, arguments: call.args },
      ],
      timestamp: at(),
    });
    messages.push({
      role: 'toolResult',
      toolCallId: `call-${index}`,
      toolName: call.name,
      content: [{ type: 'text', text: call.result }],
      isError: call.isError === true,
      timestamp: at(),
    });
  });
  messages.push({
    role: 'assistant',
    content: [{ type: 'text', text: '3 deployments failed in the last 7 days, 2 from the same migration.' }],
    timestamp: at(),
  });
  return messages;
}

const FOUR_CALLS = [
  { name: 'slack_search', args: { channel: '#releases', days: 7 }, result: '3 failure messages' },
  { name: 'jira_search', args: { project: 'SCOUT', status: 'Failed' }, result: '2 tickets' },
  { name: 'github_prs', args: { repo: 'scout-api' }, result: 'rate limited', isError: true },
  { name: 'summarize', args: { groupBy: 'root cause' }, result: 'grouped' },
];

function procedureFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.md')) : [];
}

describe('OpenClaw procedures', () => {
  const state = stateDirectory();
  let host: FakeHost | undefined;
  let server: OpenAILoopback;
  beforeAll(async () => {
    server = await startOpenAILoopback((request) =>
      isReflectionRequest(request)
        ? {
            title: 'Investigate deployment failures',
            triggerExamples: ['why did the deploys fail', 'investigate deployment failures'],
            steps: ['Check #releases in Slack', 'Search Jira for failed deploy tickets', 'Group by root cause'],
            whatWorks: ['Check Slack first: the deploy bot posts there immediately'],
            whatDoesNotWork: ['The GitHub API rate-limits a search of every PR'],
            outputFormat: 'Lead with how many deployments failed.',
          }
        : { memories: [] },
    );
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(async () => {
    await host?.stop();
    host = undefined;
  });

  it('learns from a run of 3+ tool calls in the sender’s scope, leaves the failed call out, and injects it before the next similar prompt', async () => {
    const dbPath = join(state.dir, 'a', 'memoir.sqlite');
    host = fakeHost({ dbPath }, { stateDir: state.dir });
    const directory = join(state.dir, 'a', 'memoir-procedures');
    host.end(deployRun(FOUR_CALLS), alice);
    await host.handle!.flush();
    const files = await eventually(
      async () => {
        await host!.handle!.memory().flush();
        return procedureFiles(directory);
      },
      (names) => names.length === 1,
    );
    const file = readFileSync(join(directory, files[0]!), 'utf8');
    expect(file).toContain('1. slack_search');
    expect(file).toContain('jira_search');
    expect(file).toContain('summarize');
    const steps = file.slice(file.indexOf('## Steps'), file.indexOf('## What works'));
    expect(steps).not.toContain('github_prs');
    expect(file).toContain('Left out: one call that failed (github_prs).');
    expect(file).toContain('userId:');
    expect(file).toContain('## Needs a model');

    const injected = await host.prompt('why did the deploys fail again?', alice);
    expect(injected?.prependContext).toContain('## Relevant Procedures');
    expect(injected?.prependContext).toContain('title="why did the deploys fail this week?"');
    expect(host.logs.some((line) => line.includes('injecting 1 procedure(s)'))).toBe(true);
    // The run that was given it ends well: a use is counted (success_count 1 → 2, last_used set).
    host.end(
      [
        { role: 'user', content: 'why did the deploys fail again?', timestamp: at() },
        { role: 'assistant', content: [{ type: 'text', text: 'The same migration.' }], timestamp: at() },
      ],
      alice,
    );
    await eventually(
      async () => readFileSync(join(directory, files[0]!), 'utf8'),
      (text) => text.includes('success_count: 2'),
    );
    // Bob's prompt gets none of Alice's procedures.
    const forBob = await host.prompt('why did the deploys fail again?', bob);
    expect(forBob?.prependContext ?? '').not.toContain('Relevant Procedures');
  }, 60_000);

  it('a run of fewer than 3 tool calls, or one that failed, teaches nothing', async () => {
    const dbPath = join(state.dir, 'b', 'memoir.sqlite');
    host = fakeHost({ dbPath }, { stateDir: state.dir });
    host.end(deployRun(FOUR_CALLS.slice(0, 2)), alice);
    host.end(deployRun(FOUR_CALLS), alice, false);
    await host.handle!.flush();
    await host.handle!.memory().flush();
    const directory = join(state.dir, 'b', 'memoir-procedures');
    expect(procedureFiles(directory)).toEqual([]);
    // The same run with a third call that worked is learned from.
    host.end(deployRun([...FOUR_CALLS.slice(0, 2), FOUR_CALLS[3]!]), alice);
    await eventually(
      async () => {
        await host!.handle!.memory().flush();
        return procedureFiles(directory);
      },
      (names) => names.length === 1,
    );
  }, 60_000);

  it('the tools find, get and learn procedures inside the caller’s scope', async () => {
    const dbPath = join(state.dir, 'c', 'memoir.sqlite');
    host = fakeHost({ dbPath, autoCapture: false }, { stateDir: state.dir });
    for (const name of ['memory_find_procedures', 'memory_get_procedure', 'memory_learn_procedure']) {
      expect(host.tools.has(name)).toBe(true);
    }
    const learned = await host.tool(
      'memory_learn_procedure',
      {
        request: 'rotate the leaked API key',
        toolCalls: ['grep_repos', { name: 'issue_key', output: 'ok' }, { name: 'revoke_key', output: 'ok' }],
        narration: 'Issue the new key before revoking the old one.',
      },
      aliceTool,
    );
    expect(learned).toMatch(/Learning a procedure/);
    await host.handle!.memory().flush();
    const found = await host.tool('memory_find_procedures', { request: 'rotate the leaked API key' }, aliceTool);
    expect(found).toContain('Relevant Procedures');
    const id = /id="([^"]+)"/.exec(found)![1]!;
    expect(await host.tool('memory_get_procedure', { procedureId: id }, aliceTool)).toContain('grep_repos');
    expect(await host.tool('memory_find_procedures', { request: 'rotate the leaked API key' }, bobTool)).toMatch(
      /No learned procedure fits/,
    );
    await expect(host.tool('memory_get_procedure', { procedureId: id }, bobTool)).rejects.toThrow(
      /memory_get_procedure: procedure "[^"]+" (was )?not found|does not exist|no procedure/i,
    );
    await expect(host.tool('memory_learn_procedure', { request: 'x', tool_calls: [] }, aliceTool)).rejects.toThrow(
      /tool_calls|toolCalls/,
    );
  }, 60_000);

  it('with llm pointed at an OpenAI-compatible server, the model writes the procedure', async () => {
    const dbPath = join(state.dir, 'd', 'memoir.sqlite');
    host = fakeHost(
      { dbPath, autoCapture: false, llm: { baseUrl: server.baseURL, model: 'loopback-chat' } },
      {
        stateDir: state.dir,
      },
    );
    const before = server.requests.length;
    host.end(deployRun(FOUR_CALLS), alice);
    const directory = join(state.dir, 'd', 'memoir-procedures');
    const files = await eventually(
      async () => {
        await host!.handle!.memory().flush();
        return procedureFiles(directory);
      },
      (names) => names.length === 1,
    );
    const reflection = server.requests.slice(before).find(isReflectionRequest);
    expect(reflection?.body.model).toBe('loopback-chat');
    // The narration and the failed call's error reached the model.
    const prompt = JSON.stringify(reflection?.body.messages);
    expect(prompt).toContain('The deploy bot posts to #releases first');
    expect(prompt).toContain('rate limited');
    const file = readFileSync(join(directory, files[0]!), 'utf8');
    expect(file).toContain('- Check Slack first: the deploy bot posts there immediately');
    expect(file).not.toContain('## Needs a model');
  }, 60_000);

  it('procedures: { learn: false, inject: false, tools: false } turns each off', async () => {
    const dbPath = join(state.dir, 'e', 'memoir.sqlite');
    host = fakeHost(
      { dbPath, autoCapture: false, autoRecall: false, procedures: { learn: false, inject: false, tools: false } },
      { stateDir: state.dir },
    );
    expect(host.handle).not.toBeNull();
    expect(host.tools.has('memory_find_procedures')).toBe(false);
    expect(host.hooks.has('agent_end')).toBe(false);
    expect(host.hooks.has('before_prompt_build')).toBe(false);
  });
});
