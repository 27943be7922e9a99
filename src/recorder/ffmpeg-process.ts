import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** How a stop went. */
export interface StopOutcome {
  /** What finally ended ffmpeg: `q` is a clean finish; a signal means the earlier step timed out. */
  via: 'q' | 'SIGTERM' | 'SIGKILL' | 'exited';
  /** Exit code, when it exited by itself. */
  code: number | null;
}

/** Bounded waits of each stop step, milliseconds. */
export interface StopWaits {
  /** After writing `q`. */
  quitMs: number;
  /** After SIGTERM. */
  termMs: number;
  /** After SIGKILL. */
  killMs: number;
}

const TAIL_LINES = 40;

/**
 * One running ffmpeg. It reads stderr for the input's start time (x11grab stamps frames with
 * the wall clock, so `start:` is when the first frame was grabbed, in epoch seconds), for
 * the `-benchmark` CPU times at exit, and keeps the last lines for error messages.
 */
export class FfmpegProcess {
  /** Epoch milliseconds of the first grabbed frame, once ffmpeg has said. */
  startEpochMs: number | undefined;
  /** User + system CPU seconds ffmpeg reported at exit (`-benchmark`), or the last sample. */
  cpuSeconds = 0;
  /** Last stderr lines, for error messages. */
  readonly tail: string[] = [];
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private stopping = false;
  private partial = '';

  constructor(binary: string, args: readonly string[], onUnexpectedExit: (detail: string) => void) {
    // Same process group as the host: when a Ctrl+C ends the host, ffmpeg gets that one
    // SIGINT too and finishes its segment, instead of recording on, unwatched, after its owner
    // is gone (ffmpeg ignores the end of its stdin). We never forward signals, so it gets one.
    this.child = spawn(binary, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    // A host leaving through process.exit() runs no stop(): SIGTERM still finishes the file.
    const onHostExit = () => this.child.kill('SIGTERM');
    process.once('exit', onHostExit);
    this.child.once('exit', () => process.off('exit', onHostExit));
    this.child.stdin?.on('error', () => undefined);
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => this.read(chunk));
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.read('\n');
        resolve({ code, signal });
        if (!this.stopping)
          onUnexpectedExit(`ffmpeg exited (code ${code}, signal ${signal}): ${this.tail.slice(-5).join(' | ')}`);
      });
      this.child.once('error', (error) => {
        resolve({ code: null, signal: null });
        if (!this.stopping) onUnexpectedExit(`ffmpeg could not start: ${error.message}`);
      });
    });
  }

  /** The process id, while it runs. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  private read(chunk: string): void {
    const lines = (this.partial + chunk).split(/\r?\n|\r/);
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      this.tail.push(line);
      if (this.tail.length > TAIL_LINES) this.tail.shift();
      const start = /Duration: N\/A, start: (\d+\.\d+)/.exec(line);
      if (start && this.startEpochMs === undefined) this.startEpochMs = Number(start[1]) * 1000;
      const bench = /bench: utime=([\d.]+)s stime=([\d.]+)s/.exec(line);
      if (bench) this.cpuSeconds = Number(bench[1]) + Number(bench[2]);
    }
  }

  /** CPU seconds used so far: read from /proc on Linux while running; the exit report otherwise. */
  sampleCpu(): number {
    const pid = this.child.pid;
    if (process.platform === 'linux' && pid !== undefined && this.child.exitCode === null) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // Fields after the command name (which may hold spaces) start after the last ')'.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(fields[11]) + Number(fields[12]);
        // Linux reports clock ticks; USER_HZ is 100 on every mainstream build.
        if (Number.isFinite(ticks)) this.cpuSeconds = Math.max(this.cpuSeconds, ticks / 100);
      } catch {
        // The process ended between the check and the read; the exit report will say.
      }
    }
    return this.cpuSeconds;
  }

  /**
   * Ask ffmpeg to finish: `q` on stdin (it closes the open segment properly), then SIGTERM
   * (handled the same way), then SIGKILL, each after a bounded wait. Never throws.
   */
  async stop(waits: StopWaits): Promise<StopOutcome> {
    this.stopping = true;
    if (this.child.exitCode !== null || this.child.signalCode !== null)
      return { via: 'exited', code: this.child.exitCode };
    this.sampleCpu();
    const waitExit = (ms: number) =>
      Promise.race([
        this.exited.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref()),
      ]);
    this.child.stdin?.write('q');
    this.child.stdin?.end();
    if (await waitExit(waits.quitMs)) return { via: 'q', code: this.child.exitCode };
    this.child.kill('SIGTERM');
    if (await waitExit(waits.termMs)) return { via: 'SIGTERM', code: this.child.exitCode };
    this.child.kill('SIGKILL');
    await waitExit(waits.killMs);
    return { via: 'SIGKILL', code: this.child.exitCode };
  }
}
