/**
 * The manifest of a memoir backup archive (format, version, checksums and counts), the
 * names of the archive's files, and the error a damaged archive gets.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../spec/errors.js';
import { scopeSchema } from '../spec/memory.js';

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
/** Every file a backup may hold. */
export const KNOWN_FILES: ReadonlySet<string> = new Set([MANIFEST_FILE, MEMORIES_FILE, CONFIG_FILE]);
/** Largest manifest or configuration accepted: both are small, so a bigger one is hostile. */
export const MAX_SMALL_FILE_BYTES = 16 * 1024 * 1024;

/**
 * How many of each thing a backup holds.
 *
 * @group Backups and maintenance
 */
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

/** A tally of nothing yet. */
export function emptyCounts(): BackupCounts {
  return { memories: 0, opinions: 0, procedures: 0, sessions: 0, entities: 0 };
}

const countSchema = z.number().int().nonnegative();

/** Schema of `manifest.json`. */
export const backupManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT, `expected "${BACKUP_FORMAT}"`),
  version: z.literal(BACKUP_VERSION, `expected version ${BACKUP_VERSION}`),
  createdAt: z.string().min(1),
  name: z.string().min(1),
  /** The scope the backup was limited to; absent for a backup of the whole store. */
  scope: scopeSchema.optional(),
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

/** SHA-256 of `data`, lowercase hex. */
export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The ValidationError of a damaged or hostile backup. */
export function invalid(issues: ValidationIssue[], suggestion?: string): ValidationError {
  return new ValidationError(issues, {
    component: COMPONENT,
    suggestion:
      suggestion ?? 'The backup is damaged or was tampered with; nothing was restored and current data is untouched.',
  });
}

/** Parse and check a manifest's text. */
export function parseManifest(text: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid([{ field: MANIFEST_FILE, message: `not valid JSON (${(error as Error).message})` }]);
  }
  const result = backupManifestSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw invalid([{ field: [MANIFEST_FILE, ...issue.path.map(String)].join('.'), message: issue.message }]);
}

/** Parse a saved configuration's text: a JSON object. */
export function parseConfig(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid([{ field: CONFIG_FILE, message: `not valid JSON (${(error as Error).message})` }]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid([{ field: CONFIG_FILE, message: 'expected a JSON object' }]);
  }
  return value as Record<string, unknown>;
}

/** What the archive held of each file: its size and checksum, as computed while reading. */
export interface SeenFile {
  /** Bytes. */
  bytes: number;
  /** SHA-256, lowercase hex. */
  sha256: string;
}

/**
 * Check what was read against the manifest: every listed file present with its size and
 * checksum, nothing unlisted. Size mismatches are reported before checksum mismatches.
 */
export function checkFiles(manifest: BackupManifest, seen: ReadonlyMap<string, SeenFile>): void {
  for (const [file, expected] of Object.entries(manifest.files)) {
    const entry = seen.get(file);
    if (!entry) throw invalid([{ field: file, message: 'listed in the manifest but missing from the archive' }]);
    if (entry.bytes !== expected.bytes) {
      throw invalid([
        { field: file, message: `size mismatch (manifest ${expected.bytes} bytes, archive ${entry.bytes})` },
      ]);
    }
    if (entry.sha256 !== expected.sha256) {
      throw invalid([
        { field: file, message: `sha256 mismatch (manifest ${expected.sha256}, archive ${entry.sha256})` },
      ]);
    }
  }
  for (const name of seen.keys()) {
    if (name !== MANIFEST_FILE && !Object.hasOwn(manifest.files, name)) {
      throw invalid([{ field: name, message: 'present in the archive but not listed in the manifest' }]);
    }
  }
}

/** Check the dump's tallies against the manifest's. */
export function checkCounts(manifest: BackupManifest, counts: BackupCounts): void {
  for (const key of Object.keys(counts) as (keyof BackupCounts)[]) {
    if (counts[key] !== manifest.counts[key]) {
      throw invalid([
        {
          field: `${MANIFEST_FILE}.counts.${key}`,
          message: `count mismatch (manifest ${manifest.counts[key]}, ${MEMORIES_FILE} holds ${counts[key]})`,
        },
      ]);
    }
  }
}
