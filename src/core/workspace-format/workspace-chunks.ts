/** Splitting one Markdown file of a workspace into the items the index holds. */
import type { MemoryKind } from '../spec/memory.js';
import { headingDates } from './heading-dates.js';
import { type JournalBullet, parseJournalBullet } from './journal-bullet.js';
import { mentionsOf, parseRetainBullet } from './retain-bullet.js';
import { type StatedRange, statedTime } from './stated-range.js';

/** One indexed item of a workspace file. */
export interface WorkspaceItem {
  /** 1-based line it starts on. */
  line: number;
  /** 1-based line it ends on (the same as `line` for a one-line item). */
  endLine: number;
  /** Its epistemic network. */
  kind: MemoryKind;
  /** The text, without list markers, type prefixes or `@`. */
  content: string;
  /** Mentioned entities (and the page's own entity on an entity page). */
  entities: string[];
  /** The heading it sits under, for search context. */
  heading: string | null;
  /** True for a typed `## Retain` bullet. */
  retained: boolean;
  /** An opinion's `O(c=…)`. */
  confidence?: number;
  /** A time range the item states itself. */
  range?: StatedRange;
  /** The date a heading it sits under states (`## 2025-11-27`, `## Nov 27, 2025`), which dates an item stating none. */
  headingRange?: StatedRange;
  /** A bullet memoir wrote for a retained memory: its id and the fields Markdown does not show. */
  journal?: JournalBullet;
}

/** A line that could not be read as written; it is still indexed as plain text. */
export interface WorkspaceWarning {
  /** Workspace-relative path. */
  file: string;
  /** 1-based line; 0 when it is about the file as a whole. */
  line: number;
  /** What is wrong with it. */
  message: string;
}

/** What a file is for, from its path. */
export interface FileRole {
  /** Kind of its plain paragraphs. */
  kind: MemoryKind;
  /** Category of its items. */
  category: string;
  /** The entity an entity page is about. */
  entity?: string;
  /** Whether typed bullets are read everywhere in it, not only under `## Retain` (curated bank pages). */
  typedEverywhere: boolean;
}

const ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;
// Sections reflect generates that only repeat what the index holds already (see reflect/generated-section.ts).
const DERIVED_BEGIN = /^<!-- memoir:(facts|opinions|world|experience) sha256=[0-9a-f]{16} -->$/;

interface Block {
  line: number;
  end: number;
  text: string;
  listItem: boolean;
  heading: string | null;
  inRetain: boolean;
}

// The blocks of a file, or undefined as soon as there are more than `maxBlocks`.
function blocksOf(text: string, maxBlocks: number): Block[] | undefined {
  const lines = text.split(/\r?\n/);
  const blocks: Block[] = [];
  let heading: string | null = null;
  let inRetain = false;
  let current: Block | null = null;
  let fence: string | null = null;
  const close = () => {
    if (current && current.text.trim() !== '') blocks.push({ ...current, text: current.text.trim() });
    current = null;
  };
  // Where the next closing marker of each derived section is (-1: none left), so a file of
  // many opening markers is read in one pass, not one search to the end per marker.
  const closings = new Map<string, number>();
  const closingAfter = (name: string, index: number): number => {
    const known = closings.get(name);
    if (known !== undefined && (known < 0 || known > index)) return known;
    const found = lines.indexOf(`<!-- /memoir:${name} -->`, index + 1);
    closings.set(name, found);
    return found;
  };
  let start = 0;
  // Front matter is metadata for tools, not memory.
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
    if (end > 0) start = end + 1;
  }
  for (let index = start; index < lines.length; index++) {
    if (blocks.length > maxBlocks) return undefined;
    const raw = lines[index]!;
    const lineNumber = index + 1;
    const derived = fence === null ? DERIVED_BEGIN.exec(raw.trim()) : null;
    if (derived) {
      close();
      const closing = closingAfter(derived[1]!, index);
      if (closing > 0) {
        index = closing;
        continue;
      }
    }
    if (fence !== null) {
      current!.text += `\n${raw}`;
      current!.end = lineNumber;
      if (raw.trim().startsWith(fence)) {
        fence = null;
        close();
      }
      continue;
    }
    const fenceOpen = FENCE.exec(raw);
    if (fenceOpen) {
      close();
      fence = fenceOpen[1]!;
      current = { line: lineNumber, end: lineNumber, text: raw, listItem: false, heading, inRetain };
      continue;
    }
    if (raw.trim() === '' || /^\s*<!--.*-->\s*$/.test(raw)) {
      close();
      continue;
    }
    const headingMatch = HEADING.exec(raw);
    if (headingMatch) {
      close();
      heading = headingMatch[2]!;
      inRetain = /^retain\b/i.test(heading);
      continue;
    }
    const item = ITEM.exec(raw);
    if (item && item[1]!.length < 2) {
      close();
      current = { line: lineNumber, end: lineNumber, text: item[2]!, listItem: true, heading, inRetain };
      continue;
    }
    if (current) {
      // A nested item or a wrapped line continues the item or paragraph above it.
      current.text += `\n${item ? item[2]! : raw.trim()}`;
      current.end = lineNumber;
      continue;
    }
    current = { line: lineNumber, end: lineNumber, text: raw.trim(), listItem: false, heading, inRetain };
  }
  if (fence !== null) close();
  close();
  return blocks.length > maxBlocks ? undefined : blocks;
}

