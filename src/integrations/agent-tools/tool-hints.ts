/**
 * An error's hint in a tool caller's terms. The library says what to change as data
 * (`ErrorHint`: needs an unscoped client, a workspace, `confirm`, an option); a model calling a
 * tool cannot create a client, so it is told the argument to change, or that the server's
 * operator must start it differently — never to "create the client with …".
 */
import type { ErrorHint } from '../../core/spec/errors.js';

/**
 * How the host's operator changes what a model cannot: the words a door puts after "the
 * operator must …". The MCP server names `memoir mcp`'s flags; other hosts their settings.
 *
 * @group Agent tools
 */
export interface ToolHintTerms {
  /** Give the tools a Markdown workspace, e.g. "start the server with `memoir mcp --workspace <dir>`". */
  readonly workspace: string;
  /** Serve every scope, e.g. "start the server without --user, --agent and --namespace". */
  readonly unscoped: string;
  /** Configure a language model for the tools. */
  readonly languageModel: string;
  /** Give the tools screen recordings to search (a video provider), e.g. "start the server with MEMORIES_AI_API_KEY set". */
  readonly video: string;
  /** Who sets these, e.g. "the gateway's operator". Default "the server's operator". */
  readonly operator?: string;
  /**
   * A library option (`asOf`, `options.sessionId`) as the host's tool argument. Default
   * `toolArgumentName`: snake_case, as the MCP tools name them (`as_of`).
   */
  readonly argumentName?: (field: string) => string;
}

/**
 * What a host that names no settings of its own tells a model.
 *
 * @group Agent tools
 */
export const GENERIC_TOOL_TERMS: ToolHintTerms = {
  workspace: 'give the memory tools a Markdown workspace',
  unscoped: 'run these tools without a user, agent or namespace scope',
  languageModel: 'configure a language model for the memory tools',
  video: 'give the memory tools a video provider, so the screen recordings can be searched',
};

/**
 * A library option (`asOf`, `options.topK`) as a tool argument (`as_of`, `top_k`).
 *
 * @param field - The library's field.
 * @returns The tool argument's name.
 * @group Agent tools
 */
export function toolArgumentName(field: string): string {
  const last = field.replace(/^options\./, '');
  return last.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

const operator = (what: string, who = "the server's operator") =>
  `Calling again will not help: ${who} must ${what}. Tell the user so.`;

/**
 * The sentence a model reads for a hint, or undefined when the hint has no tool-side words.
 *
 * @param hint - From the error.
 * @param tool - The tool that failed, to say what to call again; without it, "the tool".
 * @param terms - The host's words for its settings.
 * @returns One sentence.
 * @group Agent tools
 */
export function toolHintText(hint: ErrorHint, tool: string | undefined, terms: ToolHintTerms): string {
  const again = tool ? `call ${tool} again` : 'call the tool again';
  const argument = terms.argumentName ?? toolArgumentName;
  switch (hint.code) {
    case 'confirm':
      return `Ask the user first; ${again} with confirm: true once they agree.`;
    case 'workspace':
      return operator(terms.workspace, terms.operator);
    case 'unscoped':
      return operator(terms.unscoped, terms.operator);
    case 'language-model':
      return operator(terms.languageModel, terms.operator);
    case 'video':
      return operator(terms.video, terms.operator);
    case 'option':
      return `Fix the argument ${argument(hint.field)} and ${again}.`;
    case 'renamed':
      return `Pass only ${argument(hint.to)} (${argument(hint.field)} is its old name) and ${again}.`;
  }
}
