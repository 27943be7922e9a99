import { randomBytes } from 'node:crypto';
import type { LanceConnection, LanceLibraries, LanceTable } from './lancedb-driver.js';
import { sqlIn, sqlString } from './lancedb-filter.js';
import { currentWriter, isThisProcess, parseWriter, writerGone } from './lancedb-intent-writer.js';
import { plainRow } from './lancedb-rows.js';

// A transaction on LanceDB, all-or-nothing across a kill.
//
// LanceDB commits each table on its own. A transaction that writes several tables (retain: the
// memories, their entities and session; deleteSession; forget; a supersession) used to be undone
// on failure from an undo log held in the process, so a process killed part-way left some tables
// written and others not, for good. Now the undo log is a table:
//
// 1. Before each write of a transaction, the rows it is about to touch (as they are, or "absent")
//    are appended to `<tableName>_intents` under the transaction's id, with who writes it — one
//    commit. Only then is the live table written (so every live change has its undo on disk).
// 2. Commit: the transaction's intent rows are deleted — one commit on one table, atomic on every
//    backend. This is the commit point.
// 3. Undo (work rejected, the commit failed, or the writer found dead by another process or a later
//    open): per table, delete the ids the transaction touched and put back the rows they were,
//    then delete the intent rows. Every step can be run again from the start with the same result,
//    so an undo killed part-way is finished by the next one.
//
// Why row images and not LanceDB's table versions (`checkout`/`restore` to the version before):
// restoring a version also drops every write other processes made to that table meanwhile, and the
// versions a restore needs are the ones compaction's cleanup deletes. Why undo (roll back) and not
// redo (roll forward): a transaction reads its own writes (retain reads the entities it just
// tallied), which a redo log would have to overlay on every read and search. The cost: a
// transaction writing three tables takes 7 commits instead of 3 (3 live, 3 appends and one delete
// on a table of a few rows); measured on a directory, retain of one memory took 306–326 ms against
// 382 ms with the old in-memory log and forget 359–407 ms against 250 ms, on a machine at load 28
// where run-to-run noise is as large (see docs/guides/lancedb-durability.md).

/** Before-images per intent row, so one row stays a few MB at most. */
const ENTRIES_PER_ROW = 256;
/** Ids per delete statement when rows are put back. */
const IDS_PER_DELETE = 1000;
/** A writer on another machine (or one whose pid cannot be checked here) is gone after this much silence. */
export const FOREIGN_WRITER_GRACE_MS = 10 * 60 * 1000;
/** Old versions of the intent table are cleaned up after this many commits of this process. */
const TIDY_EVERY = 200;

/** One row of the intent table. */
interface IntentRow {
  txn: string;
  tbl: string;
  writer: string;
  prior: string;
}

/** Transactions this process is running: another store object here must leave them alone. */
const inFlight = new Set<string>();

/** What the log needs from the store that owns it. */
export interface IntentLogHost {
  /** The intent table's name. */
  readonly name: string;
  /** Whether the tables are in a local directory (pids of writers on this machine can be checked). */
  readonly local: boolean;
  /** The loaded libraries (for the intent table's schema). */
  libraries(): LanceLibraries;
  /** The open connection. */
  connection(): Promise<LanceConnection>;
  /** A live table by name. */
  table(name: string): Promise<LanceTable>;
  /** Rows in the Arrow form `live` takes. */
  arrowRows(live: LanceTable, rows: readonly object[]): Promise<unknown>;
  /** Run `operation` retrying commit conflicts, and with LanceDB's errors as StoreErrors. */
  write<R>(operation: () => Promise<R>): Promise<R>;
  /** Run `operation` under the store's write lock. */
  exclusive<R>(operation: () => Promise<R>): Promise<R>;
  /** Rows of a live table were put back (for caches, index maintenance and pending access counts). */
  written(table: string, ids: readonly string[]): void;
}

