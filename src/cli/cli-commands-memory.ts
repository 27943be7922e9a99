/** retain, recall, list, get, update, forget, invalidate and stats. */
import { text as readStream } from 'node:stream/consumers';
import { type Command, Option } from 'commander';
import type { ListOptions } from '../core/memories/memories-api.js';
import type { RecallOptions } from '../core/recall/recall-options.js';
import { NotFoundError } from '../core/spec/errors.js';
import type { MemoryInput, MemoryKind, MemoryPatch } from '../core/spec/memory.js';
import type { CliContext } from './cli-context.js';
import { CliUsageError } from './cli-errors.js';
import {
  formatList,
  formatMemoryDetails,
  formatMemoryTable,
  formatRecall,
  formatStats,
  type StatsView,
} from './cli-format.js';
import { integer, kind, nonEmpty, repeatable, time, unitInterval } from './cli-options.js';
import { inWorkspaceOrNot, WORKSPACE_WRITE, withWorkspace } from './cli-workspace.js';

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
  workspace?: string;
}

interface ListFlags {
  kind?: MemoryKind[];
  category?: string[];
  entity?: string[];
  session?: string;
  since?: string;
  until?: string;
  bookmarked?: boolean;
  validOnly?: boolean;
  orderBy?: 'occurredAt' | 'createdAt' | 'updatedAt' | 'importance';
  direction?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

interface UpdateFlags {
  content?: string;
  abstract?: string;
  kind?: MemoryKind;
  category?: string;
  entity?: string[];
  entities?: false;
  session?: string;
  importance?: number;
  bookmark?: boolean;
  sourceFile?: string;
  sourceLine?: number;
  occurredAt?: string;
}

/** Warn on stderr when `--since` is after `--until`: such a range holds nothing. */
function warnOnEmptyRange(context: CliContext, since: string | undefined, until: string | undefined): void {
  if (since === undefined || until === undefined || Date.parse(since) <= Date.parse(until)) return;
  context.note(
    `warning: --since ${since} is after --until ${until}: the range is empty, so nothing can match. Swap them?`,
  );
}

function sourceOf(flags: { sourceFile?: string; sourceLine?: number }) {
  if (flags.sourceLine !== undefined && flags.sourceFile === undefined) {
    throw new CliUsageError(
      '--source-line needs --source-file',
      'Pass both, e.g. --source-file notes.md --source-line 12.',
    );
  }
  return flags.sourceFile === undefined ? undefined : { file: flags.sourceFile, line: flags.sourceLine };
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
  asOf?: string;
  workspace?: string;
  intent?: RecallIntentName;
  explain?: boolean;
}

type RecallIntentName = NonNullable<RecallOptions['intent']>;

// The intents recall accepts, spelled out here: the module that defines them also reads the
// store, and a door imports no such module. The Record type makes this list exactly the
// client's: a missing or extra name does not compile.
const RECALL_INTENTS = Object.keys({
  auto: true,
  lexical: true,
  entity: true,
  temporal: true,
  opinion: true,
} satisfies Record<RecallIntentName, true>) as RecallIntentName[];

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
    .option('--workspace <dir>', WORKSPACE_WRITE, nonEmpty)
    .action(async (words: string[], flags: RetainFlags) => {
      const source = sourceOf(flags);
      const content = words.length === 1 && words[0] === '-' ? await readStream(context.stdin) : words.join(' ');
      const input: MemoryInput = {
        content,
        kind: flags.kind,
        category: flags.category,
        entities: flags.entity,
        sessionId: flags.session,
        importance: flags.importance,
        bookmarked: flags.bookmark,
        source,
        occurredAt: flags.occurredAt,
      };
      const result = await inWorkspaceOrNot(context, flags.workspace, 'vectors', (client) => client.retain(input));
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
    .option(
      '--as-of <time>',
      'answer with what was true then: the versions of facts valid at that time first (a bare date means its end)',
      time(context.now, true),
    )
    .addOption(
      new Option('--intent <kind>', 'recall kind (default auto: read from the query)').choices([...RECALL_INTENTS]),
    )
    .option('--explain', 'say how each score was reached (lexical and vector ranks, recency, importance, validity)')
    .option(
      '--workspace <dir>',
      'recall from this Markdown workspace (its index is brought up to date first)',
      nonEmpty,
    )
    .action(async (words: string[], flags: RecallFlags) => {
      warnOnEmptyRange(context, flags.since, flags.until);
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
        asOf: flags.asOf,
        intent: flags.intent,
        ...(flags.explain ? { explain: true } : {}),
      };
      const response =
        flags.workspace === undefined
          ? await (await context.client('vectors')).recall(words.join(' '), options)
          : await withWorkspace(context, flags.workspace, (client) => client.recall(words.join(' '), options));
      if (context.json) return context.printJson(response);
      context.print(formatRecall(response, context.width, options.tokenBudget));
    });

  program
    .command('list')
    .description('List memories, newest first, a page at a time (invalidated ones included unless --valid-only).')
    .option('--kind <kind>', 'only this kind (repeatable)', repeatable(kind))
    .option('--category <name>', 'only this category (repeatable)', repeatable(nonEmpty))
    .option('--entity <name>', 'only memories mentioning this entity (repeatable)', repeatable(nonEmpty))
    .option('--session <id>', 'only this session', nonEmpty)
    .option('--since <time>', 'only memories that occurred at or after: 30d, 12h, 2w, 2025-11-30, …', time(context.now))
    .option(
      '--until <time>',
      'only memories that occurred at or before (a bare date includes that day)',
      time(context.now, true),
    )
    .option('--bookmarked', 'only bookmarked memories')
    .option('--no-bookmarked', 'only memories that are not bookmarked')
    .option('--valid-only', 'leave out invalidated memories')
    .addOption(
      new Option('--order-by <field>', 'sort key (default createdAt)').choices([
        'createdAt',
        'occurredAt',
        'updatedAt',
        'importance',
      ]),
    )
    .addOption(new Option('--direction <dir>', 'sort direction (default desc)').choices(['asc', 'desc']))
    .option('--limit <n>', 'memories per page, 1 to 100000 (default 100)', integer(1, 100_000))
    .option('--offset <n>', 'memories to skip: the next page starts at offset + limit (default 0)', integer(0))
    .action(async (flags: ListFlags) => {
      warnOnEmptyRange(context, flags.since, flags.until);
      const limit = flags.limit ?? 100;
      const offset = flags.offset ?? 0;
      const options: ListOptions = {
        kinds: flags.kind,
        categories: flags.category,
        entities: flags.entity,
        sessionId: flags.session,
        since: flags.since,
        until: flags.until,
        bookmarked: flags.bookmarked,
        includeInvalid: flags.validOnly !== true,
        orderBy: flags.orderBy,
        direction: flags.direction,
        limit,
        offset,
      };
      const client = await context.client('records');
      const memories = await client.list(options);
      // A full page may have a next one; a short page is the last.
      const nextOffset = memories.length === limit ? offset + limit : null;
      if (context.json) return context.printJson({ memories, offset, limit, nextOffset });
      // Unscoped, the page mixes users: each row says whose it is.
      const showScope = context.scope === undefined;
      context.print(formatList(memories, { offset, nextOffset, width: context.width, showScope }));
    });

  program
    .command('get')
    .description('Show one memory.')
    .argument('<id>', 'memory id')
    .action(async (id: string) => {
      const memory = await (await context.client('records')).get(id);
      if (context.json) return context.printJson(memory);
      context.print(formatMemoryDetails(memory));
    });

  program
    .command('update')
    .description('Change fields of a memory; a new --content or --abstract is embedded again.')
    .argument('<id>', 'memory id')
    .option('--content <text>', 'the new text; "-" reads it from stdin')
    .option('--abstract <text>', 'the new one-sentence abstract', nonEmpty)
    .option('--kind <kind>', 'world, experience, opinion or observation', kind)
    .option('--category <name>', 'topic, e.g. preferences, events, or any word', nonEmpty)
    .option('--entity <name>', 'an entity it mentions (repeatable; replaces the list)', repeatable(nonEmpty))
    .option('--no-entities', 'remove every entity')
    .option('--session <id>', 'the session it belongs to', nonEmpty)
    .option('--importance <0..1>', 'how much it matters', unitInterval)
    .option('--bookmark', 'pin it: never removed by cleanup')
    .option('--no-bookmark', 'unpin it')
    .option('--source-file <path>', 'where it came from, for citations', nonEmpty)
    .option('--source-line <n>', 'line in --source-file', integer(1))
    .option('--occurred-at <time>', 'when it happened: 2025-11-30, an ISO date-time, or 3d (ago)', time(context.now))
    .option('--workspace <dir>', WORKSPACE_WRITE, nonEmpty)
    .action(async (id: string, flags: UpdateFlags & { workspace?: string }) => {
      if (flags.entity !== undefined && flags.entities === false) {
        throw new CliUsageError('--entity and --no-entities contradict each other', 'Pass one of them.');
      }
      const source = sourceOf(flags);
      const content = flags.content === '-' ? await readStream(context.stdin) : flags.content;
      const patch: MemoryPatch = {
        ...(content === undefined ? {} : { content }),
        ...(flags.abstract === undefined ? {} : { abstract: flags.abstract }),
        ...(flags.kind === undefined ? {} : { kind: flags.kind }),
        ...(flags.category === undefined ? {} : { category: flags.category }),
        ...(flags.entity !== undefined ? { entities: flags.entity } : flags.entities === false ? { entities: [] } : {}),
        ...(flags.session === undefined ? {} : { sessionId: flags.session }),
        ...(flags.importance === undefined ? {} : { importance: flags.importance }),
        ...(flags.bookmark === undefined ? {} : { bookmarked: flags.bookmark }),
        ...(source === undefined ? {} : { source }),
        ...(flags.occurredAt === undefined ? {} : { occurredAt: flags.occurredAt }),
      };
      if (Object.keys(patch).length === 0) {
        throw new CliUsageError(
          'update needs at least one field to change',
          'Pass e.g. --content "…", --kind opinion, --entity Peter, --importance 0.9, --bookmark or --occurred-at 2025-11-30; `memoir update --help` lists them all.',
        );
      }
      // Only new text is embedded: other changes work whatever the configured embedder.
      const reembeds = patch.content !== undefined || patch.abstract !== undefined;
      const memory = await inWorkspaceOrNot(context, flags.workspace, reembeds ? 'vectors' : 'records', (client) =>
        client.update(id, patch),
      );
      if (context.json) return context.printJson(memory);
      context.print(formatMemoryDetails(memory));
    });

  program
    .command('forget')
    .description('Delete a memory for good (see invalidate to keep it as history).')
    .argument('<id>', 'memory id')
    .option('--workspace <dir>', WORKSPACE_WRITE, nonEmpty)
    .action(async (id: string, flags: { workspace?: string }) => {
      const forgotten = await inWorkspaceOrNot(context, flags.workspace, 'records', (client) => client.forget(id));
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
    .option('--workspace <dir>', WORKSPACE_WRITE, nonEmpty)
    .action(async (id: string, flags: { reason: string; supersededBy?: string; workspace?: string }) => {
      const memory = await inWorkspaceOrNot(context, flags.workspace, 'records', (client) =>
        client.invalidate(id, { reason: flags.reason, supersededBy: flags.supersededBy }),
      );
      if (context.json) return context.printJson(memory);
      context.print(`Invalidated ${memory.id} (valid until ${memory.validTo}).`);
    });

  program
    .command('stats')
    .description('Count what is stored.')
    .action(async () => {
      const client = await context.client('records');
      const stats = await client.stats();
      const configured = context.embedders?.configured;
      const view: StatsView = {
        ...stats,
        home: context.config.home,
        store: context.storeName ?? 'unknown',
        embedder: { id: client.embedder.id, dimensions: client.embedder.dimensions },
        ...(configured ? { configuredEmbedder: configured } : {}),
      };
      if (context.json) return context.printJson(view);
      context.print(formatStats(view));
    });
}
