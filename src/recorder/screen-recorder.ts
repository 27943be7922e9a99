import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EventEmitter } from 'eventemitter3';
import { ConfigError } from '../core/spec/errors.js';
import { sleep } from '../core/utils/deadline.js';
import { Mutex } from '../core/utils/mutex.js';
import { recorderArguments } from './capture-arguments.js';
import { discoverFfmpeg, type FfmpegInstallation, findOnPath } from './ffmpeg-discovery.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { truncateSegment } from './privacy-cut.js';
import type { RecorderEvents, RecorderState, SegmentInfo } from './recorder-events.js';
import {
  matchPattern,
  type ParsedRecorderOptions,
  parseRecorderOptions,
  type ScreenRecorderOptions,
} from './recorder-options.js';
import { type BufferedSegment, planEvictions } from './rolling-buffer.js';
import { type SegmentListEntry, SegmentListWatcher } from './segment-list.js';
import { SEGMENT_FILE } from './segment-name.js';
import { type ActiveWindow, X11ActiveWindowWatcher } from './x11-active-window.js';

/**
 * One segment's numbers in {@link RecorderStats}.
 *
 * @group Recorder
 */
export interface SegmentStats {
  /** Absolute path. */
  path: string;
  /** Size in bytes. */
  bytes: number;
  /** Length, seconds (0 for files found from an earlier run). */
  durationSeconds: number;
  /** Whether it has been uploaded. */
  uploaded: boolean;
}

/**
 * What {@link ScreenRecorder.stats} reports.
 *
 * @group Recorder
 */
export interface RecorderStats {
  /** Current state. */
  state: RecorderState;
  /** Segments in the buffer, oldest first. */
  segments: SegmentStats[];
  /** Bytes in the buffer. */
  totalBytes: number;
  /** CPU seconds (user + system) ffmpeg used since `start()`, over every run. */
  ffmpegCpuSeconds: number;
  /** Seconds of video recorded since `start()`. */
  recordedSeconds: number;
  /** How many times an excluded window paused recording. */
  privacyPauses: number;
}

/**
 * An always-on screen recorder over ffmpeg: segments, a rolling buffer, pause and resume,
 * and privacy pauses. Every method resolves when its work is done and never throws for
 * background trouble: that arrives as an `error` event.
 *
 * @group Recorder
 */
export interface ScreenRecorder {
  /** The options in effect (defaults filled). */
  readonly options: ParsedRecorderOptions;
  /** Find ffmpeg (once), then start recording; resolves when the first frame was grabbed. Rejects with a ConfigError when ffmpeg or its input is missing. */
  start(): Promise<void>;
  /** Stop capturing; the open segment is finished and closed. */
  pause(): Promise<void>;
  /** Capture again (unless an excluded window is active: then when it goes). */
  resume(): Promise<void>;
  /** Finish the open segment (`q`, then SIGTERM, then SIGKILL, bounded waits) and stop watching. */
  stop(): Promise<void>;
  /** Current state. */
  status(): RecorderState;
  /** Numbers: CPU seconds, bytes per segment, recorded time. */
  stats(): RecorderStats;
  /** From now on keep segments until {@link markUploaded} (the uploader calls this when it attaches). */
  holdUntilUploaded(): void;
  /** Record that a segment was uploaded, so the rolling buffer may delete it. */
  markUploaded(path: string): void;
  /** Subscribe to an event. */
  on<E extends keyof RecorderEvents>(event: E, listener: RecorderEvents[E]): ScreenRecorder;
  /** Unsubscribe. */
  off<E extends keyof RecorderEvents>(event: E, listener: RecorderEvents[E]): ScreenRecorder;
  /** Subscribe to the next occurrence of an event. */
  once<E extends keyof RecorderEvents>(event: E, listener: RecorderEvents[E]): ScreenRecorder;
}

interface Run {
  id: string;
  process: FfmpegProcess;
  list: SegmentListWatcher;
  listPath: string;
  /** Frames grabbed at or after this epoch ms are cut (an excluded window appeared). */
  cutAfter?: number;
  stopped: boolean;
}

