/**
 * Backups of a memoir store: `.tar.gz` archives holding a manifest (checksums and counts),
 * a JSON Lines dump of every memory (with embeddings) and record, and the configuration.
 * Restores check the whole archive before touching the store.
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
  /** Delete every memory and record of a store in one transaction. */
  clearStore,
  /** Write a backup of a store into a directory and prune old automatic backups. */
  createBackup,
  /** The backups in a directory, newest first. */
  listBackups,
  /** Keep only the newest N automatic (`auto-`) backups. */
  pruneBackups,
  /** Replace a store's contents with a checked backup. */
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
/** Types of the tar reader and writer. */
export type {
  /** Options of the tar readers. */
  ReadTarOptions,
  /** One regular file read from an archive. */
  TarEntry,
  /** A file to write into an archive. */
  TarInput,
} from './tar-format.js';
/** The minimal ustar writer and strict reader. */
export {
  /** Default cap on the data a tar reader accepts (2 GiB). */
  DEFAULT_MAX_TAR_BYTES,
  /** Read an uncompressed tar into memory, rejecting unsafe entries. */
  readTar,
  /** Read a gzipped tar into memory, rejecting unsafe entries. */
  readTarGz,
  /** Why an entry name is unsafe, or null. */
  unsafeEntryName,
  /** Write an uncompressed ustar archive of regular files. */
  writeTar,
  /** Write a gzipped ustar archive of regular files. */
  writeTarGz,
} from './tar-format.js';
