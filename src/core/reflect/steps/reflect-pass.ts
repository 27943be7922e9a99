import type { MemoryEngine } from '../../engine/memory-engine.js';
import type { Memory } from '../../spec/memory.js';
import { type ConfinementContext, confinedWritePath, readConfined } from '../../utils/confined-path.js';
import { MAX_WORKSPACE_FILE_BYTES } from '../../workspace-format/workspace-files.js';
import type { ReflectBudget } from '../reflect-budget.js';
import type { ReflectReport } from '../reflect-report.js';

/** How reflect names itself when a path leaves the workspace. */
export const CONFINED: ConfinementContext = { component: 'reflect', field: 'workspace' };

/** What every step of one reflect run works with; the steps add what they did to `report`. */
export interface ReflectPass {
  readonly engine: MemoryEngine;
  /** The workspace root, absolute. */
  readonly root: string;
  /** Its real path, which confined reads and writes stay inside. */
  readonly realRoot: string;
  /** Start of the window reflected over (ISO). */
  readonly sinceIso: string;
  /** The run's "now" (ISO): every step judges what holds at this one instant. */
  readonly nowIso: string;
  readonly budget: ReflectBudget;
  readonly report: ReflectReport;
}

/** The workspace's indexed memories a run reflects over. */
export interface ReflectMemories {
  /** What holds now. */
  all: Memory[];
  /** Versions a newer fact replaced, and stays or spans that ended. */
  replaced: Memory[];
  /** What holds now and occurred in the window. */
  recent: Memory[];
}

/** What reflect found at a path it is about to rewrite. */
export type PageText = { text: string | undefined } | { skipped: string };

/**
 * The file a generated section goes into, `segments` under the workspace (links leaving the
 * workspace refused with a ConfigError naming them), with its text when it has one, or why
 * it cannot be read (too big, not a regular file).
 */
export function pageAt(root: string, realRoot: string, segments: readonly string[]): { path: string; page: PageText } {
  const path = confinedWritePath(root, segments, CONFINED);
  const read = readConfined(realRoot, path, MAX_WORKSPACE_FILE_BYTES);
  if (read.status === 'ok') return { path, page: { text: read.text } };
  if (read.status === 'missing') return { path, page: { text: undefined } };
  return { path, page: { skipped: read.reason } };
}

/** A name on one line, for a heading or a bullet. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
