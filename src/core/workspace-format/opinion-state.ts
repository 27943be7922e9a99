/**
 * The state reflect keeps for each opinion, written as one line of the generated section of
 * `bank/opinions.md` so that it is reviewable in git and survives a rebuilt index:
 * `- c=0.84 (was 0.9, 2025-12-03) Peter: Prefers … <!-- id=ws_… for=ws_…,ws_… against=ws_… -->`.
 */

/** An opinion as reflect last left it. */
export interface OpinionState {
  /** The opinion memory's id. */
  id: string;
  /** Current confidence. */
  confidence: number;
  /** Confidence before the last change. */
  previous: number;
  /** Day of the last change (YYYY-MM-DD). */
  updated: string;
  /** The opinion's text. */
  statement: string;
  /** Ids of memories that supported it, in the order they were applied. */
  supporting: string[];
  /** Ids of memories that contradicted it. */
  contradicting: string[];
}

const LINE = /^- c=([0-9.]+) \(was ([0-9.]+), (\d{4}-\d{2}-\d{2})\) (.*) <!-- id=(\S+) for=(\S*) against=(\S*) -->$/;

/** One line of the section. */
export function renderOpinionLine(state: OpinionState): string {
  const statement = state.statement.replace(/\s+/g, ' ').replace(/<!--|-->/g, '');
  return `- c=${state.confidence} (was ${state.previous}, ${state.updated}) ${statement} <!-- id=${state.id} for=${state.supporting.join(',')} against=${state.contradicting.join(',')} -->`;
}

/** The opinion states in a section body, by opinion id; lines that do not parse are ignored. */
export function parseOpinionSection(body: string): Map<string, OpinionState> {
  const states = new Map<string, OpinionState>();
  for (const line of body.split('\n')) {
    const match = LINE.exec(line.trim());
    if (!match) continue;
    const confidence = Number(match[1]);
    const previous = Number(match[2]);
    if (!(confidence >= 0 && confidence <= 1 && previous >= 0 && previous <= 1)) continue;
    const list = (text: string) => (text === '' ? [] : text.split(','));
    states.set(match[5]!, {
      id: match[5]!,
      confidence,
      previous,
      updated: match[3]!,
      statement: match[4]!,
      supporting: list(match[6]!),
      contradicting: list(match[7]!),
    });
  }
  return states;
}
