/** Human-readable output of the CLI: aligned tables and memory details. */

import stringWidth from 'string-width';
import type { RecallResponse } from '../core/recall/recall-result.js';
import { citationOf } from '../core/shared/format-context.js';
import type { Memory, Scope } from '../core/spec/memory.js';
import type { StoreStats } from '../core/spec/store.js';
import { opinionNote } from '../core/utils/opinion-standing.js';
import type { ResolvedStoreCapabilities } from '../core/utils/store-capabilities.js';

/** Terminal width assumed when output is not a terminal. */
export const DEFAULT_WIDTH = 120;

/**
 * The width of a table whose values must reach a reader whole: the terminal's on a terminal,
 * else no limit. A pipe or a file is read by a program or searched, so a path or a reason cut
 * to a window's width would be a wrong value, not a shorter one.
 */
export function fullValuesWidth(output: { isTTY?: boolean; columns?: number }): number {
  if (!output.isTTY) return Number.POSITIVE_INFINITY;
  return output.columns ? output.columns : DEFAULT_WIDTH;
}

// Memory text is written by others: control characters (ANSI escapes among them) and
// bidi overrides could rewrite the terminal or hide text, so they never reach it.
const UNSAFE = /[\p{Cc}\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu;

/** Text made safe for one terminal line: controls removed, whitespace runs collapsed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(UNSAFE, '').trim();
}

/** Text made safe for a terminal, keeping line breaks and tabs. */
export function safeText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(UNSAFE, (ch) => (ch === '\n' || ch === '\t' ? ch : ''));
}

// Graphemes, so that an emoji with a skin tone or a letter with its accent is cut whole.
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Columns a string takes in a terminal, by `string-width`: wide CJK and emoji (🚀, ❤️, 👍🏽)
 * count 2, combining marks and zero-width characters 0.
 */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** Cut `text` to at most `width` columns, ending with `…` when cut; never splits a character. */
