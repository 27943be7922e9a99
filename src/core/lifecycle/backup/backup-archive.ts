/**
 * The contents of a memoir backup archive: a `manifest.json` (format, version, checksums
 * and counts), `memories.jsonl` (an {@link exportRecords} dump) and an optional
 * `config.json`. Building one, and checking one completely in memory before anything
 * is restored from it.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../../spec/errors.js';
import { memorySchema } from '../../spec/memory.js';
import { entitySchema, opinionSchema, procedureSchema, sessionSchema } from '../../spec/records.js';
import type { EmbedderIdentity, MemoryRecord } from '../../spec/store.js';
import { toValidationIssues } from '../../utils/validate.js';
import { decodeEmbedding } from '../transfer.js';
import { type ReadTarOptions, readTarGz, type TarInput, writeTarGz } from './tar-format.js';

const COMPONENT = 'backup';
/** `format` of every backup manifest. */
export const BACKUP_FORMAT = 'memoir-backup';
/** Manifest version this module writes and reads. */
export const BACKUP_VERSION = 1;
/** Name of the manifest entry. */
export const MANIFEST_FILE = 'manifest.json';
/** Name of the JSON Lines dump entry. */
export const MEMORIES_FILE = 'memories.jsonl';
/** Name of the configuration entry. */
export const CONFIG_FILE = 'config.json';
const KNOWN_FILES = new Set([MANIFEST_FILE, MEMORIES_FILE, CONFIG_FILE]);

/** How many of each thing a backup holds. */
export interface BackupCounts {
  /** Memories. */
  memories: number;
  /** Opinions. */
  opinions: number;
  /** Procedures. */
  procedures: number;
  /** Sessions. */
  sessions: number;
  /** Entities. */
  entities: number;
}

const countSchema = z.number().int().nonnegative();

/** Schema of `manifest.json`. */
export const backupManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT, `expected "${BACKUP_FORMAT}"`),
  version: z.literal(BACKUP_VERSION, `expected version ${BACKUP_VERSION}`),
  createdAt: z.string().min(1),
  name: z.string().min(1),
  files: z.record(
    z.string(),
    z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits'), bytes: countSchema }),
  ),
  counts: z.object({
    memories: countSchema,
    opinions: countSchema,
    procedures: countSchema,
    sessions: countSchema,
    entities: countSchema,
  }),
});

/** The manifest of a backup archive. */
export type BackupManifest = z.output<typeof backupManifestSchema>;

/** A backup archive read and fully checked by {@link readBackupArchive}. */
export interface ParsedBackup {
  /** The manifest. */
  manifest: BackupManifest;
  /** The configuration saved with the backup, or null. */
  config: Record<string, unknown> | null;
  /** Embedder named by the dump's header, or null when it has none. */
  embedder: EmbedderIdentity | null;
  /** The memories with their (decoded) embeddings. */
  memories: MemoryRecord[];
  /** The other records, by collection. */
  records: {
    opinions: z.output<typeof opinionSchema>[];
    procedures: z.output<typeof procedureSchema>[];
    sessions: z.output<typeof sessionSchema>[];
    entities: z.output<typeof entitySchema>[];
  };
  /** Counts of what was parsed (equal to `manifest.counts`). */
  counts: BackupCounts;
}

/** SHA-256 of `data`, lowercase hex. */
export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

function invalid(issues: ValidationIssue[], suggestion?: string): ValidationError {
  return new ValidationError(issues, {
    component: COMPONENT,
    suggestion:
      suggestion ?? 'The backup is damaged or was tampered with; nothing was restored and current data is untouched.',
  });
}

