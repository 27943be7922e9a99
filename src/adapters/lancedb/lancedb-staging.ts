import { randomBytes } from 'node:crypto';
import type { Scope } from '../../core/spec/memory.js';
import type {
  MemoryRecord,
  RecordCollectionKey,
  StageChangeOptions,
  StagedChange,
  StagedRemovals,
} from '../../core/spec/store.js';
import type { LanceConnection, LanceTable } from './lancedb-driver.js';
import { scopeSql, sqlString } from './lancedb-filter.js';
import { currentWriter, type IntentWriter, isThisProcess, parseWriter, writerGone } from './lancedb-intent-writer.js';
import { plainRow, recordToRow } from './lancedb-rows.js';
import { type LanceTableNames, RECORD_KINDS } from './lancedb-schema.js';

// A bulk change (restore, import, clear) on LanceDB, all-or-nothing across a crash.
//
// LanceDB commits one table at a time: a restore run as a plain sequence of writes, killed
// part-way, left "525 A + 0 B" or nothing at all. A bulk change is too big for the undo log
// transactions use (lancedb-intent-log.ts: every replaced row's image would be logged), so it
// is rolled forward instead. A staged change never touches the live tables until it is decided:
//
// 1. Stage: the new rows are appended to staging tables of their own (`<table>__staged_<id>`),
//    invisible to every read. Killed here: the live data is untouched; the staging tables are
//    garbage, dropped by a later open once their writer is gone.
// 2. Decide: one row `staged:<id>` is written to the meta table — a single commit, atomic on
//    every backend. This is the commit point.
// 3. Apply: per table, delete what `replace` names, then merge the staged rows in by id. Every
//    step can be run again from the start with the same outcome, so a process killed here
//    leaves a plan that the next open of the store finishes (rolls forward).
// 4. Forget: the plan row is deleted, the staging tables dropped.

/** The keys of every table a change touches, memories first. */
const KINDS = ['memories', ...RECORD_KINDS] as const;
type Kind = (typeof KINDS)[number];

/** A plan is finished by another process only when its writer looks gone (see {@link writerGone}). */
const FOREIGN_HOST_GRACE_MS = 10 * 60 * 1000;
/** Staging tables no plan names are dropped once their writer is gone, or after a day. */
const ORPHAN_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const PLAN_PREFIX = 'staged:';
const STAGE_MARK = '__staged_';

/** The decided change, as the meta table keeps it. */
interface StagePlan {
  /** Present when the change replaces a scope (`scope` absent: everything). */
  replace: { scope?: Scope } | null;
  /** The tables that have staged rows. */
  staged: Kind[];
  /** Who wrote the plan, so another process can tell whether it is still being applied. */
  writer: IntentWriter;
}

/** What a staged change needs from the store that owns it. */
export interface StagingHost {
  /** The store's tables' names. */
  readonly names: LanceTableNames;
  /** Whether the tables are in a local directory (process ids there are this machine's). */
  readonly local: boolean;
  /** The open connection. */
  connection(): Promise<LanceConnection>;
  /** A live table by name. */
  table(name: string): Promise<LanceTable>;
  /** The meta table. */
  meta(): Promise<LanceTable>;
  /** Checked rows for memories and their embeddings, by id (a later one wins). */
  memoryRows(records: readonly MemoryRecord[]): Map<string, object>;
  /** Rows in the Arrow form `live` takes. */
  arrowRows(live: LanceTable, rows: readonly object[]): Promise<unknown>;
  /** Run `operation` retrying commit conflicts, and with LanceDB's errors as StoreErrors. */
  write<R>(operation: () => Promise<R>): Promise<R>;
  /** Run `operation` under the store's write lock, the store checked open. */
  exclusive<R>(operation: () => Promise<R>): Promise<R>;
  /** Rows were written to a live table (for index maintenance and pending access counts). */
  written(table: string, ids: readonly string[]): void;
}

/** Plans this process is applying right now: another store object here must leave them alone. */
const inFlight = new Set<string>();

const newStageId = () => `${Date.now().toString(36)}-${process.pid}-${randomBytes(4).toString('hex')}`;
/** A pid in a staging table's name, checked only on this machine; its writer identity is not in the name. */
const hereAtOpen = currentWriter();

function stageTableName(live: string, id: string): string {
  return `${live}${STAGE_MARK}${id}`;
}

/** Every row of a table, a batch at a time, as plain objects, in the order they were appended. */
async function* stagedBatches(table: LanceTable): AsyncGenerator<object[]> {
  for await (const batch of table.query()) {
    const rows = (batch.toArray() as object[]).map((row) => plainRow(row));
    if (rows.length > 0) yield rows;
  }
}

