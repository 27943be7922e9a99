import type * as Arrow from 'apache-arrow';
import { lexicalTerms } from '../../core/text/memory-text.js';
import type { LanceConnection, LanceLibraries, LanceTable } from './lancedb-driver.js';

/** The names of the tables one store uses, all derived from the memories table's name. */
export interface LanceTableNames {
  memories: string;
  opinions: string;
  procedures: string;
  sessions: string;
  entities: string;
  meta: string;
}

/** The record collections, each a table of its own. */
export const RECORD_KINDS = ['opinions', 'procedures', 'sessions', 'entities'] as const;
/** One of {@link RECORD_KINDS}. */
export type RecordKind = (typeof RECORD_KINDS)[number];

/** Table names for a memories table called `memories`. */
export function tableNames(memories: string): LanceTableNames {
  return {
    memories,
    opinions: `${memories}_opinions`,
    procedures: `${memories}_procedures`,
    sessions: `${memories}_sessions`,
    entities: `${memories}_entities`,
    meta: `${memories}_meta`,
  };
}

/** The vector column's SQL type for `dimensions`, as DataFusion's arrow_cast names it. */
export function vectorSqlType(dimensions: number): string {
  return `FixedSizeList(${dimensions}, Float32)`;
}

/**
 * The memories table without its vector column, which is added once an embedder names its
 * dimensions. The first ten columns are the ePro v2 `agent_memories` row (seed 002): times are
 * epoch milliseconds, `source_session` is the session and `active_count` the access count.
 */
export function memoriesSchema(arrow: typeof Arrow): Arrow.Schema {
  const { Field, Utf8, Float64, Int32, Bool, List, Schema } = arrow;
  const text = (name: string, nullable = false) => new Field(name, new Utf8(), nullable);
  const time = (name: string, nullable = false) => new Field(name, new Float64(), nullable);
  const strings = (name: string) => new Field(name, new List(new Field('item', new Utf8(), true)), false);
  return new Schema([
    text('id'),
    text('category'),
    text('abstract'),
    text('overview', true),
    text('content'),
    text('source_session', true),
    new Field('active_count', new Int32(), false),
    time('created_at'),
    time('updated_at'),
    text('kind'),
    text('context', true),
    strings('entities'),
    // Entity names folded as text search folds them, so `zoe` finds `Zoë` in a filter.
    strings('entity_keys'),
    text('agent_id', true),
    text('user_id', true),
    text('namespace', true),
    text('source', true),
    time('occurred_at'),
    time('valid_from'),
    time('valid_to', true),
    text('invalidation_reason', true),
    text('superseded_by', true),
    new Field('importance', new Float64(), false),
    new Field('bookmarked', new Bool(), false),
    time('last_accessed_at', true),
    text('fingerprint'),
    text('metadata'),
    // memoir's own analysed terms (folded, stemmed, stop words out), indexed with a whitespace
    // tokenizer, so the native full-text index matches exactly what the other stores match.
    text('lexical_terms'),
    // Whether the vector is set: a bitmap index answers "which memories wait for an
    // embedding" without reading a single vector.
    new Field('embedded', new Bool(), false),
  ]);
}

/** A record table: the scope columns to filter on, and the record itself as JSON. */
export function recordSchema(arrow: typeof Arrow): Arrow.Schema {
  const { Field, Utf8, Schema } = arrow;
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('agent_id', new Utf8(), true),
    new Field('user_id', new Utf8(), true),
    new Field('namespace', new Utf8(), true),
    new Field('data', new Utf8(), false),
  ]);
}

/** Key-value settings: the schema version and the embedder the vectors were built with. */
export function metaSchema(arrow: typeof Arrow): Arrow.Schema {
  const { Field, Utf8, Schema } = arrow;
  return new Schema([new Field('key', new Utf8(), false), new Field('value', new Utf8(), false)]);
}

/** What a migration step works with. */
export interface MigrationContext {
  libraries: LanceLibraries;
  connection: LanceConnection;
  names: LanceTableNames;
  /** Open a table of this store by name. */
  open(name: string): Promise<LanceTable>;
}

/** One step of the schema; the `schema_version` meta key records how many have run. */
export interface LanceMigration {
  /** What it changes, for logs. */
  description: string;
  /** Applies the step; must be safe to run again after a crash halfway through. */
  up(context: MigrationContext): Promise<void>;
}

