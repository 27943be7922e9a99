import { open, stat } from 'node:fs/promises';

/** One closed segment, as the segment muxer's CSV list reports it. */
export interface SegmentListEntry {
  /** File name, relative to the output directory. */
  file: string;
  /** Start within the run's timeline, seconds. */
  startSeconds: number;
  /** End within the run's timeline, seconds. */
  endSeconds: number;
}

/** Parse complete CSV lines `name,start,end`; a name holding a comma is quoted by ffmpeg. */
export function parseSegmentLines(text: string): SegmentListEntry[] {
  const entries: SegmentListEntry[] = [];
  for (const line of text.split('\n')) {
    const match = /^(?:"((?:[^"]|"")*)"|([^,]*)),([\d.]+),([\d.]+)\s*$/.exec(line);
    if (!match) continue;
    const file = match[1] !== undefined ? match[1].replaceAll('""', '"') : match[2]!;
    entries.push({ file, startSeconds: Number(match[3]), endSeconds: Number(match[4]) });
  }
  return entries;
}

/**
 * Follows the CSV list ffmpeg appends to when it closes a segment. Polling a size is cheap
 * and works the same on every platform and file system (fs.watch does not); only complete
 * lines are handed on, so a line half-written at the moment of reading waits for the next poll.
 */
export class SegmentListWatcher {
  private offset = 0;
  private partial = '';
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly onEntry: (entry: SegmentListEntry) => void,
    private readonly intervalMs = 500,
  ) {}

  /** Poll until {@link stop}. */
  start(): void {
    this.timer = setInterval(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  /** Read what is new now; resolves when every complete line so far was handed on. */
  poll(): Promise<void> {
    this.reading = this.reading.then(() => this.readNew()).catch(() => undefined);
    return this.reading;
  }

  /** Stop polling, after a last read. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.poll();
  }

  private async readNew(): Promise<void> {
    const size = await stat(this.path).then(
      (s) => s.size,
      () => 0,
    );
    if (size <= this.offset) return;
    const handle = await open(this.path, 'r');
    try {
      const buffer = Buffer.alloc(size - this.offset);
      await handle.read(buffer, 0, buffer.length, this.offset);
      this.offset = size;
      const lines = (this.partial + buffer.toString('utf8')).split('\n');
      this.partial = lines.pop() ?? '';
      for (const entry of parseSegmentLines(lines.join('\n'))) this.onEntry(entry);
    } finally {
      await handle.close();
    }
  }
}
