import { createHash } from 'node:crypto';
import { isMap, parseDocument, stringify } from 'yaml';
import { z } from 'zod';
import { scopeSchema } from '../spec/memory.js';
import { PROCEDURE_SOURCES, type Procedure, videoEvidenceSchema } from '../spec/records.js';

// The file format is the seed's (Subrosa v3): YAML front matter, then four `##` sections.
// A person edits these files, so parsing is forgiving about layout (list markers, heading case,
// sections in any order, missing counters) and strict only where guessing could lose data:
// front matter that does not parse as a YAML mapping with a title is refused, not repaired.

/** The parts of a procedure its file holds; the id is the file's slug. */
export type ProcedureContent = Omit<Procedure, 'id'>;

/** A parsed procedure file: the procedure and what a rewrite must keep. */
export interface ProcedureFile {
  /** The procedure, with `id` the file's slug. */
  procedure: Procedure;
  /** Sections other than the four known ones, verbatim, so rewriting the file never drops them. */
  extraSections: string;
}

/** Why a file could not be read as a procedure. */
export class ProcedureFileError extends Error {}

const SECTION_KEYS = {
  steps: 'Steps',
  whatWorks: 'What works',
  whatDoesNotWork: "What doesn't work",
  outputFormat: 'Output format',
} as const;
type SectionKey = keyof typeof SECTION_KEYS;

