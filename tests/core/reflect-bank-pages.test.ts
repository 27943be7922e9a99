import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScriptedLanguageModel } from '../../src/testing/index.js';
import { fixtureCopy, workspaceClient } from '../helpers/workspace.js';

// reflect keeps bank/world.md and bank/experience.md (seed 004: world facts, the agent's
// experiences) in generated sections, idempotent and leaving what a person wrote around them;
// and a daily log with prose but no `## Retain` section gets its bullets inferred by the
// language model (a scripted one here), or is reported skipped when no model is set. The
// client's clock is 2025-12-03 noon; the default window starts 2025-11-26.

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');
const PROSE_LOG =
  '# 2025-12-02\n\nPeter fixed the garage door in the morning. Later the warelay gateway was restarted.\n';

describe('reflect: bank/world.md, bank/experience.md and inferred Retain sections', () => {
  it('writes the world facts and experiences that hold now, idempotently, keeping hand-written lines; without a model a prose-only log is reported skipped', async () => {
    const root = fixtureCopy();
    writeFileSync(join(root, 'memory', '2025-12-02.md'), PROSE_LOG);
    const memory = workspaceClient(root);
    const report = await memory.reflect();
    expect(report.bankPages).toEqual([
      { file: 'bank/world.md', status: 'created' },
      { file: 'bank/experience.md', status: 'created' },
    ]);
    const world = read(root, 'bank/world.md');
    // The hand-written page stays; the section follows it.
    expect(world.startsWith('# World\n\n- W @warelay: warelay is the WhatsApp gateway CLI built on Baileys web.')).toBe(
      true,
    );
    expect(world).toMatch(/<!-- memoir:world sha256=[0-9a-f]{16} -->\n## World facts \(kept by memoir reflect\)/);
    expect(world).toContain(
      '- 2025-12-01 @Peter: Peter returned to Vienna on Dec 1, 2025. — [memory/2025-12-01.md#L10](../memory/2025-12-01.md#L10)',
    );
    // A stay that ended (Nov 27–Dec 1) no longer holds.
    expect(world).not.toContain('Marrakech (Nov 27');
    const experience = read(root, 'bank/experience.md');
    expect(experience.indexOf('Restarting the gateway clears stuck sessions')).toBeLessThan(
      experience.indexOf('<!-- memoir:experience'),
    );
    expect(experience).toContain('I fixed the Baileys WS crash by wrapping connection.update handlers');
    expect(report.retainSections).toEqual({
      added: [],
      skipped: [{ file: 'memory/2025-12-02.md', reason: expect.stringContaining('no language model is set') }],
    });
    expect(read(root, 'memory/2025-12-02.md')).toBe(PROSE_LOG);

    // The generated lines only repeat what is indexed: recall does not find them twice.
    const recalled = await memory.recall('Peter returned to Vienna', { k: 10 });
    expect(
      recalled.results.map((result) => result.citation).filter((citation) => citation.startsWith('bank/world.md')),
    ).toEqual([]);

    // A second run changes nothing; a line a person adds after the section survives the next.
    const again = await memory.reflect();
    expect(again.bankPages.map((page) => page.status)).toEqual(['unchanged', 'unchanged']);
    expect(read(root, 'bank/world.md')).toBe(world);
    writeFileSync(join(root, 'bank', 'world.md'), `${world}\n- W @Andy: Andy lives in Graz.\n`);
    writeFileSync(
      join(root, 'memory', '2025-12-03.md'),
      '# 2025-12-03\n\n## Retain\n\n- W @Andy: Andy bought a boat.\n',
    );
    const third = await memory.reflect();
    expect(third.bankPages[0]).toEqual({ file: 'bank/world.md', status: 'updated' });
    const updated = read(root, 'bank/world.md');
    expect(updated).toContain('Andy bought a boat.');
    expect(updated).toContain('- W @Andy: Andy lives in Graz.');

    // A hand edit inside the section: left alone, with a warning.
    writeFileSync(join(root, 'bank', 'experience.md'), read(root, 'bank/experience.md').replace('I fixed', 'We fixed'));
    const edited = await memory.reflect();
    expect(edited.bankPages[1]).toEqual({ file: 'bank/experience.md', status: 'hand-edited' });
    expect(edited.warnings.join('\n')).toContain('bank/experience.md: the generated section was edited by hand');
    await memory.close();
  });

  it('with a model, infers the Retain bullets of a prose-only log, appends them to its file and reflects on them, once', async () => {
    const root = fixtureCopy();
    writeFileSync(join(root, 'memory', '2025-12-02.md'), PROSE_LOG);
    const model = createScriptedLanguageModel((request) =>
      request.system?.includes('## Retain')
        ? {
            text: 'Here are the bullets:\n- W @Peter: Peter fixed the garage door on Dec 2.\n- B @warelay: I restarted the warelay gateway.\n- not a typed bullet\n',
          }
        : { text: 'A summary.' },
    );
    const memory = workspaceClient(root, { languageModel: model });
    const report = await memory.reflect();
    expect(report.retainSections).toEqual({
      added: [
        {
          file: 'memory/2025-12-02.md',
          bullets: [
            '- W @Peter: Peter fixed the garage door on Dec 2.',
            '- B @warelay: I restarted the warelay gateway.',
          ],
        },
      ],
      skipped: [],
    });
    const asked = model.calls.filter((call) => call.system?.includes('## Retain'));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.messages[0]!.content).toContain('Peter fixed the garage door in the morning.');
    expect(read(root, 'memory/2025-12-02.md')).toBe(
      `${PROSE_LOG}\n## Retain\n\n<!-- inferred by memoir reflect from the log above: edit or delete freely -->\n- W @Peter: Peter fixed the garage door on Dec 2.\n- B @warelay: I restarted the warelay gateway.\n`,
    );
    // The inferred bullets are indexed as retained facts and reflected on in the same run.
    expect(read(root, 'bank/world.md')).toContain('Peter fixed the garage door on Dec 2.');
    expect(read(root, 'bank/experience.md')).toContain('I restarted the warelay gateway.');
    expect(read(root, 'bank/entities/Peter.md')).toContain('Peter fixed the garage door on Dec 2.');

    // The log has its Retain section now: the next run does not ask again.
    const second = await memory.reflect();
    expect(second.retainSections).toEqual({ added: [], skipped: [] });
    expect(model.calls.filter((call) => call.system?.includes('## Retain'))).toHaveLength(1);
    await memory.close();
  });
});
