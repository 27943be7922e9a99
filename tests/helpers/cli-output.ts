/** A CLI output stream that keeps what was written, for `runCli`'s stdout and stderr. */
export interface CapturedOutput {
  /** Everything written so far. */
  text: string;
  /** Append a chunk. */
  write(chunk: string): boolean;
  /** True to act as a terminal (progress bars). */
  isTTY?: boolean;
  /** Terminal width, for tables. */
  columns?: number;
}

/** A fresh captured output; `isTTY` makes it look like a terminal. */
export function captureOutput(isTTY = false): CapturedOutput {
  return {
    text: '',
    isTTY,
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}
