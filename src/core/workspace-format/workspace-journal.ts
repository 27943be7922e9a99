/**
 * Writing what is retained into a workspace to its Markdown, the source of truth: new memories
 * are appended to their day's `memory/YYYY-MM-DD.md` under `## Retain`, changed ones rewritten
 * in place, forgotten ones removed; then the files touched are indexed, so every memory cites
 * its line and a rebuilt index holds the same ones. Writers in several processes take turns
 * through the workspace's lock (`.memory/.lock`, the one indexing and reflect take), and each
 * file is replaced whole by a rename, so a reader never sees half a line.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { wrapError } from '../engine/memory-engine.js';
import { withDirectoryLock } from '../shared/files/directory-lock.js';
import { StoreError } from '../spec/errors.js';
import type { Memory } from '../spec/memory.js';
import { confinedFolder } from '../utils/confined-path.js';
import { formatJournalBullet } from './journal-bullet.js';
import { parseWorkspaceFile } from './workspace-chunks.js';
import { listWorkspaceFiles, MAX_WORKSPACE_FILE_BYTES, roleOf } from './workspace-files.js';
import { indexAppended, indexWorkspace, itemId, workspaceMark } from './workspace-index.js';

/** Keeps a workspace's Markdown in step with what a client retains, changes and forgets. */
export interface WorkspaceJournal {
  /** Append new memories to their day files; resolves to them as indexed from there (with their citation). */
  retained(memories: readonly Memory[]): Promise<Memory[]>;
  /** Rewrite the bullets of changed memories (one not in a file yet is appended). */
  changed(memories: readonly Memory[]): Promise<void>;
  /** Remove the lines of forgotten memories, so a rebuild does not bring them back. */
  forgotten(memories: readonly Memory[]): Promise<void>;
  /** Remove the memoir-written bullets of memories already deleted from the index (evicted), by id. */
  forgottenIds(ids: readonly string[]): Promise<void>;
}

const CONTEXT = { component: 'workspace.journal', field: 'workspace' } as const;
// A day file is rolled over to `YYYY-MM-DD-2.md` … before it nears the size the index reads.
const ROLL_OVER_BYTES = Math.floor(MAX_WORKSPACE_FILE_BYTES * 0.9);

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

// Replace the file whole: written beside it (a dot file the index skips), then renamed over it.
function replace(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

function lastHeading(lines: readonly string[]): string | undefined {
  for (let index = lines.length - 1; index >= 0; index--) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(lines[index]!);
    if (heading) return heading[1];
  }
  return undefined;
}

