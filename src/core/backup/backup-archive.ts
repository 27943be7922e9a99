/**
 * A memoir backup archive held in memory: building one from dump lines, and reading one
 * back completely with every check. For small archives and tests; `createBackup` and
 * `restoreBackup` stream instead (`backup-writer.ts`, `backup-reader.ts`), with the same checks.
 *
 * @module
 */
import type { Entity, Opinion, Procedure, Session } from '../spec/records.js';
import type { EmbedderIdentity, MemoryRecord } from '../spec/store.js';
import { DumpChecker, LineSplitter } from './backup-dump.js';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupCounts,
  type BackupManifest,
  CONFIG_FILE,
  checkCounts,
  checkFiles,
  emptyCounts,
  invalid,
  KNOWN_FILES,
  MANIFEST_FILE,
  MEMORIES_FILE,
  parseConfig,
  parseManifest,
  sha256,
} from './backup-manifest.js';
import { type ReadTarOptions, readTarGz, type TarInput, writeTarGz } from './tar-format.js';

export {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupCounts,
  type BackupManifest,
  backupManifestSchema,
  CONFIG_FILE,
  MANIFEST_FILE,
  MEMORIES_FILE,
  sha256,
} from './backup-manifest.js';

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
  records: { opinions: Opinion[]; procedures: Procedure[]; sessions: Session[]; entities: Entity[] };
  /** Counts of what was parsed (equal to `manifest.counts`). */
  counts: BackupCounts;
}

/** Tally an {@link exportRecords} dump's lines by type. */
export function countLines(lines: readonly string[]): BackupCounts {
  const counts = emptyCounts();
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

/** Build the gzipped tar of a backup in memory: manifest first, then the dump and the config. */
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
  for (const entry of entries) {
    if (!KNOWN_FILES.has(entry.name)) {
      throw invalid([{ field: entry.name, message: 'unexpected file in a memoir backup' }]);
    }
  }
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const manifestEntry = byName.get(MANIFEST_FILE);
  if (!manifestEntry) throw invalid([{ field: MANIFEST_FILE, message: 'missing from the archive' }]);
  const manifest = parseManifest(manifestEntry.data.toString('utf8'));
  checkFiles(
    manifest,
    new Map(entries.map((entry) => [entry.name, { bytes: entry.size, sha256: sha256(entry.data) }])),
  );

  const dump = byName.get(MEMORIES_FILE);
  if (!dump) throw invalid([{ field: MEMORIES_FILE, message: 'missing from the archive' }]);
  const checker = new DumpChecker();
  const splitter = new LineSplitter();
  const parsed: Pick<ParsedBackup, 'memories' | 'records'> = {
    memories: [],
    records: { opinions: [], procedures: [], sessions: [], entities: [] },
  };
  for (const [text, line] of [...splitter.push(dump.data), ...splitter.end()]) {
    const item = checker.accept(text, line);
    if (!item) continue;
    if (item.key === 'memories') parsed.memories.push(item.record);
    else (parsed.records[item.key] as unknown[]).push(item.record);
  }
  checker.finish();
  checkCounts(manifest, checker.counts);

  const configEntry = byName.get(CONFIG_FILE);
  const config = configEntry ? parseConfig(configEntry.data.toString('utf8')) : null;
  return { manifest, config, embedder: checker.embedder, counts: checker.counts, ...parsed };
}
