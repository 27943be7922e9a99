import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import { scheduleName } from '../schedule/schedule-log.js';
import type { ReflectOptions, ReflectSettings } from './reflect-options.js';
import type { ReflectReport } from './reflect-report.js';
import { type ReflectRunner, runReflect, scheduleReflect } from './reflect-run.js';

export { type ReflectOptions, type ReflectSettings, reflectOptionsSchema } from './reflect-options.js';
export type { OpinionChange, ReflectReport } from './reflect-report.js';

/**
 * Reflection over a workspace.
 *
 * @group Reflect
 */
export interface ReflectApi {
  /**
   * Reflect over the memories of a window (default the last 7 days): rewrite the generated
   * section of `bank/entities/<Name>.md` for each entity with new facts (a model summary when
   * a LanguageModel is configured, always the facts by kind and time with citations); move
   * opinions' confidence by the rule in the README (small steps; a big drop only on strong
   * contradiction from several independent sources), kept in `bank/opinions.md`; propose
   * durable facts and firm preferences for `memory.md` in `proposals/memory.md`; keep the world
   * facts and the agent's experiences that hold now in `bank/world.md` and `bank/experience.md`.
   * A daily log of the window with prose but no `## Retain` section gets one inferred by the
   * language model (appended to the day's file); without a model it is listed in
   * `retainSections.skipped`. A generated section a person edited is left alone, with a
   * warning. The same input gives the same files.
   * Needs a workspace (ConfigError otherwise).
   *
   * @example
   * ```ts
   * const report = await memory.reflect({ since: '7d' });
   * for (const o of report.opinions) console.log(`${o.statement}: ${o.before} → ${o.after}`);
   * ```
   */
  reflect(options?: ReflectOptions): Promise<ReflectReport>;
}

/**
 * The reflect feature over an engine; `root` is the client's workspace. With a workspace it
 * reflects on a schedule (daily by default), stopped when the client closes. A run's steps are
 * modules of their own under `steps/` (reflect-once.ts composes them).
 */
export function createReflectApi(engine: MemoryEngine, settings: ReflectSettings): ReflectApi {
  // A scoped client reflects over its scope's memories: its runs are its own.
  const runner: ReflectRunner = { engine, settings, runName: scheduleName('reflect', engine.scope) };
  scheduleReflect(runner);
  return drained<AsyncMembers<ReflectApi>>({
    reflect: (options?: unknown) => runReflect(runner, options, 'call'),
  });
}
