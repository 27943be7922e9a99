/**
 * The shape of memoir's settings, built from the settings registry: one field per row, with
 * the row's schema and default. Each field's comment is the one on its row in
 * src/config/setting-registry.ts (the mapped type below carries it), so no setting is listed
 * or documented twice.
 *
 * @module
 */
import { z } from 'zod';
import { SETTING_NAMES, type SETTINGS, specOf } from './setting-registry.js';

type Rows = typeof SETTINGS;

// One field per row: its schema with its default. A mapped type over the rows keeps each
// row's comment on the field, for editors and the API reference.
type SettingsShape = { -readonly [K in keyof Rows]: z.ZodDefault<Rows[K]['schema']> };

function settingsShape(): SettingsShape {
  const shape: Record<string, z.ZodType> = {};
  for (const setting of SETTING_NAMES) {
    const spec = specOf(setting);
    shape[setting] = spec.schema.default(spec.default as never);
  }
  return shape as SettingsShape;
}

/**
 * The zod schema of {@link MemoirConfig}, built from the settings registry: the keys, types and
 * defaults of every setting. A config file holds the same keys (but those the registry marks as
 * read from the environment only, such as `mcpToken`).
 */
export const memoirConfigSchema = z.object(settingsShape()).strict();

/**
 * memoir's settings, after defaults are applied: what {@link loadConfig} reads from the config
 * file, the environment and the `memoir` command's flags. Every setting, its sources and its
 * default are listed in the configuration guide (docs/guides/configuration.md).
 *
 * @group Configuration
 */
export type MemoirConfig = z.output<typeof memoirConfigSchema>;

/**
 * The default settings. `home` is `~/.memoir` here; {@link loadConfig} expands the `~`.
 *
 * @group Configuration
 */
export const DEFAULT_CONFIG: Readonly<MemoirConfig> = Object.freeze(memoirConfigSchema.parse({}));
