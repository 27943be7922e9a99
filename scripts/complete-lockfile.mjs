// The registry this project installs from carries only some platforms' builds of
// packages such as @rollup/rollup-* and @biomejs/cli-*, so `npm install` leaves the
// others out of package-lock.json and `npm ci` then refuses the lock as incomplete.
// This adds an entry for every missing optional platform package, with the os, cpu
// and libc its name encodes, so `npm ci` knows to skip it. Run after changing
// dependencies: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const OSES = ['android', 'darwin', 'win32', 'linux', 'freebsd', 'openbsd', 'netbsd', 'openharmony', 'aix', 'sunos'];
const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
const added = [];

for (const meta of Object.values(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (packages[key]) continue;
    const parts = name.split('/').pop().split('-');
    const osIndex = parts.findIndex((part) => OSES.includes(part));
    if (osIndex < 0) continue;
    const entry = { version, optional: true, os: [parts[osIndex]], cpu: [parts[osIndex + 1]] };
    const rest = parts.slice(osIndex + 2);
    if (rest.some((part) => part.includes('musl'))) entry.libc = ['musl'];
    else if (parts[osIndex] === 'linux' && rest.some((part) => part.startsWith('gnu'))) entry.libc = ['glibc'];
    if (meta.dev) entry.dev = true;
    packages[key] = entry;
    added.push(name);
  }
}

writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added ${added.length} platform entries:\n  ${added.join('\n  ')}` : 'lockfile complete');
