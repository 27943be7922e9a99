import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemory, type MemoryStore } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { quiet, STORES, tempDir } from '../helpers/stores.js';

// A file deleted while index() runs (after the folder was listed, before the file is read) is
// simply gone: its items leave the index, and the run does not end in a raw ENOENT.

const NOW = Date.parse('2025-12-03T12:00:00Z');

/** The real store, with `hook` run once when the next list of memories starts (armed by the test). */
function withHook(store: MemoryStore): { store: MemoryStore; arm(hook: () => void): void } {
  let armed: (() => void) | undefined;
  const hooked = new Proxy(store, {
    get(target, property) {
      if (property === 'list')
        return (...args: Parameters<MemoryStore['list']>) => {
          if (args[0] === 'memory') {
            const hook = armed;
            armed = undefined;
            hook?.();
          }
          return target.list(...args);
        };
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store: hooked,
    arm: (hook) => {
      armed = hook;
    },
  };
}

describe.each(STORES)('a workspace file deleted while index() runs (%s)', (_name, make) => {
  it('is treated as gone: no ENOENT, its items leave the index, the rest is indexed', async () => {
    const root = join(tempDir('memoir-vanish-'), 'ws');
    mkdirSync(join(root, 'memory'), { recursive: true });
    const doomed = join(root, 'memory', '2025-12-01.md');
    writeFileSync(doomed, '- The doomed note about lanterns.\n');
    writeFileSync(join(root, 'memory', '2025-12-02.md'), '- Peter likes green tea.\n');
    const { store, arm } = withHook(make());
    const memory = createMemory({ store, workspace: root, clock: createFixedClock(NOW), logger: quiet });
    await memory.workspace.index();
    writeFileSync(join(root, 'memory', '2025-12-02.md'), '- Peter likes green tea.\n- And biscuits.\n');
    arm(() => rmSync(doomed));
    const report = await memory.workspace.index();
    const contents = (await memory.list({ limit: 100 })).map((item) => item.content);
    await memory.close();
    expect(report.removedFiles).toEqual(['memory/2025-12-01.md']);
    expect(report.changedFiles).toEqual(['memory/2025-12-02.md']);
    expect(contents.sort()).toEqual(['And biscuits.', 'Peter likes green tea.']);
  });
});
