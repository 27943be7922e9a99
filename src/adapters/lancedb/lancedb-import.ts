import { StoreError } from '../../core/spec/errors.js';
import { loadLanceLibraries } from './lancedb-driver.js';

/** The tables `memoir import --from-lancedb` reads. */
export const FOREIGN_TABLES = ['memories', 'agent_memories'] as const;
/** One of {@link FOREIGN_TABLES}: OpenClaw's memory-lancedb table, or ePro v2's. */
export type ForeignTable = (typeof FOREIGN_TABLES)[number];

/** A row of another memory store's LanceDB table, in neutral terms. */
export interface ForeignMemory {
  id: string;
  /** The full text (OpenClaw `text`, ePro `content`). */
  content: string;
  /** ePro's L0 and L1; null for OpenClaw rows. */
  abstract: string | null;
  overview: string | null;
  category: string | null;
  importance: number | null;
  sessionId: string | null;
  accessCount: number;
  /** Epoch milliseconds, or null when the row has none. */
  createdAt: number | null;
  updatedAt: number | null;
  vector: Float32Array | null;
  /** The text the row's vector was made from, to tell whether an embedder reproduces it. */
  embeddedText: string;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);
const number = (value: unknown): number | null => {
  const n = typeof value === 'bigint' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const vectorOf = (value: unknown): Float32Array | null =>
  value === null || value === undefined ? null : Float32Array.from(value as Iterable<number>);

/** A row of OpenClaw's memory-lancedb table (id, text, vector, importance, category, createdAt). */
function fromOpenClaw(row: Record<string, unknown>): ForeignMemory | null {
  const content = text(row.text);
  if (!content) return null;
  return {
    id: String(row.id),
    content,
    abstract: null,
    overview: null,
    category: text(row.category),
    importance: number(row.importance),
    sessionId: null,
    accessCount: 0,
    createdAt: number(row.createdAt),
    updatedAt: number(row.createdAt),
    vector: vectorOf(row.vector),
    embeddedText: content,
  };
}

/** A row of ePro v2's `agent_memories` table (seed 002). */
function fromEpro(row: Record<string, unknown>): ForeignMemory | null {
  const content = text(row.content) ?? text(row.abstract);
  if (!content) return null;
  const abstract = text(row.abstract);
  return {
    id: String(row.id),
    content,
    abstract,
    overview: text(row.overview),
    category: text(row.category),
    importance: null,
    sessionId: text(row.source_session),
    accessCount: Math.max(0, Math.floor(number(row.active_count) ?? 0)),
    createdAt: number(row.created_at),
    updatedAt: number(row.updated_at) ?? number(row.created_at),
    vector: vectorOf(row.vector),
    // ePro embeds `abstract + " " + content`.
    embeddedText: abstract ? `${abstract} ${content}` : content,
  };
}

/**
 * The rows of an OpenClaw memory-lancedb or ePro v2 table at `uri`, in batches, told apart
 * by their columns. Without `table`, the first of `memories` and `agent_memories` that
 * exists. Rows without text are left out.
 */
export async function* readForeignMemories(options: {
  uri: string;
  table?: ForeignTable;
  storageOptions?: Record<string, string>;
}): AsyncGenerator<{ table: ForeignTable; rows: ForeignMemory[] }> {
  const { lancedb } = await loadLanceLibraries('off');
  const connection = await lancedb.connect(options.uri, { storageOptions: options.storageOptions });
  try {
    const names = await connection.tableNames();
    const name = options.table ?? FOREIGN_TABLES.find((candidate) => names.includes(candidate));
    if (!name || !names.includes(name)) {
      throw new StoreError(`${options.uri} has no table ${options.table ?? FOREIGN_TABLES.join(' or ')}`, {
        component: 'lancedb-import',
        suggestion: `Its tables: ${names.join(', ') || 'none'}. Pass --table with one of ${FOREIGN_TABLES.join(', ')}.`,
      });
    }
    const table = await connection.openTable(name);
    const columns = new Set((await table.schema()).fields.map((field) => field.name));
    const convert = columns.has('text') ? fromOpenClaw : columns.has('content') ? fromEpro : null;
    if (!convert) {
      throw new StoreError(`table ${name} at ${options.uri} is neither OpenClaw's memory-lancedb nor ePro v2's`, {
        component: 'lancedb-import',
        suggestion: 'Expected a `text` column (OpenClaw) or `content` and `abstract` columns (ePro v2).',
      });
    }
    for await (const batch of table.query()) {
      const rows = (batch.toArray() as Array<{ toJSON(): Record<string, unknown> }>).flatMap((row) => {
        const converted = convert(row.toJSON());
        return converted ? [converted] : [];
      });
      yield { table: name as ForeignTable, rows };
    }
    table.close();
  } finally {
    connection.close();
  }
}