const START_TIMEOUT_MS = 15_000;
const MAX_RESTARTS = 5;

/**
 * Make a screen recorder. Nothing runs until `start()`.
 *
 * @example
 * ```ts
 * const recorder = createScreenRecorder({ segmentSeconds: 300 });
 * recorder.on('segment', (s) => console.log('closed', s.path));
 * await recorder.start();
 * ```
 *
 * @group Recorder
 */
export function createScreenRecorder(options?: ScreenRecorderOptions): ScreenRecorder {
  const settings = parseRecorderOptions(options);
  const events = new EventEmitter<RecorderEvents>();
  const transitions = new Mutex();
  const buffer: Array<BufferedSegment & { durationSeconds: number }> = [];
  const uploaded = new Set<string>();
  // How long after a frame an excluded window could have appeared unseen: one frame plus xprop's latency.
  const marginMs = 1000 / settings.fps + 250;
  let holdForUpload = false;
  let ffmpeg: FfmpegInstallation | undefined;
  let run: Run | undefined;
  let started = false;
  let stopping = false;
  let manualPause = false;
  let privacyMatch: string | undefined;
  let state: RecorderState = 'idle';
  let finishedCpu = 0;
  let recordedSeconds = 0;
  let privacyPauses = 0;
  let restarts = 0;
  let entries: Promise<void> = Promise.resolve();
  const watcher =
    settings.privacy && settings.input === 'x11grab'
      ? new X11ActiveWindowWatcher(
          settings.display,
          (window) => void onWindow(window),
          (message) => fail('privacy watch', new Error(message)),
        )
      : undefined;

  const fail = (operation: string, error: Error) => {
    if (events.listenerCount('error') > 0) events.emit('error', { operation, error });
  };
  const setState = (next: RecorderState) => {
    if (next === state) return;
    state = next;
    events.emit('state', next);
  };
  const audit = (line: Record<string, unknown>) =>
    appendFile(
      join(settings.outputDir, 'privacy-audit.log'),
      `${JSON.stringify({ at: new Date().toISOString(), ...line })}\n`,
    ).catch((error: Error) => fail('privacy audit', error));
  const capturing = () => started && !stopping && !manualPause && privacyMatch === undefined;
  const withLock = async <T>(work: () => Promise<T>): Promise<T> => {
    const release = await transitions.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  };

  async function prune(): Promise<void> {
    const plan = planEvictions(
      buffer.map((segment) => ({ ...segment, uploaded: !holdForUpload || uploaded.has(segment.path) })),
      settings,
    );
    for (const { segment, reason } of plan) {
      const index = buffer.findIndex((entry) => entry.path === segment.path);
      if (index >= 0) buffer.splice(index, 1);
      await rm(segment.path, { force: true }).catch((error: Error) => fail('rotate', error));
      events.emit('segment:deleted', { path: segment.path, reason, uploaded: uploaded.has(segment.path) });
    }
  }

  /** A closed segment: wait out the privacy margin, apply a cut if one came, then hand it on. */
  async function closeSegment(owner: Run, entry: SegmentListEntry): Promise<void> {
    const path = join(settings.outputDir, entry.file);
    const origin = owner.process.startEpochMs ?? Date.now();
    const startedAt = origin + entry.startSeconds * 1000;
    const endedAt = origin + entry.endSeconds * 1000;
    // An excluded window seen within the margin after the segment closed may still have been on its last frames.
    const wait = endedAt + marginMs - Date.now();
    if (wait > 0 && !owner.stopped) await sleep(wait);
    let duration = entry.endSeconds - entry.startSeconds;
    if (owner.cutAfter !== undefined && endedAt > owner.cutAfter) {
      const keep = Math.max(0, (owner.cutAfter - startedAt) / 1000);
      const deleted = keep < 1 / settings.fps;
      try {
        if (deleted) await rm(path, { force: true });
        else await truncateSegment(ffmpeg!.path, path, keep);
      } catch (error) {
        // A segment that may show an excluded window and could not be cut is not kept.
        await rm(path, { force: true });
        fail('privacy cut', error as Error);
      }
      const removed = deleted ? duration : duration - keep;
      events.emit('privacy:cut', { path, keptSeconds: deleted ? 0 : keep, removedSeconds: removed, deleted });
      await audit({
        event: 'cut',
        file: entry.file,
        keptSeconds: deleted ? 0 : keep,
        removedSeconds: removed,
        deleted,
      });
      if (deleted) return;
      duration = keep;
    }
    const bytes = await stat(path).then(
      (s) => s.size,
      () => -1,
    );
    if (bytes < 0) return;
    recordedSeconds += duration;
    buffer.push({ path, bytes, uploaded: false, durationSeconds: duration });
    const info: SegmentInfo = { path, bytes, startedAt, durationSeconds: duration };
    events.emit('segment', info);
    await prune();
  }

  async function startRun(): Promise<void> {
    const id = randomBytes(4).toString('hex');
    const listPath = join(settings.outputDir, `.segments-${id}.csv`);
    const args = recorderArguments(settings, {
      outputDir: settings.outputDir,
      segmentList: listPath,
      segmentSeconds: settings.segmentSeconds,
      preset: settings.preset,
      crf: settings.crf,
      runId: id,
    });
    const owner: Run = { id, listPath, stopped: false } as Run;
    owner.process = new FfmpegProcess(ffmpeg!.path, args, (detail) => void onCrash(owner, detail));
    owner.list = new SegmentListWatcher(listPath, (entry) => {
      entries = entries.then(() => closeSegment(owner, entry)).catch((error: Error) => fail('segment', error));
    });
    owner.list.start();
    run = owner;
    // Started once x11grab reports the time of its first frame (or ffmpeg gives up).
    const deadline = Date.now() + START_TIMEOUT_MS;
    let exited = false;
    void owner.process.exited.then(() => {
      exited = true;
    });
    while (owner.process.startEpochMs === undefined && !exited && Date.now() < deadline) await sleep(25);
    if (owner.process.startEpochMs === undefined) {
      // Inputs other than x11grab may not print a start time; the spawn time is then the best guess.
      owner.process.startEpochMs = Date.now();
      if (exited) throw new Error(`ffmpeg did not start: ${owner.process.tail.slice(-5).join(' | ')}`);
    }
    setState('recording');
  }

  async function stopRun(): Promise<void> {
    const owner = run;
    if (!owner) return;
    run = undefined;
    owner.stopped = true;
    const outcome = await owner.process.stop({
      quitMs: settings.stopTimeoutMs,
      termMs: settings.stopTimeoutMs,
      killMs: settings.stopTimeoutMs,
    });
    finishedCpu += owner.process.cpuSeconds;
    await owner.list.stop();
    await entries;
    await rm(owner.listPath, { force: true });
    if (outcome.via === 'SIGKILL') {
      // A killed ffmpeg leaves its open segment without an index: unplayable, so not kept.
      const files = await readdir(settings.outputDir).catch(() => [] as string[]);
      for (const file of files.filter((name) => name.endsWith(`-${owner.id}.mp4`))) {
        const path = join(settings.outputDir, file);
        if (!buffer.some((segment) => segment.path === path)) await rm(path, { force: true });
      }
      fail('stop', new Error('ffmpeg did not finish after q and SIGTERM and was killed; its last segment was dropped'));
    }
  }

  async function onCrash(owner: Run, detail: string): Promise<void> {
    fail('ffmpeg', new Error(detail));
    await withLock(async () => {
      if (run !== owner) return;
      await stopRun();
      if (!capturing()) return;
      if (++restarts > MAX_RESTARTS) {
        setState('failed');
        return;
      }
      await sleep(1000 * restarts);
      if (capturing()) await startRun().catch((error: Error) => fail('restart', error));
    });
  }

  async function onWindow(window: ActiveWindow): Promise<void> {
    const pattern = matchPattern(settings.patterns, [window.title, ...window.classes]);
    await withLock(async () => {
      if (!started || stopping) return;
      if (pattern !== undefined && privacyMatch === undefined) {
        privacyMatch = pattern;
        privacyPauses++;
        if (run) run.cutAfter = Math.min(run.cutAfter ?? Number.POSITIVE_INFINITY, window.seenAt - marginMs);
        events.emit('privacy:paused', { pattern, at: window.seenAt });
        await audit({ event: 'paused', pattern, windowClass: window.classes.join('/') });
        await stopRun();
        setState('privacy-paused');
      } else if (pattern === undefined && privacyMatch !== undefined) {
        privacyMatch = undefined;
        events.emit('privacy:resumed', { at: window.seenAt });
        await audit({ event: 'resumed' });
        if (capturing()) await startRun();
        else setState('paused');
      }
    }).catch((error: Error) => fail('privacy', error));
  }

  async function scanEarlierSegments(): Promise<void> {
    const files = (await readdir(settings.outputDir)).filter((file) => SEGMENT_FILE.test(file)).sort();
    for (const file of files) {
      const path = join(settings.outputDir, file);
      if (buffer.some((segment) => segment.path === path)) continue;
      const bytes = await stat(path).then(
        (s) => s.size,
        () => -1,
      );
      if (bytes >= 0) buffer.push({ path, bytes, uploaded: false, durationSeconds: 0 });
    }
  }

  const recorder: ScreenRecorder = {
    options: settings,
    start: () =>
      withLock(async () => {
        if (started) return;
        ffmpeg ??= await discoverFfmpeg(settings.input);
        await mkdir(settings.outputDir, { recursive: true });
        await scanEarlierSegments();
        started = true;
        stopping = false;
        restarts = 0;
        if (watcher) {
          // Recording without the watcher would record the very windows the user excluded.
          if (!findOnPath('xprop')) {
            throw new ConfigError('privacy exclusions need xprop, which was not found on PATH', {
              component: 'recorder',
              field: 'privacy',
              suggestion:
                'Install it (Debian/Ubuntu: `apt install x11-utils`), or pass privacy: false to record every window.',
            });
          }
          const window = await watcher.query();
          privacyMatch = matchPattern(settings.patterns, [window.title, ...window.classes]);
          if (privacyMatch !== undefined) {
            privacyPauses++;
            events.emit('privacy:paused', { pattern: privacyMatch, at: window.seenAt });
            await audit({ event: 'paused', pattern: privacyMatch, windowClass: window.classes.join('/') });
          }
          watcher.start();
        }
        if (capturing()) await startRun();
        else setState(privacyMatch !== undefined ? 'privacy-paused' : 'paused');
      }),
    pause: () =>
      withLock(async () => {
        manualPause = true;
        await stopRun();
        if (started && !stopping) setState('paused');
      }),
    resume: () =>
      withLock(async () => {
        manualPause = false;
        if (!started || stopping) return;
        if (capturing() && !run) await startRun();
        else if (privacyMatch !== undefined) setState('privacy-paused');
      }),
    stop: () =>
      withLock(async () => {
        if (!started) return;
        stopping = true;
        watcher?.stop();
        await stopRun();
        await entries;
        started = false;
        setState('stopped');
      }),
    status: () => state,
    stats() {
      const segments = buffer.map((segment) => ({
        path: segment.path,
        bytes: segment.bytes,
        durationSeconds: segment.durationSeconds,
        uploaded: uploaded.has(segment.path),
      }));
      return {
        state,
        segments,
        totalBytes: segments.reduce((sum, segment) => sum + segment.bytes, 0),
        ffmpegCpuSeconds: finishedCpu + (run?.process.sampleCpu() ?? 0),
        recordedSeconds,
        privacyPauses,
      };
    },
    holdUntilUploaded() {
      holdForUpload = true;
    },
    markUploaded(path) {
      uploaded.add(path);
      void prune().catch((error: Error) => fail('rotate', error));
    },
    on(event, listener) {
      events.on(event, listener as never);
      return recorder;
    },
    off(event, listener) {
      events.off(event, listener as never);
      return recorder;
    },
    once(event, listener) {
      events.once(event, listener as never);
      return recorder;
    },
  };
  return recorder;
}
