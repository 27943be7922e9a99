import type { z } from 'zod';
import { parseInput } from '../../core/utils/validate.js';
import { ValidationError } from '../../index.js';
import type { AgentTool } from '../agent-tools.js';

// How a plugin tool is declared: its OpenClaw face (name, label, parameter names the host
// shows) and how its parameters become the shared tool's arguments. The plugin's tool files
// each declare their mappings with `mapping`; openclaw-tools.ts turns them into host tools.

/** One tool: its OpenClaw face, and how its parameters become the shared tool's arguments. */
export interface ToolMapping<Params extends z.ZodObject> {
  name: string;
  label: string;
  description: string;
  params: Params;
  tool: AgentTool;
  toArgs: (params: z.output<Params>) => Record<string, unknown>;
}

/** A mapping with its parameter type erased: `argsOf` validates, then maps. */
export interface Mapping extends Omit<ToolMapping<z.ZodObject>, 'toArgs'> {
  argsOf: (params: unknown) => Record<string, unknown>;
}

/** Declare a mapping; its parameters are checked by `params` (errors name the field) before mapping. */
export function mapping<Params extends z.ZodObject>(definition: ToolMapping<Params>): Mapping {
  return {
    ...definition,
    argsOf(params) {
      try {
        return definition.toArgs(parseInput(definition.params, params ?? {}, definition.name));
      } catch (error) {
        // The library's hint points at its API reference; the agent only needs to call again.
        if (!ValidationError.isInstance(error)) throw error;
        throw new ValidationError(error.issues, {
          component: definition.name,
          suggestion: `Fix the parameter named above and call ${definition.name} again.`,
        });
      }
    },
  };
}