export function truncate(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/** A column of {@link formatTable}. */
export interface Column {
  /** Header text. */
  header: string;
  /** Alignment. Default left. */
  align?: 'left' | 'right';
  /** Widest the column may be; longer cells are truncated. */
  max?: number;
}

/**
 * Rows aligned in columns two spaces apart, under a header line. The last column takes
 * what is left of `width` (at least 20 columns) and its cells are truncated to fit. An
 * infinite `width` ({@link fullValuesWidth} off a terminal) truncates nothing, not even a
 * column's `max`. Returns the lines and where each column starts.
 */
export function formatTable(
  columns: readonly Column[],
  rows: ReadonlyArray<readonly string[]>,
  width = DEFAULT_WIDTH,
): { lines: string[]; offsets: number[] } {
  const whole = width === Number.POSITIVE_INFINITY;
  const cells = rows.map((row) =>
    row.map((cell, index) => truncate(oneLine(cell), whole ? Infinity : (columns[index]?.max ?? Infinity))),
  );
  const widths = columns.map((column, index) =>
    Math.max(displayWidth(column.header), ...cells.map((row) => displayWidth(row[index] ?? ''))),
  );
  const offsets: number[] = [];
  let offset = 0;
  for (const columnWidth of widths) {
    offsets.push(offset);
    offset += columnWidth + 2;
  }
  const last = columns.length - 1;
  const lastWidth = Math.max(20, width - (offsets[last] ?? 0));
  const render = (row: readonly string[]) =>
    row
      .map((cell, index) =>
        index === last ? truncate(cell, lastWidth) : pad(cell, widths[index]!, columns[index]?.align ?? 'left'),
      )
      .join('  ')
      .trimEnd();
  return { lines: [render(columns.map((column) => column.header)), ...cells.map(render)], offsets };
}

const MEMORY_COLUMNS: Column[] = [
  { header: 'id' },
  { header: 'kind' },
  { header: 'category', max: 20 },
  { header: 'date' },
  { header: 'abstract' },
];

function memoryCells(memory: Memory, notes: readonly string[] = []): string[] {
  const date = memory.metadata.undated === true ? 'undated' : memory.occurredAt.slice(0, 10);
  return [memory.id, memory.kind, memory.category, date, abstractOf(memory, notes)];
}

// A version a newer fact replaced says until when it held, so an old value never reads as current;
// an opinion says how strongly it is held and on how much evidence.
function abstractOf(memory: Memory, notes: readonly string[]): string {
  const text = memory.abstract || memory.content;
  const validity = !memory.validTo
    ? []
    : memory.supersededBy
      ? [`until ${memory.validTo.slice(0, 10)}, superseded`]
      : ['invalid'];
  const opinion = opinionNote(memory);
  const marks = [...validity, ...(opinion === undefined ? [] : [opinion]), ...notes];
  return marks.length > 0 ? `[${marks.join('; ')}] ${text}` : text;
}

// What recall adds to a result's marks: a version not yet true at the time asked about. (An
// opinion's confidence and evidence come from the memory itself, in list and recall alike.)
function resultNotes(result: RecallResponse['results'][number]): string[] {
  const notes: string[] = [];
  if (result.breakdown.validity?.state === 'not yet valid') notes.push(`from ${result.memory.validFrom.slice(0, 10)}`);
  return notes;
}

/** Memories as a table: id, kind, category, date, abstract. */
export function formatMemoryTable(memories: readonly Memory[], width = DEFAULT_WIDTH): string {
  return formatTable(
    MEMORY_COLUMNS,
    memories.map((memory) => memoryCells(memory)),
    width,
  ).lines.join('\n');
}

function memoriesWord(count: number): string {
  return `${count} ${count === 1 ? 'memory' : 'memories'}`;
}

/**
 * Recall results as a table with each result's citation on the line below it. With no
 * result, says whether nothing matched or everything that matched was over `tokenBudget`.
 */
export function formatRecall(response: RecallResponse, width = DEFAULT_WIDTH, tokenBudget?: number): string {
  if (response.results.length === 0) {
    if (response.droppedForBudget === 0) return 'No memories match.';
    const budget = tokenBudget === undefined ? 'the token budget' : `${tokenBudget} tokens`;
    const fit = response.droppedForBudget === 1 ? 'it does not fit' : 'none fit';
    return `${memoriesWord(response.droppedForBudget)} matched but ${fit} in ${budget}; raise --token-budget.`;
  }
  const columns: Column[] = [{ header: '#', align: 'right' }, { header: 'score' }, ...MEMORY_COLUMNS];
  const rows = response.results.map((result, index) => [
    String(index + 1),
    result.score.toFixed(3),
    ...memoryCells(result.memory, resultNotes(result)),
  ]);
  const { lines, offsets } = formatTable(columns, rows, width);
  const indent = ' '.repeat(offsets[2] ?? 0);
  const out = [lines[0]!];
  response.results.forEach((result, index) => {
    out.push(
      lines[index + 1]!,
      `${indent}${truncate(`↳ ${oneLine(result.citation)}`, Math.max(20, width - indent.length))}`,
    );
    // `--explain`: the whole line, not cut to the width; it is read, not scanned.
    if (result.explanation) out.push(`${indent}why: ${oneLine(result.explanation)}`);
  });
  const count = `${response.results.length} result${response.results.length === 1 ? '' : 's'}`;
  const tokens = response.totalTokens === undefined ? '' : `, ${response.totalTokens} tokens`;
  const dropped = response.droppedForBudget > 0 ? ` (${response.droppedForBudget} left out by the token budget)` : '';
  out.push('', `${count}${tokens}${dropped}`);
  return out.join('\n');
}

/** Whose a memory is, short: `user=peter agent=helper`, or `(none)`. */
export function ownerText(scope: Scope): string {
  const parts = (
    [
      ['user', scope.userId],
      ['agent', scope.agentId],
      ['ns', scope.namespace],
    ] as const
  )
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${value}`);
  return parts.length > 0 ? parts.join(' ') : '(none)';
}

/**
 * A page of `memoir list`: the table, then how many were shown and where the next page starts.
 * With `showScope` (an unscoped run, which lists every user's memories) each row says whose it is.
 */
export function formatList(
  memories: readonly Memory[],
  page: { offset: number; nextOffset: number | null; width?: number; showScope?: boolean },
): string {
  if (memories.length === 0) return page.offset > 0 ? `No memories at offset ${page.offset}.` : 'No memories.';
  const first = page.offset + 1;
  const last = page.offset + memories.length;
  const more = page.nextOffset === null ? '' : `; more with --offset ${page.nextOffset}`;
  const table = page.showScope
    ? formatTable(
        [...MEMORY_COLUMNS.slice(0, -1), { header: 'scope', max: 36 }, MEMORY_COLUMNS.at(-1)!],
        memories.map((memory) => {
          const cells = memoryCells(memory);
          return [...cells.slice(0, -1), ownerText(memory.scope), cells.at(-1)!];
        }),
        page.width,
      ).lines.join('\n')
    : formatMemoryTable(memories, page.width);
  return `${table}\n\n${memoriesWord(memories.length)} (${first}–${last})${more}`;
}

/**
 * Whose data a run covers, for summaries: `the scope userId=alice` for a scoped run,
 * `the whole store (every scope)` for an unscoped (admin) one.
 */
export function describeScope(scope: Scope | undefined | null): string {
  if (!scope || Object.values(scope).every((value) => value === undefined)) return 'the whole store (every scope)';
  return `the scope ${oneLine(scopeText(scope))}`;
}

function scopeText(scope: Scope): string {
  const parts = Object.entries(scope)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${value}`);
  return parts.length > 0 ? parts.join(' ') : '(none)';
}

