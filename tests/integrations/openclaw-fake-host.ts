import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  OpenClawAgentContext,
  OpenClawHookHandlers,
  OpenClawPluginApi,
  OpenClawPromptBuildResult,
  OpenClawService,
  OpenClawTool,
  OpenClawToolContext,
} from '../../src/integrations/openclaw/index.js';
import { type MemoirPluginHandle, registerMemoirPlugin } from '../../src/integrations/openclaw/openclaw-plugin.js';

// An OpenClaw host as the plugin sees it: an `api` object that records what the plugin
// registers, and helpers that fire the hooks the way a gateway does (agent_end with the whole
// transcript so far, not awaited). The host itself is the only fake here; the store is a real
// file and the model, where one is used, the loopback mock speaking OpenAI's wire format.

/** One transcript message as OpenClaw writes it. */
export interface HostMessage {
  role: 'user' | 'assistant' | 'toolResult';
  content: string | Array<{ type: string; text?: string }>;
  timestamp: number;
}

/** A recording host with one plugin registered on it. */
export interface FakeHost {
  api: OpenClawPluginApi;
  handle: MemoirPluginHandle | null;
  /** Typed hooks by name (the legacy one included). */
  hooks: Map<string, unknown>;
  /** Tool factories by name. */
  tools: Map<string, (ctx: OpenClawToolContext) => OpenClawTool | null | undefined>;
  services: OpenClawService[];
  /** Every log line, `level message`. */
  logs: string[];
  /** Run before_prompt_build as the host would. */
  prompt(
    prompt: string,
    ctx: OpenClawAgentContext,
    extra?: { currentUserMessage?: string; messages?: unknown[] },
  ): Promise<OpenClawPromptBuildResult | undefined>;
  /** Fire agent_end (the host does not wait for it). */
  end(messages: unknown[], ctx: OpenClawAgentContext, success?: boolean): void;
  /** Call a tool as the agent would. */
  tool(name: string, params: unknown, ctx?: OpenClawToolContext): Promise<string>;
  /** Stop the gateway: the services' stop(). */
  stop(): Promise<void>;
}

/** A temporary state directory, removed after the test. */
export function stateDirectory(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'memoir-openclaw-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

let clock = Date.now();
/** A message with a timestamp after the plugin started, one millisecond after the last. */
export function message(role: HostMessage['role'], text: string): HostMessage {
  clock += 1;
  return { role, content: role === 'user' ? text : [{ type: 'text', text }], timestamp: clock };
}

/** Register the plugin on a recording host. */
export function fakeHost(
  pluginConfig: Record<string, unknown>,
  options: { stateDir: string; version?: string; hostConfig?: Record<string, unknown> },
): FakeHost {
  const hooks = new Map<string, unknown>();
  const tools = new Map<string, (ctx: OpenClawToolContext) => OpenClawTool | null | undefined>();
  const services: OpenClawService[] = [];
  const logs: string[] = [];
  const on = (name: string, handler: unknown) => {
    hooks.set(name, handler);
  };
  const api: OpenClawPluginApi = {
    id: 'memoir',
    pluginConfig,
    ...(options.hostConfig ? { config: options.hostConfig } : {}),
    runtime: { version: options.version ?? '2026.9.6' },
    logger: {
      debug: (line) => logs.push(`debug ${line}`),
      info: (line) => logs.push(`info ${line}`),
      warn: (line) => logs.push(`warn ${line}`),
      error: (line) => logs.push(`error ${line}`),
    },
    on: on as OpenClawPluginApi['on'],
    registerTool: (factory, opts) => {
      tools.set(opts?.name ?? '?', factory);
    },
    registerService: (service) => {
      services.push(service);
    },
  };
  const handle = registerMemoirPlugin(api, { stateDir: options.stateDir, since: 0 });
  return {
    api,
    handle,
    hooks,
    tools,
    services,
    logs,
    async prompt(prompt, ctx, extra = {}) {
      const handler = hooks.get('before_prompt_build') as OpenClawHookHandlers['before_prompt_build'];
      return handler({ prompt, messages: extra.messages ?? [], ...extra }, ctx);
    },
    end(messages, ctx, success = true) {
      const handler = hooks.get('agent_end') as OpenClawHookHandlers['agent_end'];
      void handler({ messages, success }, ctx);
    },
    async tool(name, params, ctx = {}) {
      const tool = tools.get(name)?.(ctx);
      if (!tool) throw new Error(`no tool ${name}`);
      const result = await tool.execute('call_1', params);
      return result.content.map((part) => part.text).join('\n');
    },
    async stop() {
      for (const service of services) {
        await service.stop?.({ stateDir: options.stateDir, logger: api.logger });
      }
    },
  };
}
