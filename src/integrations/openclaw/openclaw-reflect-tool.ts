import { z } from 'zod';
import { parseInput } from '../../core/utils/validate.js';
import type { MemoryClient, ReflectOptions, ReflectReport } from '../../index.js';
import { agentToolErrorText, callAgentTool, memoryReflectTool } from '../agent-tools.js';
import type { OpenClawTool, OpenClawToolContext, OpenClawToolResult } from './openclaw-host-types.js';
import { identityOfTool } from './openclaw-identity.js';
import { OPENCLAW_TOOL_TERMS } from './openclaw-tool-terms.js';

// memory_reflect on demand (seed 004): the agent asks for the reflection the workspace also
// gets daily. It runs on the workspace's own client — the agent's notes, not a sender's
// memories — and only when the `workspace` key names one (the plugin registers it then). A tool call waits for it, so each run is bounded in model tokens
// and wall time; a run that stops at a bound says so, and the next run picks up the rest.

/** The tool's name, as openclaw.plugin.json lists it in `contracts.tools`. */
export const REFLECT_TOOL_NAME = 'memory_reflect';

/** Bounds of one on-demand run: well inside a turn, far above what a day's notes need. */
export const ON_DEMAND_REFLECT = { maxTokens: 50_000, deadlineMs: 120_000 } as const;

// The shared tool's own arguments, so the two doors take the same ones.
const params = memoryReflectTool.inputSchema;

/** The client with its reflect held to the on-demand bounds (a call cannot lift them). */
function boundedReflect(client: MemoryClient): MemoryClient {
  return new Proxy(client, {
    get(target, key) {
      if (key === 'reflect') {
        return (options: ReflectOptions = {}) => target.reflect({ ...options, ...ON_DEMAND_REFLECT });
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** What a run that stopped at a bound left for the next. */
function stoppedLine(report: Partial<ReflectReport>): string | undefined {
  if (!report.stopped) return undefined;
  const bound = report.stopped.reason === 'tokens' ? 'token' : 'time';
  return `Stopped at its ${bound} bound; ${report.stopped.pending.length} page(s) left for the next run.`;
}

/**
 * memory_reflect for OpenClaw: a factory the host calls per run.
 *
 * @param open The workspace client of a run's `workspaceDir` (the configured workspace wins), or undefined.
 */
export function openClawReflectTool(open: (workspaceDir: string | undefined) => Promise<MemoryClient | undefined>): {
  name: string;
  create: (ctx: OpenClawToolContext) => OpenClawTool;
} {
  return {
    name: REFLECT_TOOL_NAME,
    create(ctx) {
      const identity = identityOfTool(ctx);
      const { $schema: _dialect, ...schema } = z.toJSONSchema(params, { io: 'input', unrepresentable: 'any' });
      return {
        name: REFLECT_TOOL_NAME,
        label: 'Memory Reflect',
        description: memoryReflectTool.description,
        parameters: schema as Record<string, unknown>,
        catalogMode: 'direct-only',
        async execute(_toolCallId, input): Promise<OpenClawToolResult> {
          // As every memory tool: a group session that names no sender gets nothing done.
          if (!identity.personal) {
            throw new Error(
              `${REFLECT_TOOL_NAME} needs to know who is asking: this is a group session and the tool call names no sender.`,
            );
          }
          try {
            const args = parseInput(params, input ?? {}, REFLECT_TOOL_NAME);
            const client = await open(ctx.workspaceDir);
            if (client === undefined) throw new Error('the workspace could not be opened (the gateway log says why)');
            const result = await callAgentTool(memoryReflectTool, boundedReflect(client), args);
            const stopped = stoppedLine(result.structured as Partial<ReflectReport>);
            const text = stopped ? `${result.text}\n${stopped}` : result.text;
            return { content: [{ type: 'text', text }], details: result.structured };
          } catch (error) {
            throw new Error(agentToolErrorText(error, { tool: REFLECT_TOOL_NAME, terms: OPENCLAW_TOOL_TERMS }));
          }
        },
      };
    },
  };
}
