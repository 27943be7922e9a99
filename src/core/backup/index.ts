/**
 * Backups of a memoir store: `.tar.gz` archives holding a manifest (checksums and counts),
 * a JSON Lines dump of every memory (with embeddings) and record, and the configuration.
 * Archives are written and read as streams; restores check the whole archive before
 * touching the store.
 *
 * @module
 */

/** Options and results of the backup functions. */
export type {
  /** What `createBackup` resolves to. */
  BackupInfo,
  /** One archive found by `listBackups`. */
  BackupListing,
  /** Options of `createBackup`. */
  CreateBackupOptions,
  /** Options of `restoreBackup`. */
  RestoreOptions,
  /** What `restoreBackup` resolves to. */
  RestoreReport,
} from './backup.js';
/** Create, list, prune and restore backups, and empty a store. */
export {
  /** Delete every memory and record of a store (or of one scope) in one transaction. */
  clearStore,
  /** Write a backup of a store into a directory and prune old automatic backups. */
  createBackup,
  /** The backups in a directory, newest first. */
  listBackups,
  /** Keep only the newest N automatic (`auto-`) backups. */
  pruneBackups,
  /** Replace a store's contents (or one scope's) with a checked backup. */
  restoreBackup,
  /** The file-name-safe form of a backup name. */
  sanitizeBackupName,
} from './backup.js';
/** Types of the archive's contents. */
export type {
  /** How many of each thing a backup holds. */
  BackupCounts,
  /** The manifest of a backup archive. */
  BackupManifest,
  /** A backup archive read and checked by `readBackupArchive`. */
  ParsedBackup,
} from './backup-archive.js';
/** The archive's contents: manifest schema, building and full in-memory checking. */
export {
  /** `format` of every backup manifest. */
  BACKUP_FORMAT,
  /** Manifest version written and read. */
  BACKUP_VERSION,
  /** Zod schema of `manifest.json`. */
  backupManifestSchema,
  /** Build the gzipped tar of a backup from dump lines. */
  buildBackupArchive,
  /** Read and check a backup archive in memory, writing nothing. */
  readBackupArchive,
} from './backup-archive.js';
/** The longest dump line a reader accepts. */
export { MAX_LINE_BYTES } from './backup-dump.js';
/** Options and result of the streaming checks. */
export type {
  /** Options of `scanBackup` and `verifyBackup`. */
  ScanBackupOptions,
  /** What a scan found. */
  ScannedBackup,
} from './backup-reader.js';
/** Streaming checks of a backup archive. */
export {
  /** Default cap on what a backup may unpack to (64 GiB). */
  DEFAULT_MAX_BACKUP_BYTES,
  /** Check a gzipped backup from a stream, handing out its records in batches. */
  scanBackup,
  /** Read a backup file back completely and check it, writing nothing. */
  verifyBackup,
} from './backup-reader.js';
/** Types of the tar reader and writer. */
export type {
  /** Options of the tar readers. */
  ReadTarOptions,
  /** One regular file read from an archive. */
  TarEntry,
  /** A file to write into an archive. */
  TarInput,
} from './tar-format.js';
/** The minimal ustar writer and strict reader, in memory. */
export {
  /** Default cap on the data an in-memory tar reader accepts (2 GiB). */
  DEFAULT_MAX_TAR_BYTES,
  /** Read an uncompressed tar into memory, rejecting unsafe entries. */
  readTar,
  /** Read a gzipped tar into memory, rejecting unsafe entries. */
  readTarGz,
  /** Write an uncompressed ustar archive of regular files. */
  writeTar,
  /** Write a gzipped ustar archive of regular files. */
  writeTarGz,
} from './tar-format.js';
/** Why an entry name is unsafe, or null. */
export { unsafeEntryName } from './tar-header.js';
/** Types of the streaming tar reader and writer. */
export type {
  /** One regular file read by `readTarStream`. */
  TarStreamEntry,
  /** A file to write with `tarStream`. */
  TarStreamInput,
} from './tar-stream.js';
/** The streaming ustar writer and strict reader, and a gunzip that caps its output. */
export {
  /** Gunzip a stream, refusing output beyond a cap as it flows. */
  gunzipStream,
  /** Read the entries of a tar stream one at a time, with the in-memory reader's checks. */
  readTarStream,
  /** The blocks of a ustar archive, yielded as its entries' data arrives. */
  tarStream,
} from './tar-stream.js';
