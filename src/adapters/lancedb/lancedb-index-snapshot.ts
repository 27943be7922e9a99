import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type * as Arrow from 'apache-arrow';
import { fromJson, jsonBytes, type SnapshotParts } from '../../core/store-kit/search-index/snapshot-parts.js';
import type { LanceConnection, LanceLibraries } from './lancedb-driver.js';

// memoir's search index over a LanceDB table, kept as a table of its own beside the memories
// (`<tableName>_search_snapshot`): one row per chunk of a named part. Through LanceDB itself,
// so a directory, object storage and LanceDB Cloud need nothing more than the connection the
// store has; one overwrite is one commit, so a reader sees the old snapshot or the new one,
// never a mix. The parts are the SQLite store's (memoir/store-kit's snapshot parts); the table
// only adds a checksum per part, since a snapshot is trusted only as far as it can be checked.

/** Rows carry at most this many bytes of a part: a large part is several rows. */
const CHUNK_BYTES = 8 * 1024 * 1024;

/** The part that lists the others with their lengths and checksums. */
const MANIFEST = 'manifest';

interface Manifest {
  /** Which write the rows belong to: rows of another write are a torn snapshot. */
  id: string;
  parts: Record<string, { bytes: number; crc: number }>;
}

/** The snapshot table of the store whose memories table is `tableName`. */
export function snapshotTableName(tableName: string): string {
  return `${tableName}_search_snapshot`;
}

function snapshotSchema(arrow: typeof Arrow): Arrow.Schema {
  const { Field, Utf8, Int32, Binary, Schema } = arrow;
  return new Schema([
    new Field('snapshot', new Utf8(), false),
    new Field('part', new Utf8(), false),
    new Field('chunk', new Int32(), false),
    new Field('data', new Binary(), false),
  ]);
}

interface SnapshotRow {
  snapshot: string;
  part: string;
  chunk: number;
  data: Uint8Array;
}

/**
 * Rows of `parts` as an Arrow table, copied now: the parts are views of a live index, which
 * the store goes on changing while the rows are written.
 */
function snapshotRows({ arrow }: LanceLibraries, parts: SnapshotParts): Arrow.Table {
  const id = randomUUID();
  const rows: SnapshotRow[] = [];
  const manifest: Manifest = { id, parts: {} };
  for (const [name, bytes] of parts) {
    manifest.parts[name] = { bytes: bytes.byteLength, crc: crc32(bytes) };
    for (let at = 0, chunk = 0; at < bytes.byteLength || chunk === 0; at += CHUNK_BYTES, chunk++) {
      // A view: copied once, below, into the column's one buffer, before anything else runs.
      rows.push({ snapshot: id, part: name, chunk, data: bytes.subarray(at, at + CHUNK_BYTES) });
    }
  }
  rows.push({ snapshot: id, part: MANIFEST, chunk: 0, data: jsonBytes(manifest) });
  const { makeData, vectorFromArray, RecordBatch, Struct, Table, Binary, Utf8, Int32 } = arrow;
  const schema = snapshotSchema(arrow);
  let total = 0;
  for (const row of rows) total += row.data.byteLength;
  const data = new Uint8Array(total);
  const valueOffsets = new Int32Array(rows.length + 1);
  rows.forEach((row, index) => {
    data.set(row.data, valueOffsets[index]!);
    valueOffsets[index + 1] = valueOffsets[index]! + row.data.byteLength;
  });
  const children = [
    vectorFromArray(
      rows.map((row) => row.snapshot),
      new Utf8(),
    ).data[0]!,
    vectorFromArray(
      rows.map((row) => row.part),
      new Utf8(),
    ).data[0]!,
    makeData({ type: new Int32(), length: rows.length, data: Int32Array.from(rows, (row) => row.chunk) }),
    makeData({ type: new Binary(), length: rows.length, valueOffsets, data }),
  ];
  const struct = makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children });
  return new Table([new RecordBatch(schema, struct)]);
}

/**
 * Replace the stored snapshot with `parts` in one commit (creating the table the first time),
 * then remove the versions of it older than `keepVersionsMs`, which a reader may still be on.
 * Resolves to the bytes written.
 */
export async function writeIndexSnapshot(
  libraries: LanceLibraries,
  connection: LanceConnection,
  name: string,
  parts: SnapshotParts,
  keepVersionsMs: number,
): Promise<number> {
  const rows = snapshotRows(libraries, parts);
  const table = await connection.createEmptyTable(name, snapshotSchema(libraries.arrow), {
    mode: 'create',
    existOk: true,
  });
  try {
    await table.add(rows, { mode: 'overwrite' });
    await table.optimize({ cleanupOlderThan: new Date(Date.now() - keepVersionsMs) });
  } finally {
    table.close();
  }
  let bytes = 0;
  for (const data of parts.values()) bytes += data.byteLength;
  return bytes;
}

/**
 * The stored snapshot's parts, or null when there is none or it does not check out (a part
 * missing, torn, or not matching its checksum): the caller then builds the index from rows.
 */
export async function readIndexSnapshot(connection: LanceConnection, name: string): Promise<SnapshotParts | null> {
  // Opened rather than looked up in tableNames(), which on an S3-compatible server may not
  // list a table just written.
  const table = await connection.openTable(name).catch(() => null);
  if (!table) return null;
  try {
    const chunks = new Map<string, Array<{ chunk: number; data: Uint8Array; snapshot: string }>>();
    for await (const batch of table.query().select(['snapshot', 'part', 'chunk', 'data'])) {
      const snapshot = batch.getChild('snapshot')!;
      const partName = batch.getChild('part')!;
      const chunk = batch.getChild('chunk')!;
      const data = batch.getChild('data')!;
      for (let i = 0; i < batch.numRows; i++) {
        const key = partName.get(i) as string;
        const list = chunks.get(key) ?? [];
        // A view into the batch, copied once below into the part's own bytes.
        list.push({ chunk: chunk.get(i) as number, data: data.get(i) as Uint8Array, snapshot: snapshot.get(i) });
        chunks.set(key, list);
      }
    }
    const manifestRows = chunks.get(MANIFEST);
    if (manifestRows?.length !== 1) return null;
    const manifest = fromJson<Manifest>(manifestRows[0]!.data);
    const parts: SnapshotParts = new Map();
    for (const [partName, expected] of Object.entries(manifest.parts)) {
      const list = (chunks.get(partName) ?? []).sort((a, b) => a.chunk - b.chunk);
      if (list.some((row, index) => row.snapshot !== manifest.id || row.chunk !== index)) return null;
      const bytes = new Uint8Array(list.reduce((sum, row) => sum + row.data.byteLength, 0));
      let at = 0;
      for (const row of list) {
        bytes.set(row.data, at);
        at += row.data.byteLength;
      }
      if (bytes.byteLength !== expected.bytes || crc32(bytes) !== expected.crc) return null;
      parts.set(partName, bytes);
    }
    return parts;
  } catch {
    return null;
  } finally {
    table.close();
  }
}

/** Drop the stored snapshot (its vectors are another embedder's, or its rows are gone). */
export async function dropIndexSnapshot(connection: LanceConnection, name: string): Promise<void> {
  const table = await connection.openTable(name).catch(() => null);
  if (!table) return;
  table.close();
  await connection.dropTable(name);
}
