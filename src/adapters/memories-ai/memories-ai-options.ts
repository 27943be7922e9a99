import { z } from 'zod';
import { processEnvironment } from '../../core/utils/environment.js';
import { parseOptions } from '../../core/utils/parse-options.js';

/** The Video Datalake API the adapter speaks (research note, "Addendum 2026-11-23"). */
export const MEMORIES_AI_BASE_URL = 'https://api.memories.ai/serve/datalake/v1';

const MB = 1024 * 1024;

/** Options of {@link createMemoriesAiProvider}, checked once. */
export const memoriesAiOptionsSchema = z
  .object({
    apiKey: z.string().min(1).optional(),
    baseUrl: z.string().url().optional(),
    collectionId: z.string().min(1).optional(),
    collectionName: z.string().min(1).max(200).default('memoir-recordings'),
    timeoutMs: z.number().int().min(1).max(600_000).default(30_000),
    uploadTimeoutMs: z.number().int().min(1).max(3_600_000).default(600_000),
    minIntervalMs: z.number().int().min(0).max(60_000).default(1000),
    maxUploadBytes: z
      .number()
      .int()
      .positive()
      .default(100 * MB),
    indexFps: z.number().min(0.1).max(30).default(1),
    searchMode: z.enum(['semantic', 'keyword', 'hybrid']).default('semantic'),
    targets: z.array(z.string().min(1)).min(1).optional(),
  })
  .strict();

/**
 * Options of {@link createMemoriesAiProvider}.
 *
 * @group Adapters
 */
export interface MemoriesAiOptions {
  /** The Datalake key (`sk-mai-…`), sent raw in `Authorization`. Default: env `MEMORIES_AI_API_KEY`. */
  apiKey?: string;
  /** API root. Default env `MEMORIES_AI_BASE_URL`, else `https://api.memories.ai/serve/datalake/v1`. */
  baseUrl?: string;
  /** Collection the segments go to. Default: the one named `collectionName`, created when missing. */
  collectionId?: string;
  /** Name of the collection looked up (or created) when no `collectionId` is given. Default `memoir-recordings`. */
  collectionName?: string;
  /** Deadline of each call but uploads, ms. Default 30000. */
  timeoutMs?: number;
  /** Deadline of an upload, ms. Default 600000. */
  uploadTimeoutMs?: number;
  /** Least time between two requests, ms: the API allows about one per second per account. Default 1000. */
  minIntervalMs?: number;
  /** Largest file sent in one multipart upload (the documented single-request size). Default 100 MB. */
  maxUploadBytes?: number;
  /** Frames per second the service indexes at (billed per minute of video). Default 1. */
  indexFps?: number;
  /** Search mode when a query does not name one. Default `semantic`. */
  searchMode?: 'semantic' | 'keyword' | 'hybrid';
  /** What a search looks at (`caption`, `transcription`, `summary`, `title`, `frame_embedding`, `event`). Default: the service's. */
  targets?: string[];
}

/** Options with defaults filled. */
export type ParsedMemoriesAiOptions = z.output<typeof memoriesAiOptionsSchema> & { apiKey: string; baseUrl: string };

/** Parse once; a bad or missing option is a ConfigError naming it. */
export function parseMemoriesAiOptions(
  options: MemoriesAiOptions | undefined,
  env = processEnvironment(),
): ParsedMemoriesAiOptions {
  const withEnv = {
    ...options,
    apiKey: options?.apiKey ?? env.MEMORIES_AI_API_KEY,
    baseUrl: options?.baseUrl ?? env.MEMORIES_AI_BASE_URL ?? MEMORIES_AI_BASE_URL,
  };
  const parsed = parseOptions(
    memoriesAiOptionsSchema.extend({ apiKey: z.string().min(1, 'expected the API key'), baseUrl: z.string().url() }),
    withEnv,
    'memories-ai',
    (field) =>
      field === 'apiKey'
        ? 'Pass apiKey or set MEMORIES_AI_API_KEY (a Video Datalake key, sk-mai-…, from the Memories AI console).'
        : 'See MemoriesAiOptions for accepted values.',
  );
  return { ...parsed, baseUrl: parsed.baseUrl.replace(/\/+$/, '') };
}