/**
 * The scope columns, indexed by bitmaps since schema 3: at 100,000 memories of 20 users a
 * bitmap answered the scope prefilter of a full-text search in 19 ms where the B-tree took
 * 24–27 ms, and counted a scope in 1 ms where the B-tree took 4–8 ms. Scopes have few distinct
 * values per table (users, agents, namespaces), the case bitmaps are built for.
 */
export const SCOPE_COLUMNS = ['user_id', 'agent_id', 'namespace'] as const;

// Index creation on a table that already has the index replaces it; a step re-run after a
// crash therefore checks first.
async function ensureIndex(
  table: LanceTable,
  column: string,
  config: Parameters<LanceTable['createIndex']>[1],
): Promise<void> {
  const indices = await table.listIndices();
  if (indices.some((index) => index.columns.length === 1 && index.columns[0] === column)) return;
  await table.createIndex(column, config);
}

/**
 * Every schema step, oldest first. Never edit a released step: add a new one, so tables
 * made by any earlier version migrate forward.
 *
 * @group Schema
 */
export const LANCE_MIGRATIONS: readonly LanceMigration[] = [
  {
    description: 'memories (ePro v2 columns and every Memory field), record tables, scalar and full-text indexes',
    async up({ libraries: { lancedb, arrow }, connection, names }) {
      const create = (name: string, schema: Arrow.Schema) =>
        connection.createEmptyTable(name, schema, { mode: 'create', existOk: true });
      const memories = await create(names.memories, memoriesSchema(arrow));
      for (const kind of RECORD_KINDS) {
        const table = await create(names[kind], recordSchema(arrow));
        await ensureIndex(table, 'id', { config: lancedb.Index.btree() });
      }
      await ensureIndex(memories, 'id', { config: lancedb.Index.btree() });
      // Scope columns are what every tenant-bound query filters on first; retain looks
      // duplicates up by fingerprint, and sessions list their memories.
      for (const column of ['user_id', 'agent_id', 'namespace', 'fingerprint', 'source_session']) {
        await ensureIndex(memories, column, { config: lancedb.Index.btree() });
      }
      await ensureIndex(memories, 'entity_keys', { config: lancedb.Index.labelList() });
      await ensureIndex(memories, 'embedded', { config: lancedb.Index.bitmap() });
      await ensureIndex(memories, 'lexical_terms', {
        config: lancedb.Index.fts({
          baseTokenizer: 'whitespace',
          lowercase: false,
          stem: false,
          removeStopWords: false,
          asciiFolding: false,
          withPosition: false,
          maxTokenLength: 256,
        }),
      });
    },
  },
  {
    description: "memories with a context index their own text twice, so it outweighs their neighbours'",
    async up({ libraries: { lancedb, arrow }, open, names }) {
      const memories = await open(names.memories);
      const rows = (await memories
        .query()
        .where('context IS NOT NULL')
        .select(['id', 'abstract', 'overview', 'content', 'entities', 'context'])
        .toArray()) as Array<{
        id: string;
        abstract: string;
        overview: string | null;
        content: string;
        entities: Iterable<string> | null;
        context: string;
      }>;
      const schema = new arrow.Schema([
        new arrow.Field('id', new arrow.Utf8(), false),
        new arrow.Field('lexical_terms', new arrow.Utf8(), false),
      ]);
      // Recomputing the same terms twice changes nothing, so a step re-run after a crash is safe.
      for (let start = 0; start < rows.length; start += 5000) {
        const terms = rows.slice(start, start + 5000).map((row) => ({
          id: row.id,
          lexical_terms: lexicalTerms({ ...row, entities: [...(row.entities ?? [])] }),
        }));
        await memories.mergeInsert('id').whenMatchedUpdateAll().execute(lancedb.makeArrowTable(terms, { schema }));
      }
    },
  },
  {
    description: 'scope columns indexed by bitmaps, which answer a scope prefilter faster than B-trees',
    async up({ libraries: { lancedb }, open, names }) {
      const memories = await open(names.memories);
      const indices = await memories.listIndices();
      for (const column of SCOPE_COLUMNS) {
        const index = indices.find((each) => each.columns.length === 1 && each.columns[0] === column);
        // Already a bitmap: a step re-run after a crash leaves it.
        if (index?.indexType.toUpperCase() === 'BITMAP') continue;
        await memories.createIndex(column, { config: lancedb.Index.bitmap(), replace: true });
      }
    },
  },
];

/**
 * The schema version this code writes.
 *
 * @group Schema
 */
export const LANCE_SCHEMA_VERSION = LANCE_MIGRATIONS.length;
