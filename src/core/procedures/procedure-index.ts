import { basename } from 'node:path';
import { type FileSnapshot, readProcedureDirectory } from '../procedure-files/procedure-directory.js';
import {
  type ProcedureFile,
  ProcedureFileError,
  parseProcedureFile,
  sha256,
} from '../procedure-files/procedure-file.js';
import { scopeMatches } from '../search/memory-filter.js';
import type { Scope } from '../spec/memory.js';
import type { Procedure } from '../spec/records.js';
import type { CoreStore } from '../store/store-facade.js';

// The files are the source of truth; the store's `procedures` collection is their index
// (the seed's `procedure_embeddings` table, in whatever store the client has): each record
// is the parsed file plus, under one metadata key, the file's hash and the vectors of its
// title and trigger examples. Syncing compares hashes, so a hand edit is seen on the next
// read and re-embedded only when the embedded text changed.

/** The metadata key of a record's index data; stripped from every procedure handed out. */
export const INDEX_KEY = 'procedureFile';

interface IndexData {
  /** sha256 of the file text the record was parsed from. */
  sha256: string;
  /** sha256 of the embedder id and the embedded texts, so an unchanged title keeps its vectors. */
  embedded: string;
  /** One vector per embedded text: title and triggers together, the title, each trigger. */
  vectors: number[][];
}

/** A procedure read from its file, with the vectors that find it. */
export interface IndexedProcedure {
  /** The procedure (no index data in its metadata). */
  procedure: Procedure;
  /** Absolute path of its file. */
  file: string;
  /** The vectors of its title and trigger examples. */
  vectors: Float32Array[];
  /** Sections a person added, kept by rewrites. */
  extraSections: string;
  /** The file text it was read from. */
  text: string;
}

/** A file that could not be read as a procedure; it is left as it is. */
export interface BrokenProcedureFile {
  /** Absolute path. */
  file: string;
  /** What is wrong, e.g. "the front matter is not valid YAML: …". */
  reason: string;
  /** sha256 of its text, so the same breakage is reported once. */
  sha256: string;
}

/** What a sync needs from the engine. */
export interface IndexContext {
  store: CoreStore;
  directory: string;
  /** The client's scope: only its procedures are read and indexed. */
  scope: Scope | undefined;
  embedderId: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** What a sync found. */
export interface IndexState {
  /** The readable procedures of the scope, by slug order. */
  procedures: IndexedProcedure[];
  /** Files that are not readable procedures (of any scope: their scope cannot be read). */
  broken: BrokenProcedureFile[];
}

/** The texts whose vectors find a procedure. */
export function embeddedTexts(procedure: Pick<Procedure, 'title' | 'triggerExamples'>): string[] {
  return [[procedure.title, ...procedure.triggerExamples].join('\n'), procedure.title, ...procedure.triggerExamples];
}

/** A procedure without the index data in its metadata. */
export function withoutIndexData(procedure: Procedure): Procedure {
  if (!(INDEX_KEY in procedure.metadata)) return procedure;
  const { [INDEX_KEY]: _index, ...metadata } = procedure.metadata;
  return { ...procedure, metadata };
}

function indexDataOf(record: Procedure | undefined): IndexData | undefined {
  const data = record?.metadata[INDEX_KEY];
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const candidate = data as Partial<IndexData>;
  return typeof candidate.sha256 === 'string' &&
    typeof candidate.embedded === 'string' &&
    Array.isArray(candidate.vectors)
    ? (candidate as IndexData)
    : undefined;
}

function parseSnapshot(snapshot: FileSnapshot): ProcedureFile | BrokenProcedureFile {
  try {
    return parseProcedureFile(snapshot.text, snapshot.slug, snapshot.modifiedAt);
  } catch (error) {
    const reason = error instanceof ProcedureFileError ? error.message : `unreadable: ${String(error)}`;
    return { file: snapshot.path, reason, sha256: sha256(snapshot.text) };
  }
}

/** Index one parsed file: reuse the stored vectors when the embedded text is unchanged. */
async function indexFile(
  context: IndexContext,
  snapshot: FileSnapshot,
  parsed: ProcedureFile,
  record: Procedure | undefined,
): Promise<{ indexed: IndexedProcedure; changed: Procedure | null }> {
  const fileHash = sha256(snapshot.text);
  const previous = indexDataOf(record);
  const texts = embeddedTexts(parsed.procedure);
  const embedded = sha256(`${context.embedderId}\n${texts.join('\n')}`);
  let vectors: number[][];
  if (previous && previous.embedded === embedded) vectors = previous.vectors;
  else vectors = (await context.embed(texts)).map((vector) => Array.from(vector));
  const indexed: IndexedProcedure = {
    procedure: parsed.procedure,
    file: snapshot.path,
    vectors: vectors.map((vector) => Float32Array.from(vector)),
    extraSections: parsed.extraSections,
    text: snapshot.text,
  };
  if (previous && previous.sha256 === fileHash && previous.embedded === embedded) return { indexed, changed: null };
  const data = { sha256: fileHash, embedded, vectors } satisfies IndexData;
  return {
    indexed,
    changed: {
      ...parsed.procedure,
      metadata: { ...parsed.procedure.metadata, [INDEX_KEY]: { ...data } },
    },
  };
}

/**
 * Bring the index up to date with the directory: parse every file, re-index the changed
 * ones (re-embedding only when title or triggers changed), drop the records of deleted files,
 * and report unreadable files without touching them or their last good record.
 */
export async function syncIndex(context: IndexContext, only?: readonly string[]): Promise<IndexState> {
  const { snapshots, refused } = await readProcedureDirectory(context.directory);
  const wanted = only ? new Set(only) : undefined;
  const records = await context.store.procedures.list(context.scope ? { scope: context.scope } : {});
  const bySlug = new Map(records.map((record) => [record.id, record]));
  const procedures: IndexedProcedure[] = [];
  const broken: BrokenProcedureFile[] = [];
  const changed: Procedure[] = [];
  const present = new Set<string>();
  // A link leading out of the directory, or a file too big to be a procedure, is reported and
  // never read; a record it had leaves the index, as for a deleted file.
  for (const entry of refused) {
    if (wanted && !wanted.has(basename(entry.path, '.md'))) continue;
    broken.push({ file: entry.path, reason: `not read: it ${entry.reason}`, sha256: sha256(entry.reason) });
  }
  for (const snapshot of snapshots) {
    present.add(snapshot.slug);
    if (wanted && !wanted.has(snapshot.slug)) continue;
    const parsed = parseSnapshot(snapshot);
    if (!('procedure' in parsed)) {
      broken.push(parsed);
      continue;
    }
    if (!scopeMatches(parsed.procedure.scope, context.scope)) continue;
    const result = await indexFile(context, snapshot, parsed, bySlug.get(snapshot.slug));
    procedures.push(result.indexed);
    if (result.changed) changed.push(result.changed);
  }
  // A record whose file is gone was deleted by a person: the file is the truth. Records
  // without index data were stored before procedures had files, and are left alone.
  const gone = records
    .filter((record) => !present.has(record.id) && indexDataOf(record) !== undefined)
    .filter((record) => !wanted || wanted.has(record.id))
    .map((record) => record.id);
  if (changed.length > 0) await context.store.procedures.upsert(changed);
  if (gone.length > 0) await context.store.procedures.delete(gone);
  procedures.sort((a, b) => (a.procedure.id < b.procedure.id ? -1 : a.procedure.id > b.procedure.id ? 1 : 0));
  return { procedures, broken };
}
