import { foldText } from '../../core/text/analyze.js';
import { lexicalTerms } from '../../core/text/memory-text.js';
import { encodeStoredText } from '../../core/text/stored-text.js';
import type { SqliteDatabase } from './sqlite-driver.js';

/**
 * The key `memory_entities` holds for an entity name: folded as text search folds (case,
 * accents, compatibility forms), so an entity filter for `zoe` finds `Zoë` as `memoryMatches` does;
 * escaped like every stored text, so two names that differ in a lone surrogate stay apart.
 */
export function entityKey(name: string): string {
  return encodeStoredText(foldText(name));
}

/** One step of the schema; `PRAGMA user_version` records how many have run. */
export interface Migration {
  /** What it changes, for logs. */
  description: string;
  /** Applies the step inside the migration transaction. */
  up(db: SqliteDatabase): void;
}

const RECORD_TABLES = ['opinions', 'procedures', 'sessions', 'entities'] as const;

/**
 * Every schema step, oldest first. Never edit a released step: add a new one, so that
 * databases made by any earlier version migrate forward. Internal to the adapter: the store
 * migrates its file when it opens.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    description: 'memories, entity links, records and metadata',
    up(db) {
      db.exec(`
        CREATE TABLE memoir_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE memories (
          rowid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL,
          category TEXT NOT NULL,
          abstract TEXT NOT NULL,
          overview TEXT,
          content TEXT NOT NULL,
          entities TEXT NOT NULL,
          agent_id TEXT,
          user_id TEXT,
          namespace TEXT,
          session_id TEXT,
          source TEXT,
          occurred_at TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          valid_from TEXT NOT NULL,
          valid_to TEXT,
          invalidation_reason TEXT,
          superseded_by TEXT,
          importance REAL NOT NULL,
          bookmarked INTEGER NOT NULL,
          access_count INTEGER NOT NULL,
          last_accessed_at TEXT,
          fingerprint TEXT NOT NULL,
          metadata TEXT NOT NULL,
          embedding BLOB
        );
        CREATE INDEX memories_user ON memories (user_id);
        CREATE INDEX memories_agent ON memories (agent_id);
        CREATE INDEX memories_namespace ON memories (namespace);
        CREATE INDEX memories_session ON memories (session_id);
        CREATE INDEX memories_occurred ON memories (occurred_at);
        CREATE INDEX memories_created ON memories (created_at);
        CREATE INDEX memories_fingerprint ON memories (fingerprint);
        CREATE TABLE memory_entities (
          memory_rowid INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
          entity_key TEXT NOT NULL,
          PRIMARY KEY (entity_key, memory_rowid)
        ) WITHOUT ROWID;
        CREATE INDEX memory_entities_memory ON memory_entities (memory_rowid);
      `);
      for (const table of RECORD_TABLES) {
        db.exec(`CREATE TABLE ${table} (
          id TEXT PRIMARY KEY,
          agent_id TEXT,
          user_id TEXT,
          namespace TEXT,
          data TEXT NOT NULL
        )`);
      }
    },
  },
  {
    description: 'FTS5 lexical index over analysed memory text, kept in sync by triggers',
    up(db) {
      db.exec(`
        ALTER TABLE memories ADD COLUMN lexical_terms TEXT NOT NULL DEFAULT '';
        CREATE VIRTUAL TABLE memories_fts USING fts5(
          lexical_terms,
          content = 'memories',
          content_rowid = 'rowid',
          tokenize = 'porter unicode61 remove_diacritics 2'
        );
      `);
      // Terms for rows written before this step, then one rebuild; the triggers come last
      // because an FTS5 'delete' of a row that was never indexed corrupts the index.
      const rows = db.prepare('SELECT rowid, abstract, overview, content, entities FROM memories').all() as Array<{
        rowid: number;
        abstract: string;
        overview: string | null;
        content: string;
        entities: string;
      }>;
      const update = db.prepare('UPDATE memories SET lexical_terms = ? WHERE rowid = ?');
      for (const row of rows) {
        const entities = JSON.parse(row.entities) as string[];
        update.run(lexicalTerms({ ...row, entities }), row.rowid);
      }
      db.exec(`
        INSERT INTO memories_fts (memories_fts) VALUES ('rebuild');
        CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
          INSERT INTO memories_fts (rowid, lexical_terms) VALUES (new.rowid, new.lexical_terms);
        END;
        CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, lexical_terms) VALUES ('delete', old.rowid, old.lexical_terms);
        END;
        CREATE TRIGGER memories_fts_update AFTER UPDATE OF lexical_terms ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, lexical_terms) VALUES ('delete', old.rowid, old.lexical_terms);
          INSERT INTO memories_fts (rowid, lexical_terms) VALUES (new.rowid, new.lexical_terms);
        END;
      `);
    },
  },
  {
    description: 'embeddings move to their own table, so scans of memories stay small',
    up(db) {
      db.exec(`
        CREATE TABLE memory_embeddings (
          memory_rowid INTEGER PRIMARY KEY REFERENCES memories (rowid) ON DELETE CASCADE,
          embedding BLOB NOT NULL
        );
        INSERT INTO memory_embeddings (memory_rowid, embedding)
          SELECT rowid, embedding FROM memories WHERE embedding IS NOT NULL;
        ALTER TABLE memories DROP COLUMN embedding;
      `);
    },
  },
  {
    description: 'memories get a context column, indexed with their text',
    up(db) {
      db.exec('ALTER TABLE memories ADD COLUMN context TEXT');
    },
  },
  {
    description: 'entity keys fold accents as well as case (`zoe` finds `Zoë`)',
    up(db) {
      const rows = db.prepare('SELECT rowid, entities FROM memories').all() as Array<{
        rowid: number;
        entities: string;
      }>;
      db.exec('DELETE FROM memory_entities');
      const link = db.prepare('INSERT OR IGNORE INTO memory_entities (memory_rowid, entity_key) VALUES (?, ?)');
      for (const row of rows) {
        for (const entity of JSON.parse(row.entities) as string[]) link.run(row.rowid, entityKey(entity));
      }
    },
  },
  {
    description:
      'search moves into an in-process index that follows a change sequence; the FTS5 index and its triggers go',
    up(db) {
      db.exec(`
        DROP TRIGGER IF EXISTS memories_fts_insert;
        DROP TRIGGER IF EXISTS memories_fts_delete;
        DROP TRIGGER IF EXISTS memories_fts_update;
        DROP TABLE IF EXISTS memories_fts;
        ALTER TABLE memories ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX memories_change_seq ON memories (change_seq);
        CREATE TABLE memory_tombstones (memory_rowid INTEGER NOT NULL, change_seq INTEGER NOT NULL);
        CREATE INDEX memory_tombstones_seq ON memory_tombstones (change_seq);
      `);
      const setMeta = db.prepare('INSERT OR REPLACE INTO memoir_meta (key, value) VALUES (?, ?)');
      setMeta.run('change_seq', '0');
      setMeta.run('index_generation', newGeneration());
    },
  },
  {
    description: 'memories flag whether they have an embedding, so the ones waiting for one are found by index',
    up(db) {
      db.exec(`
        ALTER TABLE memories ADD COLUMN has_embedding INTEGER NOT NULL DEFAULT 0;
        UPDATE memories SET has_embedding = 1 WHERE rowid IN (SELECT memory_rowid FROM memory_embeddings);
        CREATE INDEX memories_unembedded ON memories (id) WHERE has_embedding = 0;
      `);
    },
  },
  {
    description: "memories with a context index their own text twice, so it outweighs their neighbours'",
    up(db) {
      const rows = db
        .prepare('SELECT rowid, abstract, overview, content, entities, context FROM memories WHERE context IS NOT NULL')
        .all() as Array<{
        rowid: number;
        abstract: string;
        overview: string | null;
        content: string;
        entities: string;
        context: string;
      }>;
      const update = db.prepare('UPDATE memories SET lexical_terms = ? WHERE rowid = ?');
      for (const row of rows) {
        update.run(lexicalTerms({ ...row, entities: JSON.parse(row.entities) as string[] }), row.rowid);
      }
      // Every process's search index reloads, and a snapshot of the old terms is ignored.
      db.prepare("INSERT OR REPLACE INTO memoir_meta (key, value) VALUES ('index_generation', ?)").run(newGeneration());
    },
  },
];

/** A fresh value for `index_generation`: every process's search index reloads when it changes. */
export function newGeneration(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** The schema version this code writes (`PRAGMA user_version`). */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Bring `db` up to `target` (default: the latest), each step in its own transaction.
 * Resolves to the version before migrating. Safe when several processes open a new
 * database at once: each step re-reads the version under the write lock.
 */
export function migrate(db: SqliteDatabase, target = SCHEMA_VERSION): number {
  const readVersion = () => db.pragma('user_version', { simple: true }) as number;
  const before = readVersion();
  const step = db.transaction(() => {
    const version = readVersion();
    if (version >= target) return false;
    MIGRATIONS[version]!.up(db);
    db.pragma(`user_version = ${version + 1}`);
    return true;
  }) as unknown as { immediate(): boolean };
  while (step.immediate()) {
    // one step per transaction
  }
  return before;
}
