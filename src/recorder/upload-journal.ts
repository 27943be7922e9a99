import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

/** Where a segment stands with the uploader. */
export type UploadState = 'pending' | 'uploaded' | 'failed' | 'gone';

/** One segment's line in the journal. */
export interface JournalEntry {
  /** Absolute path of the segment. */
  path: string;
  /** The idempotency key sent with every attempt, so a retry after a lost answer is not indexed twice. */
  key: string;
  /** Where it stands. */
  state: UploadState;
  /** The provider's id, once uploaded. */
  videoId?: string;
  /** When recording of it started, epoch ms. */
  startedAt?: number;
  /** The display it was recorded from (`:0`), sent with it. */
  display?: string;
  /** Attempts so far. */
  attempts: number;
  /** Last error, when failed. */
  error?: string;
}

/** A stable key for a segment: its name (time and run id) and size. */
export function idempotencyKey(path: string, bytes: number): string {
  return `memoir-${basename(path, '.mp4')}-${bytes}`;
}

/**
 * An append-only JSON-lines file of upload states. A state is written before the work it
 * announces (`pending` before the first byte is sent), so after a crash every segment is
 * either known uploaded or uploaded again under the same idempotency key — never lost, never
 * indexed twice. Loading folds the lines (the last one per path wins) and rewrites the file compactly.
 */
export class UploadJournal {
  private readonly byPath = new Map<string, JournalEntry>();
  private writes: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  /** Read and compact the journal; a torn last line (a crash mid-write) is skipped. */
  async load(): Promise<JournalEntry[]> {
    await mkdir(dirname(this.file), { recursive: true });
    const text = await readFile(this.file, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line) as JournalEntry;
        if (typeof entry.path === 'string' && typeof entry.key === 'string') this.byPath.set(entry.path, entry);
      } catch {
        // Only the last line can be torn; everything before it was flushed whole.
      }
    }
    const compact = [...this.byPath.values()].map((entry) => JSON.stringify(entry)).join('\n');
    await writeFile(`${this.file}.tmp`, compact ? `${compact}\n` : '');
    await rename(`${this.file}.tmp`, this.file);
    return [...this.byPath.values()];
  }

  /** Every entry, by path. */
  entries(): JournalEntry[] {
    return [...this.byPath.values()];
  }

  /** The entry of a path. */
  get(path: string): JournalEntry | undefined {
    return this.byPath.get(path);
  }

  /** Record a new state; resolves once the line is on disk. */
  record(entry: JournalEntry): Promise<void> {
    this.byPath.set(entry.path, { ...entry });
    const line = `${JSON.stringify(entry)}\n`;
    this.writes = this.writes.then(() => appendFile(this.file, line));
    return this.writes;
  }
}