/** The last row of each id, in order: a later staged row replaces an earlier one. */
function lastById(rows: readonly object[]): object[] {
  const byId = new Map<string, object>();
  for (const row of rows) {
    const id = (row as { id: string }).id;
    byId.delete(id);
    byId.set(id, row);
  }
  return [...byId.values()];
}

/** Whether the process that wrote a plan can no longer be applying it. */
function planWriterGone(host: StagingHost, id: string, plan: StagePlan): boolean {
  if (isThisProcess(plan.writer)) return !inFlight.has(id);
  return writerGone(plan.writer, { local: host.local, graceMs: FOREIGN_HOST_GRACE_MS });
}

/**
 * Apply a decided plan: per table, remove what it replaces, then merge in the staged rows.
 * Idempotent: run again from the start, it ends with the same data.
 */
async function applyPlan(host: StagingHost, id: string, plan: StagePlan): Promise<StagedRemovals> {
  const connection = await host.connection();
  const removed: StagedRemovals = { memories: 0, opinions: 0, procedures: 0, sessions: 0, entities: 0 };
  for (const kind of KINDS) {
    const name = host.names[kind];
    const live = await host.table(name);
    if (plan.replace) {
      const where = scopeSql(plan.replace.scope) ?? 'true';
      removed[kind] = await host.write(async () => {
        const count = await live.countRows(where);
        if (count > 0) await live.delete(where);
        return count;
      });
    }
    if (!plan.staged.includes(kind)) continue;
    const stage = await connection.openTable(stageTableName(name, id));
    try {
      for await (const batch of stagedBatches(stage)) {
        const rows = lastById(batch);
        const data = await host.arrowRows(live, rows);
        await host.write(async () => {
          await live
            .mergeInsert('id')
            .whenMatchedUpdateAll()
            .whenNotMatchedInsertAll()
            .execute(data as Parameters<ReturnType<LanceTable['mergeInsert']>['execute']>[0]);
        });
        host.written(
          name,
          rows.map((row) => (row as { id: string }).id),
        );
      }
    } finally {
      stage.close();
    }
  }
  return removed;
}

async function dropTables(connection: LanceConnection, names: readonly string[]): Promise<void> {
  for (const name of names) await connection.dropTable(name).catch(() => undefined);
}

function parsePlan(value: string): StagePlan | null {
  try {
    const plan = JSON.parse(value) as Partial<StagePlan> & { pid?: number; host?: string; at?: number };
    if (!Array.isArray(plan.staged)) return null;
    // Plans written before the writer identity (pid, host, at) are read as a hostname-only writer.
    const writer =
      parseWriter(plan.writer) ??
      parseWriter({ pid: plan.pid, machine: plan.host, exact: false, started: '', at: plan.at });
    return writer ? { replace: plan.replace ?? null, staged: plan.staged, writer } : null;
  } catch {
    return null;
  }
}

async function readPlans(meta: LanceTable): Promise<Array<{ id: string; plan: StagePlan | null }>> {
  const rows = (await meta
    .query()
    .where(`key LIKE ${sqlString(`${PLAN_PREFIX}%`)}`)
    .toArray()) as Array<{ key: string; value: string }>;
  return rows.map((row) => ({ id: row.key.slice(PLAN_PREFIX.length), plan: parsePlan(row.value) }));
}

async function forgetPlan(host: StagingHost, id: string, staged: readonly Kind[]): Promise<void> {
  const meta = await host.meta();
  await host.write(() => meta.delete(`key = ${sqlString(PLAN_PREFIX + id)}`));
  await dropTables(
    await host.connection(),
    staged.map((kind) => stageTableName(host.names[kind], id)),
  );
}

/** Whether the meta table holds any plan (one small query, for the periodic check). */
export async function hasStagedPlans(host: StagingHost): Promise<boolean> {
  const meta = await host.meta();
  return (await meta.countRows(`key LIKE ${sqlString(`${PLAN_PREFIX}%`)}`)) > 0;
}

/**
 * Finish what a killed process left: every decided plan whose writer is gone is applied
 * (rolled forward) and forgotten; with `orphans` (the default, when the store opens), staging
 * tables no plan names are dropped once their writer is gone (rolled back). Called when the
 * store opens, before anything is read, and now and then by an open store.
 */
