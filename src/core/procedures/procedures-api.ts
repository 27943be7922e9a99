import { z } from 'zod';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import type { RetainApi } from '../retain/retain-api.js';
import type { Procedure } from '../spec/records.js';
import { idSchema } from '../utils/common-schemas.js';
import { parseInput } from '../utils/validate.js';
import { type AnalyzePatternsOptions, analyzePatterns, type PatternAnalysis } from './analyze-patterns.js';
import {
  type DetectedWorkflow,
  type DetectWorkflowsOptions,
  detectWorkflows,
  storeWorkflows,
} from './detect-workflows.js';
import { createProcedureLibraryApi, type ProcedureLibraryApi } from './procedure-library-api.js';
import { type ParsedProcedureOptions, procedureOptionsSchema } from './procedure-options.js';
import type { ParsedVideoOptions } from './recording-options.js';
import { type Suggestion, suggest } from './suggest.js';
import { type ActionWarning, type PlannedAction, warn } from './warn.js';
import { workflowFromSession } from './workflow-from-session.js';

/**
 * How things get done: workflows learned from captured tool calls, suggestions and warnings.
 *
 * @group Client
 */
export interface ProceduresApi {
  /**
   * Find tool sequences (2–6 steps) repeated at least 3 times in the last 7 days and store
   * each as a `workflow` memory with a confidence score. Resolves to what was found.
   */
  detectWorkflows(options?: Omit<DetectWorkflowsOptions, 'now' | 'scope'>): Promise<DetectedWorkflow[]>;
  /** Turn a session's successful actions into a reusable Procedure (source `session`) and store it. */
  createWorkflowFromSession(sessionId: string, name: string): Promise<Procedure>;
  /** Past successful actions and workflows similar to `context`, with their memory ids. */
  suggest(context: string, options?: { k?: number }): Promise<Suggestion[]>;
  /** The record of a planned action: attempts, failures, success rate, a warning and alternatives. */
  warn(action: PlannedAction): Promise<ActionWarning>;
  /** Success rates per tool, with the high- and low-success ones named. */
  analyzePatterns(options?: Omit<AnalyzePatternsOptions, 'scope'>): Promise<PatternAnalysis>;
  /** Procedures learned from finished tasks, kept as Markdown files: learn, find, format, track use. */
  readonly procedures: ProcedureLibraryApi;
}

/**
 * The procedures feature over an engine; detected workflows and the tasks of failed
 * reflections are stored through `retain`.
 */
export function createProceduresApi(
  engine: MemoryEngine,
  retain: Pick<RetainApi, 'retain'>,
  procedureOptions: ParsedProcedureOptions = procedureOptionsSchema.parse({}),
  video?: ParsedVideoOptions,
): ProceduresApi {
  const { store } = engine;
  const scoped = () => (engine.scope ? { scope: engine.scope } : {});
  const procedures = createProcedureLibraryApi(engine, {
    options: procedureOptions,
    retain,
    ...(video ? { video } : {}),
  });

  return {
    ...drained<AsyncMembers<ProceduresApi>>({
      async detectWorkflows(options) {
        await engine.ready('detectWorkflows');
        const detected = await detectWorkflows(store, { ...options, ...scoped(), now: engine.clock.now() });
        await storeWorkflows(detected, (inputs) => retain.retain(inputs));
        return detected;
      },
      async createWorkflowFromSession(sessionInput, nameInput) {
        const sessionId = parseInput(idSchema, sessionInput, 'createWorkflowFromSession', 'sessionId');
        const name = parseInput(z.string().trim().min(1).max(200), nameInput, 'createWorkflowFromSession', 'name');
        await engine.ready('createWorkflowFromSession');
        const procedure = await workflowFromSession(store, sessionId, name, { now: engine.clock.now(), ...scoped() });
        // With a procedure directory the workflow becomes a file like every procedure; without one it stays a record.
        if (engine.procedureDirectory() !== undefined) {
          const { updatedAt: _written, ...input } = procedure;
          return procedures.save(input);
        }
        await store.procedures.upsert([procedure]);
        return procedure;
      },
      async suggest(context, options) {
        await engine.ready('suggest');
        return suggest(store, context, { ...options, ...scoped(), embed: (texts) => engine.embed(texts, 'suggest') });
      },
      async warn(action) {
        await engine.ready('warn');
        return warn(store, action, scoped());
      },
      async analyzePatterns(options) {
        await engine.ready('analyzePatterns');
        return analyzePatterns(store, { ...options, ...scoped() });
      },
    }),
    procedures,
  };
}
