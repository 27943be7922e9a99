#!/usr/bin/env node
// The `memoir` command. It runs the build, dist/cli.js. Only a development checkout
// (which has src/) without a build runs the TypeScript sources, through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/cli.js', import.meta.url);
const sources = new URL('../src/cli/main.ts', import.meta.url);

function fail(message, hint) {
  process.stderr.write(`error: ${message}\nhint: ${hint}\n`);
  process.exit(1);
}

if (existsSync(built)) {
  await import(built.href);
} else if (existsSync(sources)) {
  let tsx;
  try {
    tsx = await import('tsx/esm/api');
  } catch {
    fail(
      'this memoir checkout has no build, and tsx (a dev dependency) is not installed to run its sources',
      'Run `npm install` (or `npm run build`) in the checkout.',
    );
  }
  tsx.register();
  await import(sources.href);
} else {
  fail(
    `memoir is installed without its build: ${fileURLToPath(built)} is missing`,
    'Reinstall the package (`npm install memoir`); a package packed from a checkout must be built first (`npm pack` runs the build).',
  );
}
