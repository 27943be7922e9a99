import type { MemoryEngine } from '../../engine/memory-engine.js';
import { withSuperseded } from '../../search/memory-versions.js';
import type { Memory } from '../../spec/memory.js';
import type { MemoryRecord } from '../../spec/store.js';
import type { Claim } from '../../supersession/claim.js';
import { findRuleSupersessions, type RuleSupersessions } from '../../supersession/find-supersessions.js';
import type { RetainOptions } from '../retain-options.js';
import { supersededRecords } from '../supersede.js';
import type { ParsedRetainInput } from './parse-retain-input.js';

/** What supersession changed besides the batch's own records. */
export interface BatchSupersessions {
  /** Each link the rules made (older, newer, reason), for the debug log. */
  links: RuleSupersessions['links'];
  /** Stored memories that stop being current or move in their chain, by id, ready to upsert. */
  changed: Map<string, MemoryRecord>;
}

/**
 * Decide what the batch supersedes, inside the write's transaction: the rules first, then the
 * corrections an input names (`supersedes`) or the model found, which win over them. The
 * records to write are updated in place to name what they replaced.
 */
export async function supersedeBatch(
  engine: MemoryEngine,
  batch: {
    input: unknown;
    inputs: readonly ParsedRetainInput[];
    memories: readonly Memory[];
    records: MemoryRecord[];
    claims: Map<string, Claim[]> | undefined;
    found: readonly string[][];
    correctionMode: NonNullable<RetainOptions['corrections']>;
    now: string;
  },
): Promise<BatchSupersessions> {
  const { input, inputs, memories, records, claims, found, correctionMode, now } = batch;
  // The rules first: a correction an input or the model names explicitly wins over them.
  const ruled =
    correctionMode !== 'marked' && records.length > 0
      ? await findRuleSupersessions(
          engine,
          records.map((record) => record.memory),
          claims,
        )
      : undefined;
  if (ruled) for (const record of records) record.memory = ruled.batch.get(record.memory.id) ?? record.memory;
  const written = new Set(records.map((record) => record.memory.id));
  const corrections = memories.flatMap((memory, index) => {
    const marked = [...(inputs[index]!.supersedes ?? []), ...(found[index] ?? [])];
    const supersedes = marked.length > 0 ? [...new Set(marked)] : undefined;
    const field = Array.isArray(input) ? `input[${index}]` : 'input';
    return supersedes && written.has(memory.id) ? [{ memory, supersedes, field }] : [];
  });
  const superseded = await supersededRecords(engine, corrections, now);
  // The new memory names what it replaced: the reverse link `history` and recall follow.
  for (const { memory, supersedes } of corrections) {
    const record = records.find((candidate) => candidate.memory.id === memory.id);
    if (record) for (const id of supersedes) record.memory = withSuperseded(record.memory, id);
  }
  const changed = new Map<string, MemoryRecord>();
  for (const record of [...(ruled?.stored ?? []), ...superseded]) changed.set(record.memory.id, record);
  return { links: ruled?.links ?? [], changed };
}
