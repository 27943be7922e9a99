import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { MemoryEngine } from '../../engine/memory-engine.js';
import type { RetainApi } from '../../retain/retain-api.js';
import { ConfigError } from '../../spec/errors.js';
import type { LanguageModel } from '../../spec/language-model.js';
import { applyRenames, type RenamedOption, warnRenamed } from '../../utils/renamed-options.js';
import {
  type ParsedProcedureOptions,
  type ProcedureThresholds,
  resolveProcedureThresholds,
} from '../procedure-options.js';
import type { ParsedVideoOptions } from '../recording-options.js';

/** What the procedure library is built from. */
export interface ProcedureLibrarySettings {
  /** Parsed `procedures` options. */
  options: ParsedProcedureOptions;
  /** Keeps a task as an episode when its reflection fails. */
  retain: Pick<RetainApi, 'retain'>;
  /** Parsed `video` options, when recordings are configured. */
  video?: ParsedVideoOptions;
}

/** The component procedure files and the index report under. */
export const COMPONENT = 'procedures';

/**
 * What every operation of the procedure library works with: the engine, the settings, and
 * the few things resolved once per client (the directory, the reflection model).
 */
export interface LibraryContext {
  readonly engine: MemoryEngine;
  readonly settings: ProcedureLibrarySettings;
  /** Parsed `procedures` options (`settings.options`). */
  readonly options: ParsedProcedureOptions;
  /** The directory of the procedure files, absolute; a ConfigError when the client has none. */
  dir(): string;
  /** The model that reflects on tasks and merges drafts: `reflectionModel`, else the client's, else none. */
  model(): LanguageModel | undefined;
  /** The similarity and update thresholds for the client's embedder. */
  thresholds(): ProcedureThresholds;
  /** Embed texts as the procedures component. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Options under their current names; the client's logger warns once per old name used. */
  renamedOptions(input: unknown, renames: readonly RenamedOption[], component: string): unknown;
  /** The content (sha256) each broken file was last reported with: a broken file is reported once per content. */
  readonly reported: Map<string, string>;
}

/** The library's context over an engine; opening the client creates the procedure directory. */
export function createLibraryContext(engine: MemoryEngine, settings: ProcedureLibrarySettings): LibraryContext {
  const { options } = settings;
  let directory: string | undefined;
  let reflectionModel: LanguageModel | undefined;
  // Booting a client with a home creates the directory, as Subrosa's boot creates its table.
  engine.onOpen(() => {
    const configured = engine.procedureDirectory();
    if (configured !== undefined) mkdirSync(configured, { recursive: true });
  });
  return {
    engine,
    settings,
    options,
    dir() {
      const configured = engine.procedureDirectory();
      if (configured === undefined) {
        throw new ConfigError('no directory for procedure files', {
          component: COMPONENT,
          field: 'procedures.directory',
          suggestion:
            'Pass createMemory({ home }) (files go to <home>/procedures) or createMemory({ procedures: { directory } }).',
        });
      }
      directory ??= resolve(configured);
      return directory;
    },
    model() {
      if (!options.reflectionModel) return engine.languageModel;
      reflectionModel ??= engine.boundModel(options.reflectionModel);
      return reflectionModel;
    },
    thresholds: () => resolveProcedureThresholds(options, engine.embedder),
    embed: (texts) => engine.embed(texts, COMPONENT),
    renamedOptions(input, renames, component) {
      const renamed = applyRenames(input ?? {}, renames, { component, fieldPrefix: 'options' });
      warnRenamed(engine.logger, component, renamed.used);
      return renamed.input;
    },
    reported: new Map(),
  };
}