/** Tally an {@link exportRecords} dump's lines by type. */
export function countLines(lines: readonly string[]): BackupCounts {
  const counts: BackupCounts = { memories: 0, opinions: 0, procedures: 0, sessions: 0, entities: 0 };
  for (const line of lines) {
    if (line.trim() === '') continue;
    const type = (JSON.parse(line) as { type?: unknown }).type;
    if (type === 'memory') counts.memories += 1;
    else if (type === 'opinion') counts.opinions += 1;
    else if (type === 'procedure') counts.procedures += 1;
    else if (type === 'session') counts.sessions += 1;
    else if (type === 'entity') counts.entities += 1;
  }
  return counts;
}

/** Build the gzipped tar of a backup: manifest first, then the dump and the config. */
export function buildBackupArchive(input: {
  name: string;
  createdAt: string;
  lines: readonly string[];
  config?: Record<string, unknown>;
  mtime?: number;
}): { archive: Buffer; manifest: BackupManifest } {
  const files: TarInput[] = [
    { name: MEMORIES_FILE, data: Buffer.from(input.lines.map((line) => `${line}\n`).join('')) },
  ];
  if (input.config !== undefined) {
    files.push({ name: CONFIG_FILE, data: Buffer.from(`${JSON.stringify(input.config, null, 2)}\n`) });
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: input.createdAt,
    name: input.name,
    files: Object.fromEntries(
      files.map((file) => [file.name, { sha256: sha256(file.data), bytes: (file.data as Buffer).length }]),
    ),
    counts: countLines(input.lines),
  };
  const entries: TarInput[] = [{ name: MANIFEST_FILE, data: `${JSON.stringify(manifest, null, 2)}\n` }, ...files];
  return { archive: writeTarGz(entries.map((entry) => ({ ...entry, mtime: input.mtime }))), manifest };
}

const headerSchema = z.object({
  type: z.literal('header'),
  format: z.literal('memoir-jsonl', 'expected "memoir-jsonl"'),
  version: z.literal(1, 'expected version 1'),
  embedder: z.object({ id: z.string().min(1), dimensions: z.number().int().positive() }).nullable(),
});
const memoryLineSchema = z.object({
  type: z.literal('memory'),
  memory: memorySchema,
  embedding: z.string().nullable(),
});
const recordSchemas = {
  opinion: { key: 'opinions', schema: z.object({ type: z.literal('opinion'), record: opinionSchema }) },
  procedure: { key: 'procedures', schema: z.object({ type: z.literal('procedure'), record: procedureSchema }) },
  session: { key: 'sessions', schema: z.object({ type: z.literal('session'), record: sessionSchema }) },
  entity: { key: 'entities', schema: z.object({ type: z.literal('entity'), record: entitySchema }) },
} as const;

function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalid(toValidationIssues(result.error, value, where));
}

