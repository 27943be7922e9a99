/**
 * Old flag names, still accepted (docs/vocabulary.md): `--top-k` is now `--k`, `--yes` now
 * `--confirm`. The old flag is hidden from the help, works as before, and a note on stderr
 * names the new one; the old and the new one with different values is a usage error naming both.
 */
import { type Command, Option } from 'commander';
import { applyRenames, type RenamedOption } from '../core/utils/renamed-options.js';

/** commander's property for a long flag: `--top-k` → `topK`. */
const propertyOf = (flag: string) =>
  flag.replace(/^--/, '').replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/**
 * A hidden option under an old flag name, parsed as the new one is.
 *
 * @param flags - The old flags, e.g. `--top-k <n>` or `-y, --yes`.
 * @param to - The new flag, e.g. `--k`, named in the (hidden) description.
 * @param parse - The new flag's value parser, if it takes a value.
 * @returns The option to add with `addOption`.
 */
export function oldFlag<T>(flags: string, to: string, parse?: (value: string) => T): Option {
  const option = new Option(flags, `old name of ${to}`).hideHelp();
  return parse ? option.argParser(parse) : option;
}

/**
 * Move the values of old flags to their new names, noting each on stderr; refuse different
 * values for the old and the new flag with a ValidationError naming both (exit code 2).
 *
 * @param flags - commander's parsed options of the command.
 * @param renames - Old and new long flags, e.g. `{ from: '--top-k', to: '--k' }`.
 * @param where - The command (the error's component) and where notes go.
 * @returns The options with the new names filled in.
 */
export function renamedFlags<F extends object>(
  flags: F,
  renames: readonly RenamedOption[],
  where: { command: string; note: (text: string) => void },
): F {
  const values = flags as Record<string, unknown>;
  const byFlag: Record<string, unknown> = {};
  for (const rename of renames) {
    byFlag[rename.from] = values[propertyOf(rename.from)];
    byFlag[rename.to] = values[propertyOf(rename.to)];
  }
  const { input, used } = applyRenames(byFlag, renames, { component: where.command });
  if (used.length === 0) return flags;
  const out: Record<string, unknown> = { ...values };
  for (const rename of used) {
    out[propertyOf(rename.to)] = (input as Record<string, unknown>)[rename.to];
    delete out[propertyOf(rename.from)];
    where.note(`note: ${rename.from} is now ${rename.to} (${rename.from} still works for now).`);
  }
  return out as F;
}

/**
 * The old flags docs/vocabulary.md lists for every command: `--top-k` wherever `--k` is taken,
 * `-y, --yes` wherever `--confirm` is. A command that declares an old flag itself keeps its own.
 */
const VOCABULARY_FLAGS: readonly { from: string; short?: string; to: string }[] = [
  { from: '--top-k', to: '--k' },
  { from: '--yes', short: '-y', to: '--confirm' },
];

function commandsOf(command: Command): Command[] {
  return [command, ...command.commands.flatMap(commandsOf)];
}

/**
 * Accept the vocabulary's old flags on every command of `program` that takes the new one:
 * hidden from the help, parsed as the new flag is, moved to it before the action runs with a
 * note on stderr; the old and the new flag with different values is a usage error naming both.
 * Call it after every command is registered.
 *
 * @param program - The `memoir` program, its commands registered.
 * @param note - Where the notes go (stderr).
 */
export function acceptVocabularyOldNames(program: Command, note: (text: string) => void): void {
  const renamesOf = new Map<Command, RenamedOption[]>();
  for (const command of commandsOf(program)) {
    const renames: RenamedOption[] = [];
    for (const flag of VOCABULARY_FLAGS) {
      const current = command.options.find((option) => option.long === flag.to);
      if (!current || command.options.some((option) => option.long === flag.from)) continue;
      const short = flag.short && !command.options.some((option) => option.short === flag.short) ? flag.short : '';
      const value = current.required ? ' <value>' : current.optional ? ' [value]' : '';
      const option = new Option(
        `${short ? `${short}, ` : ''}${flag.from}${value}`,
        `old name of ${flag.to}`,
      ).hideHelp();
      if (current.parseArg) option.argParser(current.parseArg);
      command.addOption(option);
      renames.push({ from: flag.from, to: flag.to });
    }
    if (renames.length > 0) renamesOf.set(command, renames);
  }
  program.hook('preAction', (_program, action) => {
    const renames = renamesOf.get(action);
    if (!renames) return;
    const given = action.opts();
    const moved = renamedFlags(given, renames, { command: action.name(), note }) as Record<string, unknown>;
    if (moved === given) return;
    for (const rename of renames) {
      action.setOptionValue(propertyOf(rename.from), undefined);
      action.setOptionValue(propertyOf(rename.to), moved[propertyOf(rename.to)]);
    }
  });
}
