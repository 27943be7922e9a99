// The API reference's configuration: typedoc.base.json, with the entry points the table in
// entry-points.json marks `documented` (the table tsup.config.ts builds the package from).
import { readFileSync } from 'node:fs';

const read = (file) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'));

/** @type {import('typedoc').TypeDocOptions} */
export default {
  ...read('./typedoc.base.json'),
  entryPoints: read('./entry-points.json')
    .entries.filter((entry) => entry.documented)
    .map((entry) => entry.source),
};