/** Validate every line of a dump the way {@link importRecords} would, without writing anything. */
function parseDump(text: string): Omit<ParsedBackup, 'manifest' | 'config'> {
  const parsed: Omit<ParsedBackup, 'manifest' | 'config'> = {
    embedder: null,
    memories: [],
    records: { opinions: [], procedures: [], sessions: [], entities: [] },
    counts: { memories: 0, opinions: 0, procedures: 0, sessions: 0, entities: 0 },
  };
  const lines = text.split('\n');
  let sawHeader = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === '') continue;
    const where = `${MEMORIES_FILE} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw invalid([{ field: where, message: `not valid JSON (${(error as Error).message})` }]);
    }
    const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
    if (!sawHeader) {
      const header = parseWith(headerSchema, value, where);
      parsed.embedder = header.embedder;
      sawHeader = true;
      continue;
    }
    if (type === 'memory') {
      const entry = parseWith(memoryLineSchema, value, where);
      let embedding: Float32Array | null = null;
      if (entry.embedding !== null) {
        embedding = parsed.embedder ? decodeEmbedding(entry.embedding, parsed.embedder.dimensions) : null;
        if (!embedding) {
          throw invalid([
            {
              field: `${where}.embedding`,
              message: 'expected base64 of float32 values matching the header dimensions',
            },
          ]);
        }
      }
      parsed.memories.push({ memory: entry.memory, embedding });
      parsed.counts.memories += 1;
    } else if (typeof type === 'string' && Object.hasOwn(recordSchemas, type)) {
      const { key, schema } = recordSchemas[type as keyof typeof recordSchemas];
      const entry = parseWith(schema, value, where) as { record: unknown };
      (parsed.records[key] as unknown[]).push(entry.record);
      parsed.counts[key] += 1;
    } else {
      throw invalid([{ field: `${where}.type`, message: `unknown line type ${JSON.stringify(type) ?? 'nothing'}` }]);
    }
  }
  if (!sawHeader) throw invalid([{ field: MEMORIES_FILE, message: 'the dump is empty (no header line)' }]);
  return parsed;
}

/**
 * Read a backup archive completely in memory and check everything: safe entry names and
 * regular files only, a manifest of the right format and version, every file's size and
 * SHA-256 against the manifest, every dump line against the model schemas, and the counts.
 * Nothing is written anywhere.
 *
 * @throws ValidationError naming the first problem found.
 */
export function readBackupArchive(archive: Buffer, options: ReadTarOptions = {}): ParsedBackup {
  const entries = readTarGz(archive, options);
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  for (const entry of entries) {
    if (!KNOWN_FILES.has(entry.name)) {
      throw invalid([{ field: entry.name, message: 'unexpected file in a memoir backup' }]);
    }
  }
  const manifestEntry = byName.get(MANIFEST_FILE);
  if (!manifestEntry) throw invalid([{ field: MANIFEST_FILE, message: 'missing from the archive' }]);
  let manifestValue: unknown;
  try {
    manifestValue = JSON.parse(manifestEntry.data.toString('utf8'));
  } catch (error) {
    throw invalid([{ field: MANIFEST_FILE, message: `not valid JSON (${(error as Error).message})` }]);
  }
  const manifest = parseWith(backupManifestSchema, manifestValue, MANIFEST_FILE);

  for (const [file, expected] of Object.entries(manifest.files)) {
    const entry = byName.get(file);
    if (!entry) throw invalid([{ field: file, message: 'listed in the manifest but missing from the archive' }]);
    if (entry.size !== expected.bytes) {
      throw invalid([
        { field: file, message: `size mismatch (manifest ${expected.bytes} bytes, archive ${entry.size})` },
      ]);
    }
    const actual = sha256(entry.data);
    if (actual !== expected.sha256) {
      throw invalid([{ field: file, message: `sha256 mismatch (manifest ${expected.sha256}, archive ${actual})` }]);
    }
  }
  for (const entry of entries) {
    if (entry.name !== MANIFEST_FILE && !Object.hasOwn(manifest.files, entry.name)) {
      throw invalid([{ field: entry.name, message: 'present in the archive but not listed in the manifest' }]);
    }
  }

  const dump = byName.get(MEMORIES_FILE);
  if (!dump) throw invalid([{ field: MEMORIES_FILE, message: 'missing from the archive' }]);
  const parsed = parseDump(dump.data.toString('utf8'));
  for (const key of Object.keys(parsed.counts) as (keyof BackupCounts)[]) {
    if (parsed.counts[key] !== manifest.counts[key]) {
      throw invalid([
        {
          field: `${MANIFEST_FILE}.counts.${key}`,
          message: `count mismatch (manifest ${manifest.counts[key]}, ${MEMORIES_FILE} holds ${parsed.counts[key]})`,
        },
      ]);
    }
  }

  let config: Record<string, unknown> | null = null;
  const configEntry = byName.get(CONFIG_FILE);
  if (configEntry) {
    let value: unknown;
    try {
      value = JSON.parse(configEntry.data.toString('utf8'));
    } catch (error) {
      throw invalid([{ field: CONFIG_FILE, message: `not valid JSON (${(error as Error).message})` }]);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw invalid([{ field: CONFIG_FILE, message: 'expected a JSON object' }]);
    }
    config = value as Record<string, unknown>;
  }
  return { manifest, config, ...parsed };
}
