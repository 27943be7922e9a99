import { resolve } from 'node:path';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { wrapError } from '../engine/memory-engine.js';
import { reflectScheduleSchema, startReflectSchedule } from '../schedule/reflect-schedule.js';
import { resolveTimeBound } from '../search/filter-options.js';
import { withDirectoryLock } from '../shared/files/directory-lock.js';
import { ConfigError } from '../spec/errors.js';
import { confinedFolder } from '../utils/confined-path.js';
import { parseInput } from '../utils/validate.js';
import { createReflectBudget } from './reflect-budget.js';
import { type ReflectSettings, reflectOptionsSchema } from './reflect-options.js';
import type { ReflectReport } from './reflect-report.js';
import { reflectOnce } from './steps/reflect-once.js';
import { CONFINED } from './steps/reflect-pass.js';

const WEEK_MS = 7 * 86_400_000;

/** What a reflect run needs besides its options: the engine, the settings, and the name its runs are logged under. */
export interface ReflectRunner {
  readonly engine: MemoryEngine;
  readonly settings: ReflectSettings;
  /** The schedule log's name for this client's runs (a scoped client's runs are its own). */
  readonly runName: string;
}

/** One run, bounded, under the workspace's lock; `trigger` says who started it (for the event). */
export async function runReflect(
  runner: ReflectRunner,
  optionsInput: unknown,
  trigger: 'schedule' | 'call',
): Promise<ReflectReport> {
  const { engine, settings } = runner;
  const options = parseInput(reflectOptionsSchema, optionsInput ?? {}, 'reflect', 'options');
  const root = settings.root === undefined ? undefined : resolve(settings.root);
  if (root === undefined)
    throw new ConfigError('reflect needs a workspace', {
      component: 'reflect',
      field: 'workspace',
      suggestion: 'Create the client with createWorkspace({ root }) or createMemory({ workspace: dir }).',
      hint: { code: 'workspace' },
    });
  await engine.ready('reflect');
  const since = resolveTimeBound(options.since ?? { agoMs: WEEK_MS }, engine.clock.now());
  const lockDirectory = confinedFolder(root, ['.memory'], CONFINED);
  const budget = createReflectBudget({
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
  });
  const report = await withDirectoryLock(lockDirectory, () => reflectOnce(engine, root, since, budget), {
    component: 'reflect',
  });
  // A finished run (one stopped at its bound too: the next one starts where it stopped) is
  // the last run the schedule counts from.
  await settings.scheduleLog?.record(runner.runName, engine.clock.now());
  if (report.stopped !== undefined) {
    engine.emit('reflect:stopped', {
      reason: report.stopped.reason,
      tokensUsed: report.tokensUsed,
      elapsedMs: budget.elapsed(),
      pending: report.stopped.pending,
      trigger,
    });
  }
  return report;
}

/** With a workspace, reflect on the schedule (daily by default), caught up from the log, stopped when the client closes. */
export function scheduleReflect(runner: ReflectRunner): void {
  const { engine, settings } = runner;
  if (settings.root === undefined) return;
  const log = settings.scheduleLog;
  const stop = startReflectSchedule(settings.schedule ?? reflectScheduleSchema.parse({}), {
    hour: settings.hour,
    clock: engine.clock,
    ...(log?.file === undefined ? {} : { lastRun: { atMs: log.lastRun(runner.runName) } }),
    run: async (request) => {
      if (engine.closed) return;
      await engine.track('reflect', () =>
        runReflect(
          runner,
          { since: new Date(request.sinceMs), maxTokens: request.maxTokens, deadlineMs: request.deadlineMs },
          'schedule',
        ),
      );
    },
    onError: (error) =>
      engine.emit('error', { operation: 'reflect.schedule', error: wrapError(error, 'reflect.schedule') }),
  });
  if (stop !== undefined) engine.onClose(stop);
}
