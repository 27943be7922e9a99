import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { memoirConfigSchema } from '../../src/config/memoir-config.js';
import type { captureOptionsSchema } from '../../src/core/capture/capture-options.js';
import type { memoryOptionsSchema } from '../../src/core/client/memory-options.js';
import type { procedureOptionsSchema } from '../../src/core/procedures/procedure-options.js';
import type { videoOptionsSchema } from '../../src/core/procedures/recording-options.js';
import type { CaptureOptions, MemoirConfig, MemoryOptions, ProcedureOptions, VideoOptions } from '../../src/index.js';

// Each public option type is its schema's type, not a second declaration that can drift from
// it (checked by `npm run typecheck`, which compiles this file).

describe('option types', () => {
  it('are derived from their schemas', () => {
    expectTypeOf<MemoryOptions>().toEqualTypeOf<z.input<typeof memoryOptionsSchema>>();
    expectTypeOf<CaptureOptions>().toEqualTypeOf<z.input<typeof captureOptionsSchema>>();
    expectTypeOf<ProcedureOptions>().toEqualTypeOf<z.input<typeof procedureOptionsSchema>>();
    expectTypeOf<VideoOptions>().toEqualTypeOf<z.input<typeof videoOptionsSchema>>();
    expectTypeOf<MemoirConfig>().toEqualTypeOf<z.output<typeof memoirConfigSchema>>();
  });

  it('take what the schemas take, ports and nested options included', () => {
    expectTypeOf<MemoryOptions['capture']>().toEqualTypeOf<CaptureOptions | undefined>();
    expectTypeOf<NonNullable<MemoryOptions['procedures']>>().toEqualTypeOf<ProcedureOptions>();
    expectTypeOf<MemoryOptions['retentionDays']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<MemoirConfig['maxMemories']>().toEqualTypeOf<number | null>();
  });
});