/** A running transaction, as this process knows it. */
export class IntentTransaction {
  /** The id its intent rows carry. */
  readonly id = `${Date.now().toString(36)}-${process.pid}-${randomBytes(6).toString('hex')}`;
  /** Per table, each touched id's row before the transaction (null: absent). */
  readonly prior = new Map<string, Map<string, object | null>>();
  /** Per table, the ids its upserts wrote, so a later upsert knows they exist. */
  readonly written = new Map<string, Set<string>>();
  /** Whether anything was appended to the intent table. */
  logged = false;
}

const vectorsAsArrays = (_key: string, value: unknown) => (value instanceof Float32Array ? Array.from(value) : value);

/** The undo log of LanceDB transactions; see the comment at the top of this file. */
export class IntentLog {
  readonly #host: IntentLogHost;
  #table: LanceTable | undefined;
  #commits = 0;

  constructor(host: IntentLogHost) {
    this.#host = host;
  }

  /** Create the intent table if it is missing; called when the store connects. */
  async open(): Promise<void> {
    if (this.#table) return;
    const { Field, Schema, Utf8 } = this.#host.libraries().arrow;
    const schema = new Schema(['txn', 'tbl', 'writer', 'prior'].map((name) => new Field(name, new Utf8(), false)));
    const connection = await this.#host.connection();
    this.#table = await this.#host.write(() =>
      connection.createEmptyTable(this.#host.name, schema, { mode: 'create', existOk: true }),
    );
  }

  #intents(): LanceTable {
    if (!this.#table) throw new Error('the intent log is not open');
    return this.#table;
  }

  /** Start a transaction. */
  begin(): IntentTransaction {
    const transaction = new IntentTransaction();
    inFlight.add(transaction.id);
    return transaction;
  }

  /**
   * Before a write to `live` touching `ids`: note, on disk, the rows those of them the
   * transaction has not touched yet hold now. One commit on the intent table, none when every
   * id was noted before.
   */
  async note(transaction: IntentTransaction, live: LanceTable, ids: readonly string[]): Promise<void> {
    let prior = transaction.prior.get(live.name);
    if (!prior) {
      prior = new Map();
      transaction.prior.set(live.name, prior);
    }
    const fresh = [...new Set(ids)].filter((id) => !prior.has(id));
    if (fresh.length === 0) return;
    // Ids first (one narrow column), whole rows only for those that exist: a retained batch is mostly new.
    const present = (
      (await live.query().where(sqlIn('id', fresh)).select(['id']).toArray()) as Array<{ id: string }>
    ).map((row) => row.id);
    const rows =
      present.length === 0 ? [] : ((await live.query().where(sqlIn('id', present)).toArray()) as Array<{ id: string }>);
    const byId = new Map(rows.map((row) => [row.id, plainRow(row) as object]));
    const entries = fresh.map((id) => [id, byId.get(id) ?? null] as const);
    const writer = JSON.stringify(currentWriter());
    const records: IntentRow[] = [];
    for (let at = 0; at < entries.length; at += ENTRIES_PER_ROW) {
      const prior = JSON.stringify(entries.slice(at, at + ENTRIES_PER_ROW), vectorsAsArrays);
      records.push({ txn: transaction.id, tbl: live.name, writer, prior });
    }
    const intents = this.#intents();
    await this.#host.write(() => intents.add(records as unknown as Array<Record<string, unknown>>));
    transaction.logged = true;
    for (const [id, row] of entries) prior.set(id, row);
  }

  /**
   * Whether none of `ids` is in `table`, from what the transaction noted before its writes:
   * absent before it and not written by it. Marks them written.
   */
  knownAbsent(transaction: IntentTransaction, table: string, ids: readonly string[]): boolean | undefined {
    const prior = transaction.prior.get(table);
    if (!prior) return undefined;
    const written = transaction.written.get(table) ?? new Set<string>();
    transaction.written.set(table, written);
    const absent = ids.every((id) => prior.get(id) === null && !written.has(id));
    for (const id of ids) written.add(id);
    return absent;
  }

  /**
   * Commit: delete the transaction's intent rows, in one commit. A failure that left them
   * deleted (an answer lost on the way back from object storage) is a success.
   */
  async commit(transaction: IntentTransaction): Promise<void> {
    try {
      if (!transaction.logged) return;
      const intents = this.#intents();
      try {
        await this.#host.write(() => intents.delete(`txn = ${sqlString(transaction.id)}`));
      } catch (error) {
        if ((await intents.countRows(`txn = ${sqlString(transaction.id)}`)) > 0) throw error;
      }
      if (++this.#commits % TIDY_EVERY === 0) await this.#tidy();
    } finally {
      inFlight.delete(transaction.id);
    }
  }

  /** Undo a transaction of this process whose work rejected (or whose commit failed). */
  async abort(transaction: IntentTransaction): Promise<void> {
    try {
      if (transaction.logged) await this.#undo(transaction.id);
    } finally {
      inFlight.delete(transaction.id);
    }
  }

  /** Whether the intent table holds anything at all: one cheap count, for the periodic check. */
  async pending(): Promise<boolean> {
    return (await this.#intents().countRows()) > 0;
  }

  /**
   * Undo every transaction whose writer is gone (killed, or failed to undo it), each under the
   * store's write lock. Called when the store opens and, now and then, before reads and writes.
   */
  async recover(): Promise<number> {
    const rows = (await this.#intents().query().select(['txn', 'writer']).toArray()) as Array<{
      txn: string;
      writer: string;
    }>;
    const latest = new Map<string, ReturnType<typeof parseWriter>>();
    for (const row of rows) {
      let writer: ReturnType<typeof parseWriter> = null;
      try {
        writer = parseWriter(JSON.parse(row.writer));
      } catch {
        writer = null;
      }
      const known = latest.get(row.txn);
      if (!known || (writer && writer.at > known.at)) latest.set(row.txn, writer ?? known ?? null);
    }
    let undone = 0;
    for (const [txn, writer] of latest) {
      const gone =
        writer === null ||
        (isThisProcess(writer)
          ? !inFlight.has(txn)
          : writerGone(writer, { local: this.#host.local, graceMs: FOREIGN_WRITER_GRACE_MS }));
      if (!gone) continue;
      await this.#host.exclusive(() => this.#undo(txn));
      undone += 1;
    }
    return undone;
  }

  /** Put back what transaction `txn` changed, from its intent rows, then forget them. Idempotent. */
  async #undo(txn: string): Promise<void> {
    const intents = this.#intents();
    const where = `txn = ${sqlString(txn)}`;
    const rows = (await intents.query().where(where).select(['tbl', 'prior']).toArray()) as Array<
      Pick<IntentRow, 'tbl' | 'prior'>
    >;
    const byTable = new Map<string, Map<string, object | null>>();
    for (const row of rows) {
      const prior = byTable.get(row.tbl) ?? new Map<string, object | null>();
      byTable.set(row.tbl, prior);
      // The first note of an id holds its row before the transaction; a later one cannot exist.
      for (const [id, before] of JSON.parse(row.prior) as Array<[string, object | null]>) {
        if (!prior.has(id)) prior.set(id, before);
      }
    }
    for (const [name, prior] of byTable) {
      const live = await this.#host.table(name);
      const ids = [...prior.keys()];
      for (let at = 0; at < ids.length; at += IDS_PER_DELETE) {
        const chunk = ids.slice(at, at + IDS_PER_DELETE);
        await this.#host.write(() => live.delete(sqlIn('id', chunk)));
      }
      const before = [...prior.values()].filter((row): row is object => row !== null);
      if (before.length > 0) {
        const data = await this.#host.arrowRows(live, before);
        await this.#host.write(() => live.add(data as Parameters<LanceTable['add']>[0]));
      }
      this.#host.written(name, ids);
    }
    await this.#host.write(() => intents.delete(where));
  }

  /** Compact the intent table and drop its versions older than an hour (each transaction makes two). */
  async #tidy(): Promise<void> {
    const intents = this.#intents();
    await intents.optimize({ cleanupOlderThan: new Date(Date.now() - 60 * 60 * 1000) }).catch(() => undefined);
  }

  /** Release the intent table. */
  close(): void {
    this.#table?.close();
    this.#table = undefined;
  }
}
