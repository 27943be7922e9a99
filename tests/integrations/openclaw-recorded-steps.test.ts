import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { createMemoriesAiProvider } from '../../src/adapters/memories-ai/index.js';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createMemory, type MemoryStore } from '../../src/index.js';
import { identityOfTool } from '../../src/integrations/openclaw/openclaw-identity.js';
import { createFfmpegFrameExtractor } from '../../src/recorder/index.js';
import { createScriptedLanguageModel } from '../../src/testing/index.js';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';
import { tempDir } from '../helpers/stores.js';
import { missingTools, titled } from '../helpers/system-tools.js';
import { writeTestVideo } from '../helpers/video-files.js';
import { type FakeHost, fakeHost, stateDirectory } from './openclaw-fake-host.js';

const ffmpegMissing = missingTools('ffmpeg');
const RECORDED = '2026-02-10T14:30:05.000Z';
const STEPS = ['Opened github.com/settings/keys in the browser', "Clicked the green 'New SSH key' button"];

// The plugin's memory_recall_steps over the plugin's own store file: the steps a client with a
// video provider drew for a sender (the loopback Memories AI server, the real ffmpeg, a
// scripted vision model) reach that sender's agent, inside its scope only.
const PLUGIN_STORES: Array<
  [name: string, config: (dir: string) => Record<string, unknown>, open: (dir: string) => MemoryStore]
> = [
  [
    'sqlite',
    (dir) => ({ dbPath: join(dir, 'memoir.sqlite') }),
    (dir) => createSqliteStore({ path: join(dir, 'memoir.sqlite') }),
  ],
  [
    'lancedb',
    (dir) => ({ store: 'lancedb', dbPath: join(dir, 'lancedb') }),
    (dir) => createLanceStore({ uri: join(dir, 'lancedb') }),
  ],
];

describe.skipIf(ffmpegMissing)(titled('OpenClaw memory_recall_steps', ffmpegMissing), () => {
  let server: MemoriesAiServer;
  const dir = tempDir('memoir-openclaw-steps-');
  const hosts: Array<{ host: FakeHost; remove: () => void }> = [];

  beforeAll(async () => {
    server = await new MemoriesAiServer().start();
    const provider = createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl, minIntervalMs: 0 });
    const file = writeTestVideo(join(dir, 'rec-20260210-143005-0a0b0c0d.mp4'), 6);
    const { videoId } = await provider.upload({ filePath: file, recordedAt: RECORDED });
    server.searchResults = [{ video_id: videoId, score: 0.92, start: 1, end: 5, captured_at: RECORDED }];
  }, 60_000);
  afterAll(() => server?.close());
  afterEach(async () => {
    for (const { host, remove } of hosts.splice(0)) {
      await host.stop();
      remove();
    }
  });

  it.each(PLUGIN_STORES)(
    '%s: a sender gets their recorded steps with date and video range; another sender none',
    async (_name, config, open) => {
      const state = stateDirectory();
      const alice = identityOfTool({ requesterSenderId: 'alice' }).scope;
      let i = 0;
      const memory = createMemory({
        store: open(state.dir),
        logger: { log() {} },
        scope: alice,
        video: {
          provider: createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl, minIntervalMs: 0 }),
          frames: createFfmpegFrameExtractor(),
          visionModel: createScriptedLanguageModel(() => STEPS[i++] ?? 'NONE'),
          maxFramesPerClip: 4,
        },
      });
      await memory.procedures.fromRecording('how do I add an SSH key on GitHub', { limit: 1 });
      await memory.close();

      const host = fakeHost(config(state.dir), { stateDir: state.dir });
      hosts.push({ host, remove: state.remove });
      expect(host.tools.has('memory_recall_steps')).toBe(true);
      const text = await host.tool(
        'memory_recall_steps',
        { query: 'adding an SSH key to GitHub', limit: 1 },
        {
          requesterSenderId: 'alice',
        },
      );
      expect(text).toMatch(
        /On Feb 10, 2026 at 14:30 UTC, the user: 1\) Opened github\.com\/settings\/keys in the browser/,
      );
      expect(text).toContain('recorded="2026-02-10T14:30:06.000Z/2026-02-10T14:30:10.000Z" confidence="0.92"');
      // Another sender: nothing of alice's, and the plugin has no provider to search with.
      await expect(
        host.tool('memory_recall_steps', { query: 'adding an SSH key to GitHub' }, { requesterSenderId: 'bob' }),
      ).rejects.toThrow(/no video provider/);
      await expect(host.tool('memory_recall_steps', { query: '' }, { requesterSenderId: 'alice' })).rejects.toThrow(
        /query/,
      );
    },
    90_000,
  );
});
