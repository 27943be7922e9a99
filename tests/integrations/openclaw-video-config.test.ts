import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoriesAiProvider } from '../../src/adapters/memories-ai/index.js';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';
import { tempDir } from '../helpers/stores.js';
import { missingTools, titled } from '../helpers/system-tools.js';
import { writeTestVideo } from '../helpers/video-files.js';
import { type FakeHost, fakeHost, stateDirectory } from './openclaw-fake-host.js';

const ffmpegMissing = missingTools('ffmpeg');
const RECORDED = '2026-02-10T14:30:05.000Z';
const STEPS = ['Opened github.com/settings/keys in the browser', "Clicked the green 'New SSH key' button"];
// The config's ${NAME} syntax, not a template.
const REFERENCE = '$' + '{MEMOIR_TEST_MAI_KEY}';
const QUERY = 'adding an SSH key to GitHub';
const SEED = /On Feb 10, 2026 at 14:30 UTC, the user: 1\) Opened github\.com\/settings\/keys in the browser 2\) /;

/** A loopback OpenAI-compatible vision model: the scripted steps in order, then NONE. */
async function startVisionServer(): Promise<{
  baseUrl: string;
  calls: () => number;
  reset: () => void;
  close: () => Promise<void>;
}> {
  let calls = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const text = STEPS[calls++] ?? 'NONE';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chat-${calls}`,
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls: () => calls,
    reset: () => {
      calls = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The plugin's `video` key: memory_recall_steps searches the recordings through the gateway
// (the loopback Memories AI server, the real ffmpeg, a loopback vision model), the key given
// as ${NAME} or taken from MEMORIES_AI_API_KEY; the steps drawn are cached in the sender's
// scope only.
describe.skipIf(ffmpegMissing)(
  titled('OpenClaw video key: memory_recall_steps searches recordings', ffmpegMissing),
  () => {
    let server: MemoriesAiServer;
    let vision: Awaited<ReturnType<typeof startVisionServer>>;
    const dir = tempDir('memoir-openclaw-video-');
    const hosts: Array<{ host: FakeHost; remove: () => void }> = [];
    const saved = { key: process.env.MEMOIR_TEST_MAI_KEY, env: process.env.MEMORIES_AI_API_KEY };

    beforeAll(async () => {
      server = await new MemoriesAiServer().start();
      vision = await startVisionServer();
      const provider = createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl, minIntervalMs: 0 });
      const file = writeTestVideo(join(dir, 'rec-20260210-143005-0a0b0c0d.mp4'), 6);
      const { videoId } = await provider.upload({ filePath: file, recordedAt: RECORDED });
      server.searchResults = [{ video_id: videoId, score: 0.92, start: 1, end: 5, captured_at: RECORDED }];
    }, 60_000);
    afterAll(async () => {
      server?.close();
      await vision?.close();
    });
    afterEach(async () => {
      vision.reset();
      for (const [name, value] of [
        ['MEMOIR_TEST_MAI_KEY', saved.key],
        ['MEMORIES_AI_API_KEY', saved.env],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      for (const { host, remove } of hosts.splice(0)) {
        await host.stop();
        remove();
      }
    });

    const start = (config: Record<string, unknown>) => {
      const state = stateDirectory();
      const host = fakeHost({ dbPath: join(state.dir, 'memoir.sqlite'), ...config }, { stateDir: state.dir });
      hosts.push({ host, remove: state.remove });
      return host;
    };

    it('with video.apiKey as a $NAME reference: the sender gets the seed answer, cached in their scope only', async () => {
      process.env.MEMOIR_TEST_MAI_KEY = server.apiKey;
      const host = start({
        video: {
          apiKey: REFERENCE,
          baseUrl: server.baseUrl,
          requestsPerSecond: 1000,
          vision: { model: 'vision-mock', baseUrl: vision.baseUrl, apiKey: 'sk-vision' },
        },
      });
      const before = vision.calls();
      const text = await host.tool(
        'memory_recall_steps',
        { query: QUERY, limit: 1 },
        { requesterSenderId: 'alice', senderIsOwner: true },
      );
      expect(text).toMatch(SEED);
      expect(text).toContain('recorded="2026-02-10T14:30:06.000Z/2026-02-10T14:30:10.000Z" confidence="0.92"');
      expect(vision.calls()).toBeGreaterThan(before);
      expect(server.requests.some((request) => request.path.includes('search'))).toBe(true);
      // The steps were cached in alice's scope: recall finds them for her, not for bob.
      const mine = await host.tool(
        'memory_recall',
        { query: 'SSH key GitHub settings' },
        { requesterSenderId: 'alice' },
      );
      expect(mine).toMatch(/New SSH key/);
      const theirs = await host.tool(
        'memory_recall',
        { query: 'SSH key GitHub settings' },
        { requesterSenderId: 'bob' },
      );
      expect(theirs).not.toMatch(/New SSH key/);
    }, 90_000);

    it('without the key: MEMORIES_AI_API_KEY from the environment turns video on', async () => {
      process.env.MEMORIES_AI_API_KEY = server.apiKey;
      const host = start({
        video: {
          baseUrl: server.baseUrl,
          requestsPerSecond: 1000,
          vision: { model: 'vision-mock', baseUrl: vision.baseUrl },
        },
      });
      const text = await host.tool(
        'memory_recall_steps',
        { query: QUERY, limit: 1 },
        { requesterSenderId: 'carol', senderIsOwner: true },
      );
      expect(text).toMatch(/On Feb 10, 2026 at 14:30 UTC, the user: 1\) /);
    }, 90_000);

    it("another sender may not search the owner's recordings (senders: owner, the default); senders: all lets them", async () => {
      const video = {
        apiKey: server.apiKey,
        baseUrl: server.baseUrl,
        requestsPerSecond: 1000,
        vision: { model: 'vision-mock', baseUrl: vision.baseUrl },
      };
      const searches = () => server.requests.filter((request) => request.path.includes('search')).length;
      const host = start({ video });
      const before = searches();
      await expect(
        host.tool('memory_recall_steps', { query: QUERY, limit: 1 }, { requesterSenderId: 'mallory' }),
      ).rejects.toThrow(/may not search the recordings/);
      expect(searches()).toBe(before);
      // The operator's turns name no sender: they count as the owner's.
      expect(await host.tool('memory_recall_steps', { query: QUERY, limit: 1 }, {})).toMatch(SEED);
      vision.reset();
      const open = start({ video: { ...video, senders: 'all' } });
      expect(
        await open.tool('memory_recall_steps', { query: QUERY, limit: 1 }, { requesterSenderId: 'mallory' }),
      ).toMatch(SEED);
    }, 90_000);

    it('a $NAME reference that is not set: no provider, and the log names the variable', async () => {
      delete process.env.MEMORIES_AI_API_KEY;
      delete process.env.MEMOIR_TEST_MAI_KEY;
      const host = start({ video: { apiKey: REFERENCE, baseUrl: server.baseUrl } });
      await expect(host.tool('memory_recall_steps', { query: QUERY }, { requesterSenderId: 'dave' })).rejects.toThrow(
        /no video provider/,
      );
      expect(host.logs.join('\n')).toMatch(/MEMOIR_TEST_MAI_KEY is not set/);
    }, 60_000);

    it('a bad video key is a config error naming the field', () => {
      const host = start({ video: { baseUrl: 'ftp://nowhere', vision: {} } });
      expect(host.handle).toBeNull();
      expect(host.logs.join('\n')).toMatch(/video\.(baseUrl|vision)/);
    });
  },
);