/** The most warnings one file reports line by line; the rest are counted in one more. */
const MAX_WARNINGS_PER_FILE = 100;

/** What parsing a file gave: its items and warnings, or `tooMany` when it holds more than the limit. */
export type ParsedWorkspaceFile =
  | {
      /** The items, in file order. */
      items: WorkspaceItem[];
      /** Lines kept as plain text, with why (at most 100 per file, then one that counts the rest). */
      warnings: WorkspaceWarning[];
    }
  | {
      /** The file holds more than `maxItems` items: nothing of it was kept. */
      tooMany: true;
    };

/**
 * The items of one workspace file: typed Retain bullets with their kind, mentions and
 * confidence, and every other paragraph or list item as plain text. A line that looks typed
 * but is not well formed is kept as plain text, with a warning. A file of more than
 * `maxItems` items gives `tooMany`, found without building them all.
 */
export function parseWorkspaceFile(
  file: string,
  text: string,
  role: FileRole,
  maxItems = Number.POSITIVE_INFINITY,
): ParsedWorkspaceFile {
  const blocks = blocksOf(text, maxItems);
  if (blocks === undefined) return { tooMany: true };
  const items: WorkspaceItem[] = [];
  const warnings: WorkspaceWarning[] = [];
  let unreported = 0;
  const warn = (warning: WorkspaceWarning) => {
    if (warnings.length < MAX_WARNINGS_PER_FILE) warnings.push(warning);
    else unreported += 1;
  };
  const pageEntity = role.entity === undefined ? [] : [role.entity];
  const headingDate = headingDates(text);
  const withPage = (entities: string[]) => [...new Set([...pageEntity, ...entities])];
  for (const block of blocks) {
    const base = { line: block.line, endLine: block.end, heading: block.heading };
    // A bullet memoir wrote is read back whole, wherever it sits (a person may move it).
    const journal = block.listItem ? parseJournalBullet(block.text) : undefined;
    if (journal) {
      const { confidence } = journal;
      items.push({
        ...base,
        kind: journal.kind,
        content: journal.content,
        entities: withPage(journal.entities),
        retained: true,
        ...(confidence === undefined ? {} : { confidence }),
        journal,
      });
      continue;
    }
    const typedHere = block.listItem && (block.inRetain || role.typedEverywhere);
    const parsed = typedHere ? parseRetainBullet(block.text) : { untyped: true as const };
    if ('malformed' in parsed) warn({ file, line: block.line, message: parsed.malformed });
    else if ('untyped' in parsed && block.inRetain && block.listItem)
      warn({ file, line: block.line, message: 'expected a type prefix W, B, O or S (e.g. "- W @Name: …")' });
    const typed = 'bullet' in parsed ? parsed.bullet : undefined;
    const content = typed ? typed.content : block.text.replace(/@(?=[\p{L}\p{N}])/gu, '');
    const stated = statedTime(content);
    if (stated && 'broken' in stated)
      warn({
        file,
        line: block.line,
        message: `"${stated.broken}" is not a date that exists; the file's date is used`,
      });
    items.push({
      ...base,
      kind: typed?.kind ?? role.kind,
      content,
      entities: withPage(typed ? typed.entities : mentionsOf(block.text)),
      retained: typed !== undefined,
      ...(typed?.confidence === undefined ? {} : { confidence: typed.confidence }),
      ...(stated && 'range' in stated ? { range: stated.range } : {}),
      ...(headingDate(block.line) === undefined ? {} : { headingRange: headingDate(block.line)! }),
    });
  }
  if (unreported > 0)
    warnings.push({ file, line: 0, message: `and ${unreported} more lines like these (not listed one by one)` });
  return { items, warnings };
}
