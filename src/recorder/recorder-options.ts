import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { processEnvironment } from '../core/utils/environment.js';
import { parseOptions } from '../core/utils/parse-options.js';
import type { CaptureInput } from './capture-arguments.js';

/**
 * Window titles and classes that pause recording while such a window is active (the seed's
 * list); `exclude` adds to them.
 *
 * @group Recorder
 */
export const DEFAULT_PRIVACY_PATTERNS: readonly string[] = Object.freeze([
  '1Password',
  'KeePass',
  'Private Browsing',
  'Incognito',
]);

const MIB = 1024 * 1024;

function defaultInput(): CaptureInput {
  if (process.platform === 'darwin') return 'avfoundation';
  if (process.platform === 'win32') return 'gdigrab';
  return 'x11grab';
}

/**
 * `~/.memoir/recordings`. The recorder reads no settings: `memoir record` passes
 * `<home>/recordings`, its home from `--home`, `MEMOIR_HOME` or config.json.
 */
export function defaultRecordingsDir(): string {
  return join(homedir(), '.memoir', 'recordings');
}

const patternSchema = z.union([z.string().min(1), z.instanceof(RegExp)]);

/** The recorder's options, checked once by {@link createScreenRecorder}. */
export const recorderOptionsSchema = z
  .object({
    outputDir: z.string().min(1).optional(),
    display: z.string().min(1).optional(),
    input: z.enum(['x11grab', 'avfoundation', 'gdigrab']).optional(),
    fps: z.number().min(0.1).max(60).default(2),
    resolution: z
      .string()
      .regex(/^\d{2,5}x\d{2,5}$/, 'expected WIDTHxHEIGHT, e.g. 1280x720')
      .default('1280x720'),
    segmentSeconds: z.number().int().min(2).max(3600).default(300),
    maxSegments: z.number().int().min(1).max(10_000).default(12),
    maxBytes: z
      .number()
      .int()
      .positive()
      .default(256 * MIB),
    hardMaxBytes: z
      .number()
      .int()
      .positive()
      .default(1024 * MIB),
    preset: z.string().min(1).default('ultrafast'),
    crf: z.number().int().min(0).max(51).default(28),
    drawMouse: z.boolean().default(true),
    exclude: z.array(patternSchema).default([]),
    privacy: z.boolean().default(true),
    stopTimeoutMs: z.number().int().min(100).max(60_000).default(5000),
  })
  .strict()
  .refine((options) => options.hardMaxBytes >= options.maxBytes, {
    message: 'hardMaxBytes must be at least maxBytes',
    path: ['hardMaxBytes'],
  });

/**
 * Options of {@link createScreenRecorder}. All optional: the defaults are the seed's
 * (2 fps, 1280x720, libx264 ultrafast, CRF 28, 5-minute segments, a 12-segment buffer).
 *
 * @group Recorder
 */
export interface ScreenRecorderOptions {
  /** Where segments go. Default `~/.memoir/recordings` (`memoir record`: `<home>/recordings`). */
  outputDir?: string;
  /** What to capture: the X11 display (default `$DISPLAY`), the avfoundation screen index (default `1`), unused by gdigrab. */
  display?: string;
  /** Screen grabber. Default by platform: x11grab (Linux), avfoundation (macOS), gdigrab (Windows). */
  input?: CaptureInput;
  /** Frames per second. Default 2: UI actions happen at human speed. */
  fps?: number;
  /** Output size; the screen is scaled to fit, aspect kept. Default `1280x720`. */
  resolution?: string;
  /** Seconds per segment. Default 300. */
  segmentSeconds?: number;
  /** Segments kept on disk (the rolling buffer). Default 12 (an hour of 5-minute segments). */
  maxSegments?: number;
  /** Bytes the buffer may hold before old, uploaded segments are deleted. Default 256 MiB. */
  maxBytes?: number;
  /** Bytes past which even segments not yet uploaded are deleted, oldest first (a `segment:deleted` event says which). Default 1 GiB. */
  hardMaxBytes?: number;
  /** x264 preset. Default `ultrafast`: the least CPU. */
  preset?: string;
  /** x264 constant rate factor. Default 28. */
  crf?: number;
  /** Draw the mouse pointer. Default true: clicks are what the steps describe. */
  drawMouse?: boolean;
  /** More window title or class patterns (a string matches case-insensitively anywhere; or a RegExp) that pause recording. */
  exclude?: ReadonlyArray<string | RegExp>;
  /** Watch the active window and pause for excluded ones. Default true (X11 only for now). */
  privacy?: boolean;
  /** Longest wait of each stop step (`q`, then SIGTERM, then SIGKILL), ms. Default 5000. */
  stopTimeoutMs?: number;
}

/** Recorder options with defaults filled and paths resolved. */
export type ParsedRecorderOptions = Omit<z.output<typeof recorderOptionsSchema>, 'outputDir' | 'display' | 'input'> & {
  outputDir: string;
  display: string;
  input: CaptureInput;
  patterns: ReadonlyArray<string | RegExp>;
};

/** Parse the options once; a bad one is a ConfigError naming it. */
export function parseRecorderOptions(options: ScreenRecorderOptions | undefined): ParsedRecorderOptions {
  const parsed = parseOptions(
    recorderOptionsSchema,
    options,
    'recorder',
    'See ScreenRecorderOptions for accepted values.',
  );
  const input = parsed.input ?? defaultInput();
  const display =
    parsed.display ??
    (input === 'x11grab' ? (processEnvironment().DISPLAY ?? ':0') : input === 'avfoundation' ? '1' : 'desktop');
  return {
    ...parsed,
    outputDir: parsed.outputDir ?? defaultRecordingsDir(),
    display,
    input,
    patterns: [...DEFAULT_PRIVACY_PATTERNS, ...parsed.exclude],
  };
}

/** The pattern a title or class matches, or undefined. Strings match case-insensitively as substrings. */
export function matchPattern(patterns: ReadonlyArray<string | RegExp>, texts: readonly string[]): string | undefined {
  for (const pattern of patterns) {
    for (const text of texts) {
      if (!text) continue;
      if (typeof pattern === 'string' ? text.toLowerCase().includes(pattern.toLowerCase()) : pattern.test(text)) {
        return String(pattern);
      }
    }
  }
  return undefined;
}
