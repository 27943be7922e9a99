import type { BackupListing } from '../backup/backup-files.js';
import { listBackupSummaries } from '../backup/backup-list.js';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import { readProcedureFiles } from '../procedure-files/procedure-directory.js';
import { ProcedureFileError, parseProcedureFile } from '../procedure-files/procedure-file.js';
import { MemoirError } from '../spec/errors.js';
import type { ResolvedStoreCapabilities } from '../utils/store-capabilities.js';

/**
 * What `doctor()` found.
 *
 * @group Backups and maintenance
 */
export interface DoctorReport {
  /** The store's name (`sqlite`, `in-memory`, …). */
  store: string;
  /** What the store declares it guarantees (transactions, between processes) and the optional members it lacks. */
  capabilities: ResolvedStoreCapabilities;
  /** True when nothing is wrong with the stored data. */
  ok: boolean;
  /**
   * How the store was checked: `check` when it checked itself (integrity of its files and
   * indexes), `probe` when it has no `check()` and was only opened and counted.
   */
  method: 'check' | 'probe';
  /** What is wrong, one sentence each; empty when `ok`. */
  problems: string[];
  /** What to do about it, when known (for the SQLite store, the `memoir doctor` repair commands). */
  suggestion: string | undefined;
  /** Facts the store reported beside the verdict (file, size, which checks ran). */
  details: Record<string, string | number | boolean | null>;
  /** The backups a repair could start from (listed, not verified). */
  backups: {
    /** The backup directory. */
    directory: string;
    /** How many backups it holds (a scoped client: of its scope). */
    count: number;
    /**
     * The newest backup of the whole store, or null when there is none. A backup made by a
     * scoped client holds one scope only and never repairs a whole store, so it is never this.
     */
    newest: BackupListing | null;
  };
  /** The procedure files: how many, and the ones that are not readable (left untouched until a person fixes them). */
  procedures: {
    /** Their directory, or null when the client has none (no home given). */
    directory: string | null;
    /** Readable procedure files. */
    count: number;
    /** Files that do not parse, with the reason. */
    invalid: Array<{
      /** Absolute path. */
      file: string;
      /** What is wrong. */
      reason: string;
    }>;
  };
}

/**
 * Checking the store for damage.
 *
 * @group Client
 */
export interface DoctorApi {
  /**
   * Check the store for damage without changing anything, and list the backups a repair
   * could start from. Resolves with the findings rather than rejecting when the store is
   * damaged, and works when the store cannot open because of it. Repairing is the
   * `memoir doctor` command's job: it moves a damaged file aside (never deleting it) and
   * salvages what it holds or restores a backup.
   */
  doctor(): Promise<DoctorReport>;
}

async function probe(engine: MemoryEngine): Promise<Pick<DoctorReport, 'ok' | 'problems' | 'suggestion'>> {
  try {
    await engine.ready('doctor');
    await engine.store.stats();
    return { ok: true, problems: [], suggestion: undefined };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      problems: [message.replace(/^\[memoir\] /, '')],
      suggestion: MemoirError.isInstance(error) ? error.suggestion : undefined,
    };
  }
}

async function checkProcedureFiles(directory: string | undefined): Promise<DoctorReport['procedures']> {
  if (directory === undefined) return { directory: null, count: 0, invalid: [] };
  const files = await readProcedureFiles(directory).catch(() => []);
  const invalid: DoctorReport['procedures']['invalid'] = [];
  for (const file of files) {
    try {
      parseProcedureFile(file.text, file.slug, file.modifiedAt);
    } catch (error) {
      invalid.push({ file: file.path, reason: error instanceof ProcedureFileError ? error.message : String(error) });
    }
  }
  return { directory, count: files.length - invalid.length, invalid };
}

/** The doctor feature over an engine: the store's own check when it has one, else an open-and-count probe. */
export function createDoctorApi(engine: MemoryEngine): DoctorApi {
  return drained<AsyncMembers<DoctorApi>>({
    async doctor() {
      const { store } = engine;
      // Not through engine.ready(): a damaged store cannot open, and the check must still run.
      const checked = store.check ? await store.check() : undefined;
      const verdict = checked
        ? { ok: checked.ok, problems: checked.problems, suggestion: checked.suggestion }
        : await probe(engine);
      const directory = engine.backupDirectory();
      const backups = await listBackupSummaries(directory, engine.scope).catch(() => []);
      const whole = backups.find((backup) => backup.scope === null && backup.problem === null);
      return {
        store: store.name,
        capabilities: store.capabilities,
        method: checked ? 'check' : 'probe',
        ...verdict,
        details: checked?.details ?? {},
        backups: { directory, count: backups.length, newest: whole ?? null },
        procedures: await checkProcedureFiles(engine.procedureDirectory()),
      };
    },
  });
}
