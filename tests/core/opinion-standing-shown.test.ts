import { afterEach, describe, expect, it } from 'vitest';
import { formatList, formatRecall } from '../../src/cli/cli-format.js';
import { createMemory, formatContext, type MemoryClient } from '../../src/index.js';
import { callAgentTool } from '../../src/integrations/agent-tools/define-agent-tool.js';
import { memoryListTool, memoryRecallTool } from '../../src/integrations/agent-tools/memory-tools.js';
import { quiet, STORES, type StoreFactory } from '../helpers/stores.js';

// An opinion carries a confidence and the evidence behind it (reflect keeps both, a workspace
// writes `O(c=…)`). What the agent and the user read — the formatted context, the recall tools'
// text, the CLI's recall and list tables — says both, so a belief held at 0.4 on one piece of
// evidence never reads like a fact.

describe.each(STORES)(
  'an opinion’s confidence and evidence, shown where memories are read, on %s',
  (_name, makeStore: StoreFactory) => {
    const open: MemoryClient[] = [];
    afterEach(async () => {
      await Promise.all(open.splice(0).map((client) => client.close()));
    });

    async function withOpinion() {
      const memory = createMemory({ store: makeStore(), logger: quiet });
      open.push(memory);
      const [fact] = (await memory.retain('Peter replied to the long release notes with a one-line answer.')).ids;
      const opinion = (
        await memory.retain({
          content: 'Peter prefers concise replies on WhatsApp.',
          kind: 'opinion',
          category: 'preferences',
          entities: ['Peter'],
          metadata: { confidence: 0.72, supporting: [fact!, 'mem_b', 'mem_c'], contradicting: ['mem_d'] },
        })
      ).ids[0]!;
      const plain = (await memory.retain('Peter writes replies on WhatsApp from his phone.')).ids[0]!;
      return { memory, opinion, plain };
    }

    it('formatContext puts confidence and evidence counts in the opinion’s tag, and nothing in a fact’s', async () => {
      const { memory, opinion, plain } = await withOpinion();
      const response = await memory.recall('Peter replies WhatsApp', { k: 5 });
      const block = formatContext(response);
      const entry = (id: string) => block.split('\n').find((line) => line.startsWith(`<memory id="${id}"`)) ?? '';
      expect(entry(opinion)).toContain('kind="opinion"');
      expect(entry(opinion)).toContain('confidence="0.72" evidence="4" against="1"');
      expect(entry(plain)).not.toMatch(/confidence=|evidence=/);
    });

    it('memory_recall, as a context block and as a list, says "(opinion, confidence 0.72, 4 evidence, 1 against)"', async () => {
      const { memory, opinion, plain } = await withOpinion();
      const recalled = await callAgentTool(memoryRecallTool, memory, { query: 'Peter replies WhatsApp', k: 5 });
      expect(recalled.text).toContain('confidence="0.72" evidence="4" against="1"');
      const searched = await callAgentTool(memoryRecallTool, memory, {
        query: 'Peter replies WhatsApp',
        k: 5,
        format: 'list',
      });
      const line = (id: string) => searched.text.split('\n').find((text) => text.startsWith(`- ${id} `)) ?? '';
      expect(line(opinion)).toContain('opinion, confidence 0.72, 4 evidence, 1 against');
      expect(line(plain)).not.toMatch(/confidence|evidence/);
      const listed = await callAgentTool(memoryListTool, memory, {});
      expect(listed.text).toContain('opinion, confidence 0.72, 4 evidence, 1 against');
    });

    it('the CLI’s recall and list tables mark the opinion with its confidence and evidence', async () => {
      const { memory, opinion } = await withOpinion();
      const recallTable = formatRecall(await memory.recall('Peter replies WhatsApp', { k: 5 }), 200);
      const row = recallTable.split('\n').find((text) => text.includes(opinion)) ?? '';
      expect(row).toContain('confidence 0.72, 4 evidence, 1 against');
      const listTable = formatList(await memory.list({ limit: 10 }), { offset: 0, nextOffset: null, width: 200 });
      const listed = listTable.split('\n').find((text) => text.includes(opinion)) ?? '';
      expect(listed).toContain('confidence 0.72, 4 evidence, 1 against');
    });

    it('an opinion with a confidence and no evidence says so; one never weighed carries no marks', async () => {
      const memory = createMemory({ store: makeStore(), logger: quiet });
      open.push(memory);
      const held = (
        await memory.retain({
          content: 'Tabs read better than spaces.',
          kind: 'opinion',
          metadata: { confidence: 0.95 },
        })
      ).ids[0]!;
      const unweighed = (await memory.retain({ content: 'Dark mode is easier on the eyes.', kind: 'opinion' })).ids[0]!;
      const block = formatContext(await memory.list({ limit: 10 }));
      const entry = (id: string) => block.split('\n').find((line) => line.startsWith(`<memory id="${id}"`)) ?? '';
      expect(entry(held)).toContain('confidence="0.95" evidence="0"');
      expect(entry(unweighed)).not.toMatch(/confidence=|evidence=/);
      const listed = await callAgentTool(memoryListTool, memory, {});
      expect(listed.text.split('\n').find((text) => text.includes(held))).toContain(
        'opinion, confidence 0.95, 0 evidence,',
      );
      expect(listed.text.split('\n').find((text) => text.includes(unweighed))).not.toContain('evidence');
    });
  },
);
