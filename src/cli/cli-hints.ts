/**
 * An error's hint in the CLI's terms. The library says what to change as data (`ErrorHint`:
 * an unscoped client, a workspace, `confirm`, an option); someone at a shell cannot "create the
 * client without `scope`", so the CLI names the flag to pass or leave out instead.
 */
import type { ErrorHint } from '../core/spec/errors.js';

/** A library option (`asOf`, `options.topK`) as its flag (`--as-of`, `--top-k`); a flag stays as it is. */
export function flagName(field: string): string {
  if (field.startsWith('-')) return field;
  const name = field.replace(/^options\./, '').replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  return `--${name.replace(/_/g, '-')}`;
}

/**
 * The sentence the CLI prints after `hint:` for a structured hint.
 *
 * @param hint - From the error.
 * @returns One sentence naming flags (or environment variables).
 */
export function cliHintText(hint: ErrorHint): string {
  switch (hint.code) {
    case 'unscoped':
      return 'Run it without --user, --agent and --namespace (and without MEMOIR_USER_ID, MEMOIR_AGENT_ID and MEMOIR_NAMESPACE): it acts on every scope.';
    case 'workspace':
      return 'Pass --workspace <dir>, the Markdown workspace to work in.';
    case 'confirm':
      return 'Pass --confirm to go ahead.';
    case 'language-model':
      return 'The memoir command runs without a language model; call this from the library, on a client created with createMemory({ languageModel }).';
    case 'video':
      return 'Set MEMORIES_AI_API_KEY (a Memories AI key) so your screen recordings can be searched; MEMOIR_VISION_MODEL names a vision model for the steps.';
    case 'option':
      return `Check ${flagName(hint.field)}.`;
    case 'renamed':
      return `Pass only ${flagName(hint.to)} (${flagName(hint.field)} is its old name).`;
  }
}
