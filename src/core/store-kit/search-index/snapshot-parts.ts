/**
 * The search index as named byte arrays, which a store writes where it keeps its data (named
 * blobs in the SQLite file, a file or object beside a LanceDB table), so that the next process
 * to open a large store reads a few large values instead of rebuilding postings and quantising
 * every vector from every row. It is only a head start: it records the change sequence it
 * reflects, and the rows changed since are read on top.
 */
export type SnapshotParts = Map<string, Uint8Array>;

/** Bytes of a typed array, without copying. */
export const bytesOf = (view: ArrayBufferView): Uint8Array =>
  new Uint8Array(view.buffer, view.byteOffset, view.byteLength);

/** JSON as bytes. */
export const jsonBytes = (value: unknown): Uint8Array => Buffer.from(JSON.stringify(value));

/** Bytes back into JSON. */
export const fromJson = <T>(bytes: Uint8Array): T => JSON.parse(Buffer.from(bytes).toString('utf8')) as T;

type ViewConstructor<T> = new (buffer: ArrayBuffer) => T;

/** Bytes into a typed array of their own (copied, so the alignment is right). */
export function viewOf<T>(bytes: Uint8Array, Constructor: ViewConstructor<T>): T {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Constructor(copy.buffer);
}

/** A part that must be present; a snapshot missing one is ignored as a whole. */
export function part(parts: SnapshotParts, name: string): Uint8Array {
  const found = parts.get(name);
  if (!found) throw new Error(`search index snapshot lacks ${name}`);
  return found;
}
