import { readdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { EventEmitter } from 'eventemitter3';
import PQueue from 'p-queue';
import { z } from 'zod';
import { MemoirError, ProviderError } from '../core/spec/errors.js';
import type { VideoProvider } from '../core/spec/video-provider.js';
import { sleep, startDeadline, untilAborted } from '../core/utils/deadline.js';
import { processEnvironment } from '../core/utils/environment.js';
import { parseOptions } from '../core/utils/parse-options.js';
import type { RecorderEvents } from './recorder-events.js';
import type { ScreenRecorder } from './screen-recorder.js';
import { SEGMENT_FILE, segmentStartOf } from './segment-name.js';
import { idempotencyKey, type JournalEntry, UploadJournal } from './upload-journal.js';

/**
 * Events of a {@link SegmentUploader}.
 *
 * @group Recorder
 */
export type UploaderEvents = Pick<RecorderEvents, 'uploaded' | 'upload:failed' | 'error'>;

const uploaderOptionsSchema = z
  .object({
    provider: z.custom<VideoProvider>(
      (value) => typeof (value as VideoProvider | null)?.upload === 'function',
      'expected a VideoProvider',
    ),
    outputDir: z.string().min(1),
    journalFile: z.string().min(1).optional(),
    concurrency: z.number().int().min(1).max(16).default(1),
    maxAttempts: z.number().int().min(1).max(100).default(8),
    baseBackoffMs: z.number().int().min(0).max(600_000).default(1000),
    maxBackoffMs: z.number().int().min(0).max(3_600_000).default(300_000),
    maxRetryAfterMs: z.number().int().min(0).max(3_600_000).default(120_000),
    uploadTimeoutMs: z.number().int().min(1).max(86_400_000).default(900_000),
    metadata: z.record(z.string(), z.string()).default({}),
    display: z.string().min(1).max(256).optional(),
  })
  .strict();

/**
 * Options of {@link createSegmentUploader}.
 *
 * @group Recorder
 */
export interface SegmentUploaderOptions {
  /** Where segments go (e.g. `createMemoriesAiProvider()`). */
  provider: VideoProvider;
  /** The recorder's output directory: segments found there and not yet uploaded are sent at start. */
  outputDir: string;
  /** The journal. Default `<outputDir>/upload-journal.jsonl`. */
  journalFile?: string;
  /** Uploads at once. Default 1 (the API allows about one request a second anyway). */
  concurrency?: number;
  /** Attempts per segment before it is reported failed (it is tried again at the next start). Default 8. */
  maxAttempts?: number;
  /** First wait between attempts, doubled each time (with jitter), ms. Default 1000. */
  baseBackoffMs?: number;
  /** Longest wait between attempts, ms. Default 300000. */
  maxBackoffMs?: number;
  /** Longest `Retry-After` honoured, ms; a longer one is cut to this. Default 120000. */
  maxRetryAfterMs?: number;
  /** Longest one upload may take, ms, even with a provider that ignores its signal. Default 900000. */
  uploadTimeoutMs?: number;
  /** Metadata sent with every segment (host, display and recording time are added). */
  metadata?: Record<string, string>;
  /**
   * The display segments are recorded from, sent with each one. Default: the attached
   * recorder's, else the recorder's own default (`$DISPLAY`, else `:0`; the screen index `1`
   * on macOS; `desktop` on Windows). A segment keeps the display it was journaled with.
   */
  display?: string;
}

/**
 * Sends closed segments to a video provider in the background, through a queue of bounded
 * concurrency and a journal on disk. Nothing here throws into the host: failures are events.
 *
 * @group Recorder
 */
export interface SegmentUploader {
  /** Load the journal and queue what is not uploaded yet (earlier failures and segments found on disk). */
  start(): Promise<void>;
  /**
   * Upload a closed segment (idempotent: a segment already journaled is not queued twice).
   * Without `startedAt`, the time in the segment's name is used (the file's creation time for
   * other names); without `display`, the uploader's.
   */
  enqueue(path: string, startedAt?: number, display?: string): Promise<void>;
  /** Upload the recorder's segments as they close, and let its buffer delete only uploaded ones. */
  attach(recorder: ScreenRecorder): void;
  /** Resolves when the queue is empty. */
  idle(): Promise<void>;
  /** Abort uploads in flight and waits (they stay `pending` in the journal and go at the next start). */
  close(): Promise<void>;
  /** Journal entries, by path. */
  entries(): JournalEntry[];
  /** Subscribe to an event. */
  on<E extends keyof UploaderEvents>(event: E, listener: UploaderEvents[E]): SegmentUploader;
  /** Unsubscribe. */
  off<E extends keyof UploaderEvents>(event: E, listener: UploaderEvents[E]): SegmentUploader;
}

/** The recorder's default display, for segments nobody named one for. */
function defaultDisplay(): string {
  if (process.platform === 'darwin') return '1';
  if (process.platform === 'win32') return 'desktop';
  return processEnvironment().DISPLAY ?? ':0';
}

/** When a segment's recording started: its name's time, else the file's creation (or change) time. */
async function startOfSegment(path: string): Promise<number | undefined> {
  const named = segmentStartOf(path);
  if (named !== undefined) return named;
  const info = await stat(path).catch(() => undefined);
  if (!info) return undefined;
  return info.birthtimeMs > 0 ? info.birthtimeMs : info.mtimeMs;
}

/**
 * Make a segment uploader.
 *
 * @example
 * ```ts
 * const uploader = createSegmentUploader({ provider: createMemoriesAiProvider(), outputDir: recorder.options.outputDir });
 * await uploader.start();
 * uploader.attach(recorder);
 * ```
 *
 * @group Recorder
 */
export function createSegmentUploader(options: SegmentUploaderOptions): SegmentUploader {
  const settings = parseOptions(uploaderOptionsSchema, options, 'uploader', 'See SegmentUploaderOptions.');
  const journal = new UploadJournal(settings.journalFile ?? join(settings.outputDir, 'upload-journal.jsonl'));
  const queue = new PQueue({ concurrency: settings.concurrency });
  const events = new EventEmitter<UploaderEvents>();
  const controller = new AbortController();
  const queued = new Set<string>();
  const onUploaded = new Set<(path: string) => void>();
  let loaded: Promise<void> | undefined;
  let attachedDisplay: string | undefined;
  const displayNow = () => settings.display ?? attachedDisplay ?? defaultDisplay();

  const report = (operation: string, error: unknown) => {
    const wrapped = error instanceof Error ? error : new Error(String(error));
    if (events.listenerCount('error') > 0) events.emit('error', { operation, error: wrapped });
  };

  function waitFor(error: unknown, attempt: number): number {
    const retryAfter = ProviderError.isInstance(error) ? error.retryAfterMs : undefined;
    if (retryAfter !== undefined) return Math.min(retryAfter, settings.maxRetryAfterMs);
    const exponential = settings.baseBackoffMs * 2 ** (attempt - 1);
    // Jitter spreads retries of several recorders sharing one account.
    return Math.min(settings.maxBackoffMs, exponential * (0.75 + Math.random() * 0.5));
  }

  async function uploadOne(path: string): Promise<void> {
    const entry = journal.get(path)!;
    const bytes = await stat(path).then(
      (s) => s.size,
      () => -1,
    );
    if (bytes < 0) {
      await journal.record({ ...entry, state: 'gone' });
      events.emit('upload:failed', {
        path,
        error: new Error(`${path} is gone (deleted before upload)`),
        attempt: entry.attempts,
        willRetry: false,
      });
      return;
    }
    // `maxAttempts` counts this run's attempts: a segment that failed before a restart gets a fresh set.
    for (let run = 1; !controller.signal.aborted; run++) {
      const attempt = entry.attempts + run;
      const known = journal.get(path)!;
      // Entries journaled before these were recorded (or by an older memoir) get them now, once.
      const startedAt = known.startedAt ?? (await startOfSegment(path));
      const current: JournalEntry = {
        ...known,
        attempts: attempt,
        display: known.display ?? displayNow(),
        ...(startedAt === undefined ? {} : { startedAt }),
      };
      await journal.record({ ...current, state: 'pending' });
      const recordedAt = current.startedAt === undefined ? undefined : new Date(current.startedAt).toISOString();
      const deadline = startDeadline(settings.uploadTimeoutMs, controller.signal);
      try {
        const uploaded = await untilAborted(
          settings.provider.upload({
            filePath: path,
            idempotencyKey: current.key,
            metadata: {
              ...settings.metadata,
              host: hostname(),
              display: current.display!,
              source: 'screen_recording',
              ...(recordedAt ? { recorded_at: recordedAt } : {}),
            },
            ...(recordedAt ? { recordedAt } : {}),
            signal: deadline.signal,
          }),
          deadline.signal,
        );
        await journal.record({ ...current, state: 'uploaded', videoId: uploaded.videoId });
        for (const listener of onUploaded) listener(path);
        events.emit('uploaded', { path, videoId: uploaded.videoId });
        return;
      } catch (error) {
        if (controller.signal.aborted) return;
        const retryable = !MemoirError.isInstance(error) || (ProviderError.isInstance(error) && error.retryable);
        const willRetry = retryable && run < settings.maxAttempts;
        const failure = error instanceof Error ? error : new Error(String(error));
        events.emit('upload:failed', { path, error: failure, attempt, willRetry });
        if (!willRetry) {
          await journal.record({ ...current, state: 'failed', error: failure.message });
          return;
        }
        await sleep(waitFor(error, run), controller.signal).catch(() => undefined);
      } finally {
        deadline.dispose();
      }
    }
  }

  function schedule(path: string): void {
    if (queued.has(path)) return;
    queued.add(path);
    void queue
      .add(() => uploadOne(path))
      .catch((error: unknown) => report('upload', error))
      .finally(() => queued.delete(path));
  }

  async function journalAndSchedule(path: string, startedAt?: number, display?: string): Promise<void> {
    const existing = journal.get(path);
    if (existing?.state === 'uploaded' || existing?.state === 'gone') return;
    if (!existing) {
      const bytes = (await stat(path)).size;
      const start = startedAt ?? (await startOfSegment(path));
      await journal.record({
        path,
        key: idempotencyKey(path, bytes),
        state: 'pending',
        attempts: 0,
        // A segment found on disk gets its display when it is sent: the recorder may be attached by then.
        ...((display ?? settings.display) ? { display: (display ?? settings.display)! } : {}),
        ...(start === undefined ? {} : { startedAt: start }),
      });
    }
    schedule(path);
  }

  const uploader: SegmentUploader = {
    start() {
      loaded ??= (async () => {
        const entries = await journal.load();
        const known = new Set(entries.map((entry) => entry.path));
        const files = await readdir(settings.outputDir).catch(() => [] as string[]);
        for (const file of files.filter((name) => SEGMENT_FILE.test(name)).sort()) {
          const path = join(settings.outputDir, file);
          if (!known.has(path)) await journalAndSchedule(path);
        }
        for (const entry of entries) if (entry.state === 'pending' || entry.state === 'failed') schedule(entry.path);
      })().catch((error: unknown) => report('journal', error));
      return loaded;
    },
    async enqueue(path, startedAt, display) {
      try {
        await uploader.start();
        await journalAndSchedule(path, startedAt, display);
      } catch (error) {
        report('enqueue', error);
      }
    },
    attach(recorder) {
      attachedDisplay = recorder.options.display;
      recorder.holdUntilUploaded();
      onUploaded.add((path) => recorder.markUploaded(path));
      for (const entry of journal.entries()) if (entry.state === 'uploaded') recorder.markUploaded(entry.path);
      recorder.on(
        'segment',
        (segment) => void uploader.enqueue(segment.path, segment.startedAt, recorder.options.display),
      );
    },
    idle: () => queue.onIdle(),
    async close() {
      controller.abort(new Error('uploader closed'));
      queue.clear();
      await queue.onIdle();
    },
    entries: () => journal.entries(),
    on(event, listener) {
      events.on(event, listener as never);
      return uploader;
    },
    off(event, listener) {
      events.off(event, listener as never);
      return uploader;
    },
  };
  return uploader;
}