function block(text: string): string {
  return safeText(text).replace(/\n/g, '\n            ');
}

/** Every field of one memory, one per line; long text keeps its line breaks, indented. */
export function formatMemoryDetails(memory: Memory): string {
  const validity = memory.validTo
    ? `invalid since ${memory.validTo}${memory.invalidationReason ? ` (${oneLine(memory.invalidationReason)})` : ''}${
        memory.supersededBy ? `, superseded by ${memory.supersededBy}` : ''
      }`
    : `valid since ${memory.validFrom}`;
  const fields: Array<[string, string]> = [
    ['id', memory.id],
    ['kind', memory.kind],
    ['category', oneLine(memory.category)],
    ['abstract', oneLine(memory.abstract)],
    ['content', block(memory.content)],
    ...(memory.overview ? [['overview', block(memory.overview)] as [string, string]] : []),
    ['entities', memory.entities.length > 0 ? oneLine(memory.entities.join(', ')) : '(none)'],
    ['scope', oneLine(scopeText(memory.scope))],
    ['session', memory.sessionId ? oneLine(memory.sessionId) : '(none)'],
    ['source', oneLine(citationOf(memory))],
    ['occurred', memory.occurredAt],
    ['created', memory.createdAt],
    ['updated', memory.updatedAt],
    ['validity', validity],
    ['importance', String(memory.importance)],
    ['bookmarked', memory.bookmarked ? 'yes' : 'no'],
    [
      'recalled',
      `${memory.accessCount} time${memory.accessCount === 1 ? '' : 's'}${memory.lastAccessedAt ? `, last ${memory.lastAccessedAt}` : ''}`,
    ],
    ...(Object.keys(memory.metadata).length > 0
      ? [['metadata', oneLine(JSON.stringify(memory.metadata))] as [string, string]]
      : []),
  ];
  return fields.map(([name, value]) => `${name.padEnd(10)}  ${value}`).join('\n');
}

/** Bytes as B, KB, MB or GB (powers of 1024), one decimal above bytes. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** What `memoir stats` shows. */
export interface StatsView extends StoreStats {
  /** The home directory. */
  home: string;
  /** The store's name. */
  store: string;
  /** The embedder the store was opened with: the store's own. */
  embedder: { id: string; dimensions: number };
  /** The configured embedder, when it is not the store's: another one, or one that cannot be built (`error`). */
  configuredEmbedder?: { id: string; dimensions: number } | { error: string };
  /** What the store guarantees its writes (absent: not reported). */
  capabilities?: Pick<ResolvedStoreCapabilities, 'transactions' | 'crossProcess' | 'stagedChanges'>;
}

/** Store counts and where they live, one per line. */
export function formatStats(view: StatsView): string {
  const fields: Array<[string, string]> = [
    ['memories', String(view.memories)],
    ['opinions', String(view.opinions)],
    ['procedures', String(view.procedures)],
    ['sessions', String(view.sessions)],
    ['entities', String(view.entities)],
    ['size', formatBytes(view.bytes)],
    ['home', view.home],
    ['store', view.store],
    ['embedder', `${view.embedder.id} (${view.embedder.dimensions} dimensions)`],
  ];
  const guarantees = view.capabilities;
  if (guarantees) {
    const staged = guarantees.stagedChanges ? ', bulk changes staged' : '';
    fields.push([
      'writes',
      `transactions ${guarantees.transactions}, between processes ${guarantees.crossProcess}${staged}`,
    ]);
  }
  const configured = view.configuredEmbedder;
  if (configured) {
    fields.push([
      'configured',
      'error' in configured
        ? `cannot be built: ${oneLine(configured.error)}`
        : `${configured.id} (${configured.dimensions} dimensions): not the store's; retain and recall refuse it`,
    ]);
  }
  return fields.map(([name, value]) => `${name.padEnd(10)}  ${value}`).join('\n');
}
