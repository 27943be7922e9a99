/** Counts tokens the way OpenAI's o200k_base encoding (GPT-4o family) does. */
export type TokenCounter = (text: string) => number;

let counter: Promise<TokenCounter> | undefined;

/**
 * The shared token counter. The encoding tables are a few megabytes, so they load
 * on the first recall that asks for a token budget, not when memoir is imported.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  // Memory text may contain strings like "<|endoftext|>"; they are counted as plain text, not rejected.
  const asPlainText = { disallowedSpecial: new Set<string>() };
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then(
    (module) => (text: string) => module.countTokens(text, asPlainText),
  );
  return counter;
}
