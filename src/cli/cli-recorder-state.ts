/** The state file a recorder daemon keeps under `<home>/recorder/`, so another `memoir` run can see and steer it. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the daemon writes on every change. */
export interface RecorderStateFile {
  /** The daemon's process id. */
  pid: number;
  /** Recorder state (`recording`, `paused`, `privacy-paused`, `stopped`, `failed`). */
  state: string;
  /** Where segments go. */
  outputDir: string;
  /** When the daemon started (ISO 8601). */
  startedAt: string;
  /** Last change (ISO 8601). */
  updatedAt: string;
  /** Segments in the buffer. */
  segments: number;
  /** Bytes in the buffer. */
  bytes: number;
  /** ffmpeg CPU seconds so far. */
  cpuSeconds: number;
  /** Segments uploaded by this daemon. */
  uploaded: number;
  /** Whether segments are uploaded (a video provider key was set). */
  uploading: boolean;
  /** Last background error, if any. */
  lastError: string | null;
}

/** `<home>/recorder`. */
export function recorderDir(home: string): string {
  return join(home, 'recorder');
}

/** Read the state file; null when there is none or it does not parse. */
export function readRecorderState(home: string): RecorderStateFile | null {
  try {
    return JSON.parse(readFileSync(join(recorderDir(home), 'state.json'), 'utf8')) as RecorderStateFile;
  } catch {
    return null;
  }
}

/** Replace the state file atomically (a reader never sees half of it). */
export function writeRecorderState(home: string, state: RecorderStateFile): void {
  const dir = recorderDir(home);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'state.json');
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** Whether a process with this id is alive (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
