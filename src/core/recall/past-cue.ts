/**
 * Whether a query asks about an earlier state of things ("where did Peter live before
 * Lisbon", "what car did I use to drive", "my old address"): then the versions a newer fact
 * superseded answer it, not the current one.
 */
const PAST =
  /\b(?:before|prior\s+to|used\s+to|use\s+to|previously|formerly|originally|at\s+first|back\s+then|in\s+the\s+past|earlier\s+on|until\s+(?:he|she|they|i|we)\s+\w+|former|ex-\w+|old\s+(?:address|job|car|phone|home|place|flat|apartment|house|company|employer|rent|salary|number|email|plan|price|setup|stack|tool|runner|bundler|schedule|time|title|role)|what\s+was\s+(?:my|our|his|her|their|the)\s+\w+\s+(?:before|previously|originally))\b/iu;

/** True when `query` asks what was true before a change. */
export function asksAboutThePast(query: string): boolean {
  return PAST.test(query);
}
