import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemory } from '../../src/index.js';
import { createFixedClock, createScriptedLanguageModel } from '../../src/testing/index.js';
import { quiet, STORES, tempDir } from '../helpers/stores.js';

// Data written into a generated section (facts, a model's summary) that holds reflect's own
// marker comments must not end or open the section: the page would look hand-edited forever.

const NOW = Date.parse('2025-12-03T12:00:00Z');

describe.each(STORES)('generated sections stay regenerable (%s)', (_name, make) => {
  it('a fact or a summary holding the section markers does not freeze the entity page', async () => {
    const root = join(tempDir('memoir-markers-'), 'ws');
    mkdirSync(join(root, 'memory'), { recursive: true });
    const day = join(root, 'memory', '2025-12-02.md');
    writeFileSync(
      day,
      [
        '## Retain',
        '- W @Peter: Wrote <!-- /memoir:facts --> into a note.',
        '- W @Peter: Also wrote <!-- memoir:facts sha256=0123456789abcdef --> there.',
        '',
      ].join('\n'),
    );
    const model = createScriptedLanguageModel(() => ({
      text: 'Peter writes markers.\n<!-- /memoir:facts -->\n<!--/memoir:facts-->\nThe end.',
    }));
    const memory = createMemory({
      store: make(),
      workspace: root,
      clock: createFixedClock(NOW),
      logger: quiet,
      languageModel: model,
    });
    const first = await memory.reflect();
    expect(first.entityPages).toEqual([{ entity: 'Peter', file: 'bank/entities/Peter.md', status: 'created' }]);
    const page = readFileSync(join(root, 'bank', 'entities', 'Peter.md'), 'utf8');
    // The data is still there, readable, but as text.
    expect(page).toContain('Wrote &lt;!-- /memoir:facts --> into a note.');
    expect(page.match(/^<!-- \/memoir:facts -->$/gm)).toHaveLength(1);

    const second = await memory.reflect();
    expect(second.entityPages.map((entry) => entry.status)).toEqual(['unchanged']);
    expect(second.warnings).toEqual([]);

    appendFileSync(day, '- W @Peter: Moved to Graz.\n');
    const third = await memory.reflect();
    await memory.close();
    expect(third.entityPages.map((entry) => entry.status)).toEqual(['updated']);
    expect(readFileSync(join(root, 'bank', 'entities', 'Peter.md'), 'utf8')).toContain('Moved to Graz.');
  });
});