function sectionKeyOf(heading: string): SectionKey | null {
  const name = heading
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/[^a-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (name === 'steps') return 'steps';
  if (name === 'what works') return 'whatWorks';
  if (name === "what doesn't work" || name === 'what does not work' || name === 'what didn t work') {
    return 'whatDoesNotWork';
  }
  if (name === 'output format' || name === 'output') return 'outputFormat';
  return null;
}

// Device names Windows reserves: a file named so cannot be created there.
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** A file name's slug: lower-case words joined by dashes, at most 60 characters, never a reserved device name. */
export function slugify(text: string, fallback = 'procedure'): string {
  const slug = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  if (slug === '') return fallback;
  return RESERVED.test(slug) ? `${slug}-${fallback}` : slug;
}

/** True for a slug memoir would write: what `<slug>.md` may be named, with no path in it. */
export function isSlug(value: string): boolean {
  return /^[a-z0-9][a-z0-9._-]{0,199}$/i.test(value) && !value.includes('..') && !RESERVED.test(value);
}

/** sha256 of a text, hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// A time a person wrote, e.g. `2026-02-13T10:00:00` (the seed's form, read as UTC) or a date.
const looseTime = z.union([z.string(), z.date()]).transform((value, ctx) => {
  const text = value instanceof Date ? value.toISOString() : value.trim();
  const zoned = /^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(text) ? `${text}Z` : text;
  const ms = Date.parse(zoned);
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', message: `expected a date-time such as 2026-02-13T10:00:00, got "${text}"` });
    return z.NEVER;
  }
  return new Date(ms).toISOString();
});
const count = z.number().int().nonnegative().default(0);
const lines = z
  .union([z.string(), z.array(z.union([z.string(), z.number(), z.boolean()]))])
  .transform((value) => (typeof value === 'string' ? [value] : value.map(String)))
  .default([]);

const frontMatterSchema = z.looseObject({
  title: z
    .union([z.string(), z.number()])
    .transform((value) => String(value).trim())
    .pipe(z.string().min(1)),
  created: looseTime.optional(),
  updated: looseTime.optional(),
  trigger_examples: lines,
  success_count: count,
  failure_count: count,
  last_used: looseTime.nullable().optional(),
  source: z.enum(PROCEDURE_SOURCES).default('reflection'),
  scope: scopeSchema.default({}),
  video_evidence: z.array(videoEvidenceSchema).default([]),
  metadata: z.record(z.string(), z.unknown()).default({}),
});

function splitFrontMatter(text: string): { yaml: string; body: string } {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const match = /^---[ \t]*\n([\s\S]*?)\n?---[ \t]*(?:\n|$)/.exec(normalized);
  if (!match) throw new ProcedureFileError('the file does not start with YAML front matter between two "---" lines');
  return { yaml: match[1] ?? '', body: normalized.slice(match[0].length) };
}

function listItems(block: string): string[] {
  const items: string[] = [];
  for (const raw of block.split('\n')) {
    const line = raw.trimEnd();
    if (line.trim() === '') continue;
    const item = /^\s*(?:\d+[.)]|[-*+])\s+(.*)$/.exec(line);
    if (item) items.push(item[1]!.trim());
    else if (items.length > 0 && /^\s/.test(line)) items[items.length - 1] += ` ${line.trim()}`;
    else items.push(line.trim());
  }
  return items;
}

interface ParsedBody {
  sections: Partial<Record<SectionKey, string>>;
  extraSections: string;
}

function parseBody(body: string): ParsedBody {
  const sections: Partial<Record<SectionKey, string>> = {};
  const extras: string[] = [];
  // Text before the first heading is kept with the extras: a person's note is not dropped.
  const parts = body.split(/^(?=## )/m);
  for (const part of parts) {
    const heading = /^## (.*)\n?/.exec(part);
    const key = heading ? sectionKeyOf(heading[1]!) : null;
    if (key === null || sections[key] !== undefined) {
      if (part.trim() !== '') extras.push(part.trimEnd());
      continue;
    }
    sections[key] = part.slice(heading![0].length).trim();
  }
  return { sections, extraSections: extras.join('\n\n') };
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || 'front matter';
  return `${field}: ${issue?.message ?? 'invalid'}`;
}

/**
 * Parse a procedure file. `slug` becomes the id; `fallbackTime` stands in for a missing
 * `created` or `updated` (the file's modification time). Throws a {@link ProcedureFileError}
 * saying what is wrong when the front matter is missing, is not valid YAML, or has no title.
 */
export function parseProcedureFile(text: string, slug: string, fallbackTime: string): ProcedureFile {
  const { yaml, body } = splitFrontMatter(text);
  const document = parseDocument(yaml, { prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ProcedureFileError(`the front matter is not valid YAML: ${document.errors[0]!.message.split('\n')[0]}`);
  }
  if (!isMap(document.contents))
    throw new ProcedureFileError('the front matter must be a YAML mapping (key: value lines)');
  const parsed = frontMatterSchema.safeParse(document.toJS());
  if (!parsed.success) throw new ProcedureFileError(`the front matter is invalid: ${describeIssue(parsed.error)}`);
  const front = parsed.data;
  const { sections, extraSections } = parseBody(body);
  const created = front.created ?? front.updated ?? fallbackTime;
  const outputFormat = sections.outputFormat?.trim();
  const procedure: Procedure = {
    id: slug,
    title: front.title,
    triggerExamples: front.trigger_examples.map((line) => line.trim()).filter(Boolean),
    steps: listItems(sections.steps ?? ''),
    whatWorks: listItems(sections.whatWorks ?? ''),
    whatDoesNotWork: listItems(sections.whatDoesNotWork ?? ''),
    outputFormat: outputFormat ? outputFormat : null,
    successCount: front.success_count,
    failureCount: front.failure_count,
    lastUsedAt: front.last_used ?? null,
    source: front.source,
    videoEvidence: front.video_evidence,
    scope: front.scope,
    createdAt: created,
    updatedAt: front.updated ?? created,
    metadata: front.metadata as Procedure['metadata'],
  };
  return { procedure, extraSections };
}

const bullets = (items: readonly string[]): string => items.map((item) => `- ${oneLine(item)}`).join('\n');
const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

/**
 * Render a procedure in the seed's format. The front matter holds the seed's keys, then
 * `failure_count`, `source`, `scope`, `video_evidence` and `metadata` only when they say
 * something; `extraSections` (a person's own sections) follow the four known ones.
 */
export function renderProcedureFile(procedure: ProcedureContent, extraSections = ''): string {
  const front: Record<string, unknown> = {
    title: procedure.title,
    created: procedure.createdAt,
    updated: procedure.updatedAt,
    trigger_examples: procedure.triggerExamples,
    success_count: procedure.successCount,
    last_used: procedure.lastUsedAt,
  };
  if (procedure.failureCount > 0) front.failure_count = procedure.failureCount;
  if (procedure.source !== 'reflection') front.source = procedure.source;
  if (Object.keys(procedure.scope).length > 0) front.scope = procedure.scope;
  if (procedure.videoEvidence.length > 0) front.video_evidence = procedure.videoEvidence;
  if (Object.keys(procedure.metadata).length > 0) front.metadata = procedure.metadata;
  const sections = [
    `## ${SECTION_KEYS.steps}\n${procedure.steps.map((step, index) => `${index + 1}. ${oneLine(step)}`).join('\n')}`,
    `## ${SECTION_KEYS.whatWorks}\n${bullets(procedure.whatWorks)}`,
    `## ${SECTION_KEYS.whatDoesNotWork}\n${bullets(procedure.whatDoesNotWork)}`,
    `## ${SECTION_KEYS.outputFormat}\n${procedure.outputFormat?.trim() ?? ''}`,
  ].map((section) => section.trimEnd());
  if (extraSections.trim() !== '') sections.push(extraSections.trim());
  return `---\n${stringify(front, { lineWidth: 0 })}---\n\n${sections.join('\n\n')}\n`;
}

/**
 * Rewrite only the counters of a procedure file (`success_count`, `failure_count`,
 * `last_used`), keeping the rest of the front matter (comments, order) and the body as the
 * person left them.
 */
export function rewriteCounters(
  text: string,
  counters: { successCount: number; failureCount: number; lastUsedAt: string | null },
): string {
  const { yaml, body } = splitFrontMatter(text);
  const document = parseDocument(yaml);
  if (document.errors.length > 0 || !isMap(document.contents)) {
    throw new ProcedureFileError('the front matter is not a valid YAML mapping');
  }
  document.set('success_count', counters.successCount);
  if (counters.failureCount > 0 || document.has('failure_count')) document.set('failure_count', counters.failureCount);
  document.set('last_used', counters.lastUsedAt);
  return `---\n${document.toString({ lineWidth: 0 })}---\n${body}`;
}
