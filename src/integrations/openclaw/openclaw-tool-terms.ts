import type { ToolHintTerms } from '../agent-tools.js';

// What an error tells the agent to change, in the plugin's own words. The library's hint says
// "createMemory({ video })"; an agent in OpenClaw can neither call that nor restart anything,
// so it learns which key of the plugin's config (openclaw.json, plugins.entries.memoir.config)
// the gateway's operator sets, and to tell the user so.

/** Where the plugin's settings live, as the operator finds them. */
const CONFIG = "the memoir plugin's config in openclaw.json (plugins.entries.memoir.config)";

// The library's option names that the plugin's tools call differently.
const ARGUMENTS: Readonly<Record<string, string>> = { k: 'limit', topK: 'limit', content: 'text', type: 'category' };

/** The plugin's words for the settings its tools' errors point to. */
export const OPENCLAW_TOOL_TERMS: ToolHintTerms = {
  operator: "the gateway's operator",
  workspace: `set \`workspace\` (the Markdown folder to work in) in ${CONFIG} and restart the gateway`,
  unscoped:
    "run it with the memoir CLI on the plugin's database (the plugin's tools always act for one sender, never for every one)",
  languageModel: `set \`llm.apiKey\` (or \`llm.baseUrl\` for a local server) in ${CONFIG} and restart the gateway`,
  video:
    `set \`video.apiKey\` (a Memories AI key, or "\${MEMORIES_AI_API_KEY}") in ${CONFIG}, or MEMORIES_AI_API_KEY in the ` +
    "gateway's environment, and restart the gateway, so the screen recordings can be searched",
  // The plugin's parameters are camelCase (memoryId, asOf), as memory-lancedb's are.
  argumentName: (field) => {
    const name = field.replace(/^options\./, '');
    return ARGUMENTS[name] ?? name;
  },
};
