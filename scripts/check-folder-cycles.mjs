#!/usr/bin/env node
// Folder-level cycles, checked by `npm run lint` (CONTRIBUTING.md, "Layers").
//
// dependency-cruiser's `no-circular` sees cycles between modules only: retain/a.ts → lifecycle/b.ts
// and lifecycle/c.ts → retain/d.ts is no module cycle, yet the two folders can no longer be
// loaded, tested or moved apart. This script cruises `src` with the project's configuration,
// collapses every module to the folder it sits in directly under `src/core/`, and fails when
// those folders form a cycle, naming the imports that close it.
//
// Usage: node scripts/check-folder-cycles.mjs [--cwd DIR] [--folders REGEX] [PATH…]
//   --cwd      the project to check (default: the current directory); its .dependency-cruiser.cjs is used
//   --folders  a regular expression whose first group names a module's folder (default: ^src/core/([^/]+)/)
//   PATH…      what to cruise (default: src)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder-level graph of a cruise: an edge per pair of distinct folders, with the module
 * imports behind it (kept so a failure can say which import to remove).
 *
 * @param {{ source: string, dependencies: { resolved: string }[] }[]} modules dependency-cruiser's `modules`
 * @param {RegExp} folderOf its first group names the folder of a module path; modules it does not match are left out
 * @returns {Map<string, Map<string, string[]>>} from folder → to folder → "a.ts → b.ts" lines
 */
export function folderGraph(modules, folderOf) {
  const graph = new Map();
  for (const module of modules) {
    const from = folderOf.exec(module.source)?.[1];
    if (from === undefined) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const dependency of module.dependencies) {
      const to = folderOf.exec(dependency.resolved)?.[1];
      if (to === undefined || to === from) continue;
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, []);
      edges.get(to).push(`${module.source} → ${dependency.resolved}`);
      if (!graph.has(to)) graph.set(to, new Map());
    }
  }
  return graph;
}

/**
 * The cycles of a folder graph: its strongly connected components of more than one folder
 * (Tarjan's algorithm), each sorted by name, sorted by their first folder.
 *
 * @param {Map<string, Map<string, string[]>>} graph from {@link folderGraph}
 * @returns {string[][]}
 */
export function folderCycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let next = 0;
  const visit = (folder) => {
    index.set(folder, next);
    low.set(folder, next);
    next += 1;
    stack.push(folder);
    onStack.add(folder);
    for (const to of graph.get(folder)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(folder, Math.min(low.get(folder), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(folder, Math.min(low.get(folder), index.get(to)));
      }
    }
    if (low.get(folder) !== index.get(folder)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const folder of [...graph.keys()].sort()) if (!index.has(folder)) visit(folder);
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The module imports between the folders of one cycle, for the failure message. */
function cycleImports(graph, cycle) {
  const members = new Set(cycle);
  const lines = [];
  for (const from of cycle) {
    for (const [to, imports] of graph.get(from) ?? []) {
      if (members.has(to)) lines.push(`  ${from} → ${to}: ${imports.join(', ')}`);
    }
  }
  return lines;
}

function parseArguments(argv) {
  const options = { cwd: process.cwd(), folders: '^src/core/([^/]+)/', paths: [] };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--cwd') options.cwd = resolve(argv[++i]);
    else if (argv[i] === '--folders') options.folders = argv[++i];
    else options.paths.push(argv[i]);
  }
  if (options.paths.length === 0) options.paths.push('src');
  return options;
}

function cruise({ cwd, paths }) {
  // The depcruise of this repository, whatever project is checked, so a planted tree needs no install.
  // Its package.json is not exported: walk up from the main entry to the package folder.
  let folder = dirname(fileURLToPath(import.meta.resolve('dependency-cruiser')));
  while (!existsSync(join(folder, 'package.json'))) folder = dirname(folder);
  const bin = join(folder, 'bin', 'dependency-cruise.mjs');
  const config = join(cwd, '.dependency-cruiser.cjs');
  const args = [bin, ...paths, '--output-type', 'json', ...(existsSync(config) ? ['--config', config] : [])];
  let stdout;
  try {
    stdout = execFileSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    // depcruise exits non-zero when a rule is broken and still prints the cruise: those
    // breaks are its own report's business (the lint runs it too); here only the graph counts.
    if (typeof error.stdout !== 'string' || error.stdout.length === 0) throw error;
    stdout = error.stdout;
  }
  return JSON.parse(stdout).modules;
}

function main() {
  const options = parseArguments(process.argv.slice(2));
  const graph = folderGraph(cruise(options), new RegExp(options.folders));
  const cycles = folderCycles(graph);
  if (cycles.length === 0) {
    console.log(`no folder cycles among ${graph.size} folders (${options.folders})`);
    return;
  }
  for (const cycle of cycles) {
    console.error(`folder cycle: ${cycle.join(' ↔ ')}`);
    for (const line of cycleImports(graph, cycle)) console.error(line);
  }
  console.error(
    'Move what both folders need into a layer below them (the subsystem it belongs to, or src/core/shared/), or reach the other feature through its public *-api.ts.',
  );
  process.exitCode = 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
