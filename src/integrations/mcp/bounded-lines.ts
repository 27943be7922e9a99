/**
 * Newline-delimited messages with a size limit. A line longer than the limit is never held
 * whole: once it passes the limit, what was kept of it is dropped and the rest is only looked
 * at (for its id) as it streams by, so a 64 MiB line costs no more memory than the limit.
 */
import { TopLevelIdScanner } from './top-level-id.js';

const NEWLINE = 0x0a;

/** A line that was discarded for its size. */
export interface OversizedLine {
  /** Its length in bytes, without the newline. */
  bytes: number;
  /** Its top-level JSON-RPC id, when it had one. */
  id: string | number | null | undefined;
  /** True when it had a top-level `method` (a request or a notification, not a response). */
  hasMethod: boolean;
}

/** What {@link BoundedLineSplitter} calls. */
export interface LineHandlers {
  /** A whole line of at most the limit, without its newline. */
  line(line: Buffer): void;
  /** A line over the limit, after its newline arrived (or the input ended). */
  oversized(line: OversizedLine): void;
}

/**
 * Splits a byte stream into lines of at most `maxBytes` bytes; longer lines are discarded
 * as they stream and reported once they end.
 */
export class BoundedLineSplitter {
  private parts: Buffer[] = [];
  private length = 0;
  private scanner: TopLevelIdScanner | undefined;

  /**
   * @param maxBytes - The longest line passed on, in bytes (without the newline).
   * @param handlers - Where whole lines and discarded ones go.
   */
  constructor(
    private readonly maxBytes: number,
    private readonly handlers: LineHandlers,
  ) {}

  /** Feed the next chunk of input. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  }

  /** The input ended: a last line without a newline is passed on (or reported) as it is. */
  end(): void {
    if (this.length > 0 || this.scanner) this.endLine();
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.length += piece.length;
    if (this.scanner) {
      this.scanner.feed(piece);
      return;
    }
    if (this.length <= this.maxBytes) {
      this.parts.push(piece);
      return;
    }
    // Over the limit: from here on the line is only scanned for its id, never kept.
    this.scanner = new TopLevelIdScanner();
    for (const part of this.parts) this.scanner.feed(part);
    this.scanner.feed(piece);
    this.parts = [];
  }

  private endLine(): void {
    const { scanner, length, parts } = this;
    this.parts = [];
    this.length = 0;
    this.scanner = undefined;
    if (scanner) {
      scanner.finish();
      this.handlers.oversized({ bytes: length, id: scanner.id, hasMethod: scanner.hasMethod });
      return;
    }
    this.handlers.line(parts.length === 1 ? parts[0]! : Buffer.concat(parts, length));
  }
}