export async function recoverStagedChanges(host: StagingHost, options: { orphans?: boolean } = {}): Promise<void> {
  const meta = await host.meta();
  const plans = await readPlans(meta);
  const decided = new Set<string>();
  for (const { id, plan } of plans) {
    decided.add(id);
    if (!plan) continue;
    if (!planWriterGone(host, id, plan)) continue;
    await host.exclusive(async () => {
      // Another store object (or process) may have finished it while this one waited.
      if (!(await readPlans(meta)).some((each) => each.id === id)) return;
      await applyPlan(host, id, plan);
      await forgetPlan(host, id, plan.staged);
    });
  }
  if (options.orphans === false) return;
  const connection = await host.connection();
  const prefixes = KINDS.map((kind) => `${host.names[kind]}${STAGE_MARK}`);
  const orphans: string[] = [];
  for (const name of await connection.tableNames()) {
    const prefix = prefixes.find((each) => name.startsWith(each));
    if (!prefix) continue;
    const id = name.slice(prefix.length);
    if (decided.has(id)) continue;
    const [stamp, pid] = id.split('-');
    const at = Number.parseInt(stamp ?? '', 36);
    const age = Date.now() - at;
    if (!Number.isFinite(age)) continue;
    // A table name carries no host: only a writer on this machine is checked by its pid.
    const gone =
      age > ORPHAN_MAX_AGE_MS ||
      (host.local &&
        Number(pid) !== process.pid &&
        writerGone(
          { ...hereAtOpen, pid: Number(pid), exact: false, at: at },
          { local: true, graceMs: ORPHAN_MAX_AGE_MS },
        ));
    if (gone) orphans.push(name);
  }
  await dropTables(connection, orphans);
}

/** A change being staged; see the comment at the top of this file. */
export class LanceStagedChange implements StagedChange {
  readonly #host: StagingHost;
  readonly #id = newStageId();
  readonly #replace: { scope?: Scope } | null;
  readonly #stages = new Map<Kind, LanceTable>();
  #settled = false;

  constructor(host: StagingHost, options: StageChangeOptions) {
    this.#host = host;
    this.#replace = options.replace ? { ...(options.replace.scope ? { scope: options.replace.scope } : {}) } : null;
  }

  async #stage(kind: Kind): Promise<LanceTable> {
    if (this.#settled) throw new Error('this staged change was already committed or aborted');
    const existing = this.#stages.get(kind);
    if (existing) return existing;
    const name = this.#host.names[kind];
    const live = await this.#host.table(name);
    const connection = await this.#host.connection();
    const stage = await this.#host.write(async () =>
      connection.createEmptyTable(stageTableName(name, this.#id), await live.schema(), { mode: 'create' }),
    );
    this.#stages.set(kind, stage);
    return stage;
  }

  async #append(kind: Kind, rows: readonly object[]): Promise<void> {
    if (rows.length === 0) return;
    const stage = await this.#stage(kind);
    const live = await this.#host.table(this.#host.names[kind]);
    const data = await this.#host.arrowRows(live, rows);
    await this.#host.write(() => stage.add(data as Parameters<LanceTable['add']>[0]));
  }

  async upsertMemories(records: readonly MemoryRecord[]): Promise<void> {
    await this.#append('memories', [...this.#host.memoryRows(records).values()]);
  }

  async upsertRecords(key: RecordCollectionKey, records: readonly { id: string; scope: Scope }[]): Promise<void> {
    // Serialised first, so a record JSON cannot hold fails before anything is staged.
    const rows = records.map((record) => recordToRow(record));
    await this.#append(key, rows);
  }

  async commit(): Promise<StagedRemovals> {
    if (this.#settled) throw new Error('this staged change was already committed or aborted');
    const staged = [...this.#stages.keys()];
    for (const stage of this.#stages.values()) stage.close();
    this.#stages.clear();
    const none: StagedRemovals = { memories: 0, opinions: 0, procedures: 0, sessions: 0, entities: 0 };
    if (staged.length === 0 && !this.#replace) {
      this.#settled = true;
      return none;
    }
    const plan: StagePlan = { replace: this.#replace, staged, writer: currentWriter() };
    const host = this.#host;
    inFlight.add(this.#id);
    try {
      return await host.exclusive(async () => {
        const meta = await host.meta();
        // The commit point: from here on the change happens, now or at the next open.
        await host.write(() =>
          meta
            .mergeInsert('key')
            .whenMatchedUpdateAll()
            .whenNotMatchedInsertAll()
            .execute([{ key: PLAN_PREFIX + this.#id, value: JSON.stringify(plan) }]),
        );
        this.#settled = true;
        let removed: StagedRemovals;
        try {
          removed = await applyPlan(host, this.#id, plan);
        } catch {
          // Decided, so it must happen: once more, and if that fails too, the next open finishes it.
          removed = await applyPlan(host, this.#id, plan);
        }
        await forgetPlan(host, this.#id, staged);
        return removed;
      });
    } finally {
      inFlight.delete(this.#id);
    }
  }

  async abort(): Promise<void> {
    if (this.#settled) return;
    this.#settled = true;
    const names = [...this.#stages.keys()].map((kind) => stageTableName(this.#host.names[kind], this.#id));
    for (const stage of this.#stages.values()) stage.close();
    this.#stages.clear();
    await dropTables(await this.#host.connection(), names);
  }
}