/** `text` with `bullets` appended under a `## Retain` section (the last one, or a new one). */
export function appendRetained(text: string, day: string, bullets: readonly string[]): string {
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const fences = lines.filter((line) => /^\s*(```|~~~)/.test(line)).length;
  if (fences % 2 === 1) lines.push('```');
  if (lines.length === 0) lines.push(`# ${day}`);
  const heading = lastHeading(lines);
  if (heading === undefined || !/^retain\b/i.test(heading) || fences % 2 === 1) {
    if (lines[lines.length - 1]!.trim() !== '') lines.push('');
    lines.push('## Retain', '');
  } else if (lines[lines.length - 1]!.trim() !== '' && !/^[-*+]\s/.test(lines[lines.length - 1]!)) {
    lines.push('');
  }
  return `${[...lines, ...bullets].join('\n')}\n`;
}

/** The journal of the workspace at `workspace`, over the client's engine. */
export function createWorkspaceJournal(engine: MemoryEngine, workspace: string): WorkspaceJournal {
  const root = resolve(workspace);
  const locked = <T>(work: () => Promise<T>): Promise<T> =>
    withDirectoryLock(confinedFolder(root, ['.memory'], CONTEXT), work, { component: 'workspace.journal' });

  // The day file a new memory goes to: its day's, or the next part once that one is full.
  const dayFileFor = (memory: Memory, adding: number): string => {
    const day = memory.occurredAt.slice(0, 10);
    for (let part = 1; ; part++) {
      const path = `memory/${day}${part === 1 ? '' : `-${part}`}.md`;
      const absolute = join(root, ...path.split('/'));
      const size = existsSync(absolute) ? statSync(absolute).size : 0;
      if (size + adding <= ROLL_OVER_BYTES || size === 0) return path;
    }
  };

  const absolute = (path: string) => join(root, ...path.split('/'));

  // The file holding a memoir-written bullet of `id`, for a memory whose metadata lost its
  // mark (an update that replaced the metadata): read only when that happens.
  const fileHolding = (id: string): string | undefined => {
    const needle = JSON.stringify({ id }).slice(1, -1);
    return listWorkspaceFiles(root).files.find((file) => read(file.absolute).includes(needle))?.path;
  };

  // Bring the index up to date with the files written; a failure there is no lost memory (the
  // Markdown holds it, the next index reads it): it is said in an event, never thrown.
  const reindex = async (files: readonly string[]) => {
    if (files.length === 0) return;
    try {
      await indexWorkspace(engine, root, { rebuild: false, only: files });
    } catch (error) {
      engine.emit('error', { operation: 'workspace.journal', error: wrapError(error, 'workspace.journal') });
    }
  };

  const failed = (error: unknown): never => {
    throw new StoreError(
      `could not write the workspace's Markdown: ${error instanceof Error ? error.message : String(error)}`,
      {
        component: CONTEXT.component,
        suggestion: `Check that ${root}/memory can be written; the memory is in the index until it is rebuilt.`,
        cause: error,
      },
    );
  };

  // Appended files: what each held before and after, for indexing only the new bullets.
  type Appended = Map<string, { previous: string; text: string }>;

  const append = (memories: readonly Memory[], touched: Set<string>, appended?: Appended) => {
    confinedFolder(root, ['memory'], CONTEXT);
    const byFile = new Map<string, string[]>();
    for (const memory of memories) {
      const bullet = formatJournalBullet(memory);
      const file = dayFileFor(memory, Buffer.byteLength(bullet) + 1);
      const list = byFile.get(file) ?? [];
      list.push(bullet);
      byFile.set(file, list);
    }
    for (const [file, bullets] of byFile) {
      const path = absolute(file);
      const previous = read(path);
      const text = appendRetained(previous, file.slice('memory/'.length, 'memory/'.length + 10), bullets);
      replace(path, text);
      touched.add(file);
      appended?.set(file, { previous, text });
    }
  };

  // Edit the lines of marked memories in their files: `rewrite` gives the new lines (none to remove).
  const edit = (memories: readonly Memory[], rewrite: (memory: Memory) => string[], touched: Set<string>) => {
    const byFile = new Map<string, Memory[]>();
    const unplaced: Memory[] = [];
    for (const memory of memories) {
      const file = workspaceMark(memory)?.file ?? fileHolding(memory.id);
      if (file === undefined) unplaced.push(memory);
      else byFile.set(file, [...(byFile.get(file) ?? []), memory]);
    }
    for (const [file, targets] of byFile) {
      const path = absolute(file);
      const text = read(path);
      const parsed = parseWorkspaceFile(file, text, roleOf(file));
      if ('tooMany' in parsed) {
        unplaced.push(...targets);
        continue;
      }
      const lines = text.split(/\r?\n/);
      const edits: Array<{ from: number; to: number; lines: string[] }> = [];
      for (const memory of targets) {
        const item =
          parsed.items.find((candidate) =>
            candidate.journal
              ? candidate.journal.fields.id === memory.id
              : itemId(file, candidate.line, candidate.content) === memory.id,
          ) ??
          // The file moved on since it was indexed: the same words, wherever they are now.
          parsed.items.find((candidate) => !candidate.journal && candidate.content === memory.content);
        if (item === undefined) {
          unplaced.push(memory);
          continue;
        }
        edits.push({ from: item.line - 1, to: item.endLine, lines: rewrite(memory) });
      }
      if (edits.length === 0) continue;
      // From the bottom up, so earlier line numbers still hold.
      for (const change of edits.sort((a, b) => b.from - a.from)) {
        lines.splice(change.from, change.to - change.from, ...change.lines);
      }
      replace(path, lines.join('\n'));
      touched.add(file);
    }
    return unplaced;
  };

  // Lines of memoir-written bullets whose ids are in `ids`, in any workspace file, removed.
  const removeByIds = (ids: ReadonlySet<string>, touched: Set<string>) => {
    const needles = [...ids].map((id) => JSON.stringify({ id }).slice(1, -1));
    for (const file of listWorkspaceFiles(root).files) {
      const text = read(file.absolute);
      if (!needles.some((needle) => text.includes(needle))) continue;
      const parsed = parseWorkspaceFile(file.path, text, file.role);
      if ('tooMany' in parsed) continue;
      const gone = parsed.items.filter((item) => item.journal && ids.has(item.journal.fields.id));
      if (gone.length === 0) continue;
      const lines = text.split(/\r?\n/);
      for (const item of gone.sort((a, b) => b.line - a.line))
        lines.splice(item.line - 1, item.endLine - item.line + 1);
      replace(file.absolute, lines.join('\n'));
      touched.add(file.path);
    }
  };

  // Ids forget() already took out of the files; any other forgotten memory (a deleted session)
  // is looked for in the files in the background, so a rebuild does not bring it back either.
  const handled = new Set<string>();
  engine.events.on('memory:forgotten', ({ ids }) => {
    const rest = new Set(ids.filter((id) => !handled.delete(id)));
    if (rest.size === 0) return;
    engine.background('workspace.journal', async () => {
      const touched = new Set<string>();
      await locked(async () => {
        removeByIds(rest, touched);
        await reindex([...touched]);
      });
    });
  });

  return {
    async retained(memories) {
      if (memories.length === 0) return [];
      const touched = new Set<string>();
      const appended: Appended = new Map();
      await locked(async () => {
        try {
          append(memories, touched, appended);
        } catch (error) {
          failed(error);
        }
        // Only the new bullets are indexed when the index held the file as it was; otherwise the file.
        const whole: string[] = [];
        for (const [file, { previous, text }] of appended) {
          try {
            if (!(await indexAppended(engine, file, previous, text))) whole.push(file);
          } catch {
            whole.push(file);
          }
        }
        await reindex(whole);
      });
      const indexed = new Map((await engine.store.getMemories(memories.map((m) => m.id))).map((m) => [m.id, m]));
      return memories.map((memory) => indexed.get(memory.id) ?? memory);
    },
    async changed(memories) {
      if (memories.length === 0) return;
      const touched = new Set<string>();
      await locked(async () => {
        try {
          // A memory in no file yet (kept before its workspace wrote Markdown, or its line
          // deleted by hand meanwhile) is written now.
          append(
            edit(memories, (memory) => [formatJournalBullet(memory)], touched),
            touched,
          );
        } catch (error) {
          failed(error);
        }
        await reindex([...touched]);
      });
    },
    async forgottenIds(ids) {
      if (ids.length === 0) return;
      const touched = new Set<string>();
      await locked(async () => {
        try {
          removeByIds(new Set(ids), touched);
        } catch (error) {
          failed(error);
        }
        await reindex([...touched]);
      });
    },
    async forgotten(memories) {
      if (memories.length === 0) return;
      for (const memory of memories) handled.add(memory.id);
      const touched = new Set<string>();
      await locked(async () => {
        try {
          edit(memories, () => [], touched);
        } catch (error) {
          failed(error);
        }
        await reindex([...touched]);
      });
    },
  };
}
