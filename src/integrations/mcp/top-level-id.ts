/**
 * The `id` and `method` of a JSON-RPC message read as a byte stream, without holding the
 * message: a message too large to keep is discarded as it arrives, and this is what lets
 * the server still answer it with an error naming its id (wherever the id stands in it).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** Longest id kept (raw JSON bytes); a longer one is treated as absent. */
const MAX_ID_BYTES = 1024;

/** The index of the next `"` or `\\` from `from`, or -1. */
function nextSpecial(bytes: Buffer, from: number): number {
  const quote = bytes.indexOf(QUOTE, from);
  const backslash = bytes.indexOf(BACKSLASH, from);
  if (quote === -1) return backslash;
  return backslash === -1 ? quote : Math.min(quote, backslash);
}

/** Where the scanner is inside the top-level object. */
type Slot = 'key' | 'colon' | 'value' | 'after';

/**
 * Streams the bytes of one JSON text and remembers its top-level `id` (a string, number or
 * null, at most 1 KiB) and whether it has a top-level `method`. Memory stays constant: only
 * the current top-level key and the id's value are kept. Not a validator: for a text that is
 * not a JSON object it reports no id.
 */
export class TopLevelIdScanner {
  private depth = 0;
  private started = false;
  private invalid = false;
  private inString = false;
  private escaped = false;
  private slot: Slot = 'key';
  private key: number[] | undefined;
  private currentKey = '';
  private value: number[] | undefined;
  private valueIsString = false;
  private idValue: string | number | null | undefined;
  private methodSeen = false;

  /** The top-level id, when one was found whole. */
  get id(): string | number | null | undefined {
    return this.invalid ? undefined : this.idValue;
  }

  /** True when the text has a top-level `method` key: it is a request or a notification. */
  get hasMethod(): boolean {
    return !this.invalid && this.methodSeen;
  }

  /** Read the next bytes of the text. */
  feed(bytes: Buffer): void {
    let index = 0;
    while (index < bytes.length && !this.invalid) {
      // Inside a string nothing is kept: jump to the next quote or backslash (a native search).
      if (this.inString && !this.escaped && !this.key && !this.value) {
        const next = nextSpecial(bytes, index);
        if (next === -1) return;
        index = next;
      }
      this.step(bytes[index]!);
      index++;
    }
  }

  /** The text ended: a number value still being read ends here. */
  finish(): void {
    if (this.value && !this.valueIsString) this.endValue();
  }

  private step(byte: number): void {
    if (this.inString) {
      this.stringByte(byte);
      return;
    }
    if (this.value && !this.valueIsString) {
      if (!WHITESPACE.has(byte) && byte !== COMMA && byte !== CLOSE_BRACE) {
        this.keep(byte);
        return;
      }
      this.endValue();
    }
    if (WHITESPACE.has(byte)) return;
    if (!this.started) {
      this.started = true;
      if (byte !== OPEN_BRACE) this.invalid = true;
      else this.depth = 1;
      return;
    }
    if (this.depth === 0) return;
    const top = this.depth === 1;
    switch (byte) {
      case QUOTE:
        this.inString = true;
        if (top && this.slot === 'key') this.key = [];
        else if (top && this.slot === 'value') this.startValue(byte, true);
        return;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        if (top && this.slot === 'value') this.slot = 'after';
        this.depth++;
        return;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        this.depth--;
        return;
      case COLON:
        if (top && this.slot === 'colon') this.slot = 'value';
        return;
      case COMMA:
        if (top) this.slot = 'key';
        return;
      default:
        if (top && this.slot === 'value') this.startValue(byte, false);
    }
  }

  private stringByte(byte: number): void {
    if (this.value && this.valueIsString) this.keep(byte);
    else if (this.key && this.key.length <= 8) this.key.push(byte);
    if (this.escaped) {
      this.escaped = false;
      return;
    }
    if (byte === BACKSLASH) {
      this.escaped = true;
      return;
    }
    if (byte !== QUOTE) return;
    this.inString = false;
    if (this.key) {
      this.key.pop(); // the closing quote
      this.currentKey = Buffer.from(this.key).toString('utf8');
      if (this.currentKey === 'method') this.methodSeen = true;
      this.key = undefined;
      this.slot = 'colon';
    } else if (this.value) {
      this.endValue();
    }
  }

  private startValue(byte: number, isString: boolean): void {
    this.slot = 'after';
    if (this.currentKey !== 'id') return;
    this.value = [byte];
    this.valueIsString = isString;
  }

  private keep(byte: number): void {
    if (!this.value) return;
    if (this.value.length >= MAX_ID_BYTES) {
      this.value = undefined;
      this.idValue = undefined;
      return;
    }
    this.value.push(byte);
  }

  private endValue(): void {
    const raw = this.value ? Buffer.from(this.value).toString('utf8') : '';
    this.value = undefined;
    try {
      const parsed: unknown = JSON.parse(raw);
      this.idValue = typeof parsed === 'string' || typeof parsed === 'number' || parsed === null ? parsed : undefined;
    } catch {
      this.idValue = undefined;
    }
  }
}
