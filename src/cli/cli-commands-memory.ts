/** retain, recall, get, forget, invalidate and stats. */
import { text as readStream } from 'node:stream/consumers';
import type { Command } from 'commander';
import type { RecallOptions } from '../core/recall/recall-options.js';
import { NotFoundError } from '../core/spec/errors.js';
import type { MemoryInput, MemoryKind } from '../core/spec/memory.js';
import type { CliContext } from './cli-context.js';
import { CliUsageError } from './cli-errors.js';
import { formatMemoryDetails, formatMemoryTable, formatRecall, formatStats, type StatsView } from './cli-format.js';
import { integer, kind, nonEmpty, repeatable, time, unitInterval } from './cli-options.js';

interface RetainFlags {
  kind?: MemoryKind;
  category?: string;
  entity?: string[];
  session?: string;
  importance?: number;
  bookmark?: boolean;
  sourceFile?: string;
  sourceLine?: number;
  occurredAt?: string;
}

interface RecallFlags {
  k?: number;
  since?: string;
  until?: string;
  kind?: MemoryKind[];
  category?: string[];
  entity?: string[];
  session?: string;
  minScore?: number;
  tokenBudget?: number;
  includeInvalid?: boolean;
}

/** Add the commands that work on single memories and the store's counts. */
export function registerMemoryCommands(program: Command, context: CliContext): void {
  program
    .command('retain')
    .description('Store a memory.')
    .argument('<text...>', 'the memory text; several words are joined with spaces; "-" reads it from stdin')
    .option('--kind <kind>', 'world, experience, opinion or observation (default world)', kind)
    .option('--category <name>', 'topic, e.g. preferences, events, or any word (default note)', nonEmpty)
    .option('--entity <name>', 'a person, project or thing it mentions (repeatable)', repeatable(nonEmpty))
    .option('--session <id>', 'the session it belongs to', nonEmpty)
    .option('--importance <0..1>', 'how much it matters (default 0.5)', unitInterval)
    .option('--bookmark', 'pin it: never removed by cleanup')
    .option('--source-file <path>', 'where it came from, for citations', nonEmpty)
    .option('--source-line <n>', 'line in --source-file', integer(1))
    .option('--occurred-at <time>', 'when it happened: 2025-11-30, an ISO date-time, or 3d (ago)', time(context.now))
    .action(async (words: string[], flags: RetainFlags) => {
      if (flags.sourceLine !== undefined && flags.sourceFile === undefined) {
        throw new CliUsageError(
          '--source-line needs --source-file',
          'Pass both, e.g. --source-file notes.md --source-line 12.',
        );
      }
      const content = words.length === 1 && words[0] === '-' ? await readStream(context.stdin) : words.join(' ');
      const input: MemoryInput = {
        content,
        kind: flags.kind,
        category: flags.category,
        entities: flags.entity,
        sessionId: flags.session,
        importance: flags.importance,
        bookmarked: flags.bookmark,
        source: flags.sourceFile === undefined ? undefined : { file: flags.sourceFile, line: flags.sourceLine },
        occurredAt: flags.occurredAt,
      };
      const client = await context.client();
      const result = await client.retain(input);
      if (context.json) return context.printJson(result);
      if (result.memories.length > 0) context.print(formatMemoryTable(result.memories, context.width));
      for (const skip of result.skipped) context.print(`Skipped: ${skip.detail ?? skip.reason}.`);
    });

  program
    .command('recall')
    .description('Find the memories that best answer a query, with citations.')
    .argument('<query...>', 'what to look for; several words are joined with spaces')
    .option('-k, --k <n>', 'most results (default: recallK, 10)', integer(1, 1000))
    .option('--since <time>', 'only memories that occurred at or after: 30d, 12h, 2w, 2025-11-30, …', time(context.now))
    .option(
      '--until <time>',
      'only memories that occurred at or before (a bare date includes that day)',
      time(context.now, true),
    )
    .option('--kind <kind>', 'only this kind (repeatable)', repeatable(kind))
    .option('--category <name>', 'only this category (repeatable)', repeatable(nonEmpty))
    .option('--entity <name>', 'only memories mentioning this entity (repeatable)', repeatable(nonEmpty))
    .option('--session <id>', 'only this session', nonEmpty)
    .option('--min-score <0..1>', 'drop results scoring below this', unitInterval)
    .option('--token-budget <n>', 'keep the best results that fit in this many tokens', integer(1))
    .option('--include-invalid', 'include invalidated memories')
    .action(async (words: string[], flags: RecallFlags) => {
      const config = context.config;
      const options: RecallOptions = {
        k: flags.k,
        since: flags.since,
        until: flags.until,
        kinds: flags.kind,
        categories: flags.category,
        entities: flags.entity,
        sessionId: flags.session,
        minScore: flags.minScore ?? (config.recallMinScore > 0 ? config.recallMinScore : undefined),
        tokenBudget: flags.tokenBudget ?? config.tokenBudget ?? undefined,
        includeInvalid: flags.includeInvalid,
      };
      const client = await context.client();
      const response = await client.recall(words.join(' '), options);
      if (context.json) return context.printJson(response);
      context.print(formatRecall(response, context.width));
    });

  program
    .command('get')
    .description('Show one memory.')
    .argument('<id>', 'memory id')
    .action(async (id: string) => {
      const memory = await (await context.client()).get(id);
      if (context.json) return context.printJson(memory);
      context.print(formatMemoryDetails(memory));
    });

  program
    .command('forget')
    .description('Delete a memory for good (see invalidate to keep it as history).')
    .argument('<id>', 'memory id')
    .action(async (id: string) => {
      const forgotten = await (await context.client()).forget(id);
      if (forgotten === 0) {
        throw new NotFoundError('memory', id, {
          component: 'forget',
          suggestion: 'Check the id; `memoir recall <words>` lists matching memories with their ids.',
        });
      }
      if (context.json) return context.printJson({ forgotten: [id] });
      context.print(`Forgot ${id}.`);
    });

  program
    .command('invalidate')
    .description('Mark a memory as no longer true; it stays as history but is not recalled.')
    .argument('<id>', 'memory id')
    .requiredOption('--reason <text>', 'why it no longer holds', nonEmpty)
    .option('--superseded-by <id>', 'the memory that replaces it', nonEmpty)
    .action(async (id: string, flags: { reason: string; supersededBy?: string }) => {
      const client = await context.client();
      const memory = await client.invalidate(id, { reason: flags.reason, supersededBy: flags.supersededBy });
      if (context.json) return context.printJson(memory);
      context.print(`Invalidated ${memory.id} (valid until ${memory.validTo}).`);
    });

  program
    .command('stats')
    .description('Count what is stored.')
    .action(async () => {
      const client = await context.client();
      const stats = await client.stats();
      const view: StatsView = {
        ...stats,
        home: context.config.home,
        store: client.store.name,
        embedder: { id: client.embedder.id, dimensions: client.embedder.dimensions },
      };
      if (context.json) return context.printJson(view);
      context.print(formatStats(view));
    });
}
