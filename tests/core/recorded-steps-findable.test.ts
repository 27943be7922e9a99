import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoriesAiProvider } from '../../src/adapters/memories-ai/index.js';
import type { MemoryClient } from '../../src/index.js';
import { createFfmpegFrameExtractor } from '../../src/recorder/index.js';
import { createScriptedLanguageModel } from '../../src/testing/index.js';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';
import { STORES, storeAndClient, tempDir } from '../helpers/stores.js';
import { missingTools, titled } from '../helpers/system-tools.js';
import { writeTestVideo } from '../helpers/video-files.js';

const ffmpegMissing = missingTools('ffmpeg');

// Steps drawn from a recording (a real video on the loopback Memories AI server, key frames by
// the real ffmpeg, a scripted vision model) must be found by every way an agent looks for
// what was done before: findRelevant (the procedure tools), and recall.
const RECORDED = '2026-02-10T14:30:05.000Z';
const STEPS = [
  'Opened github.com/settings/keys in the browser',
  "Clicked the green 'New SSH key' button",
  "Pasted the key into the 'Key' field",
  "Clicked 'Add SSH key'",
];

describe.skipIf(ffmpegMissing)(titled('steps cached from a recording are found', ffmpegMissing), () => {
  let server: MemoriesAiServer;
  let videoId: string;
  const dir = tempDir('memoir-recorded-steps-');

  beforeAll(async () => {
    server = await new MemoriesAiServer().start();
    const provider = createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl, minIntervalMs: 0 });
    const file = writeTestVideo(join(dir, 'rec-20260210-143005-0a0b0c0d.mp4'), 6);
    ({ videoId } = await provider.upload({ filePath: file, recordedAt: RECORDED }));
    server.searchResults = [
      {
        video_id: videoId,
        score: 0.92,
        start: 1,
        end: 5,
        snippet: 'An SSH key is added on GitHub.',
        captured_at: RECORDED,
      },
    ];
  }, 60_000);
  afterAll(() => server?.close());

  describe.each(STORES)('%s', (_name, make) => {
    const open: MemoryClient[] = [];
    afterEach(async () => {
      for (const memory of open.splice(0)) await memory.close();
    });
    const client = () => {
      let i = 0;
      const model = createScriptedLanguageModel(() => STEPS[i++] ?? 'NONE');
      const provider = createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl, minIntervalMs: 0 });
      const { memory } = storeAndClient(make, {
        video: { provider, frames: createFfmpegFrameExtractor(), visionModel: model, maxFramesPerClip: 5 },
      });
      open.push(memory);
      return memory;
    };

    it('findRelevant, recall and the cache all return the steps with their video range, wall-clock span and confidence', async () => {
      const memory = client();
      const [result] = await memory.procedures.fromRecording('how do I add an SSH key on GitHub', { limit: 1 });
      expect(result).toMatchObject({
        cached: false,
        confidence: 0.92,
        videoId,
        videoStartMs: 1000,
        videoEndMs: 5000,
        timestamp: '2026-02-10T14:30:06.000Z',
        recordedAt: { start: '2026-02-10T14:30:06.000Z', end: '2026-02-10T14:30:10.000Z' },
      });
      expect(result!.steps.length).toBeGreaterThan(0);

      // The procedure tools' search: no procedure directory is needed for recorded steps.
      const found = await memory.procedures.findRelevant('add an SSH key on GitHub', { threshold: 0.3 });
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        file: null,
        procedure: { id: result!.procedureId, source: 'recording', steps: result!.steps },
        recording: {
          videoId,
          videoStartMs: 1000,
          videoEndMs: 5000,
          confidence: 0.92,
          recordedAt: { start: '2026-02-10T14:30:06.000Z', end: '2026-02-10T14:30:10.000Z' },
        },
      });
      // No vectors handed out with the procedure.
      expect(JSON.stringify(found[0]!.procedure)).not.toMatch(/queryVector/);
      const onlyRecorded = await memory.procedures.findRelevant('add an SSH key on GitHub', {
        sources: ['recording'],
        threshold: 0.3,
      });
      expect(onlyRecorded.map((entry) => entry.procedure.id)).toEqual([result!.procedureId]);
      // Procedure files asked for by a client with no directory for them: said so, as before.
      await expect(
        memory.procedures.findRelevant('add an SSH key on GitHub', { sources: ['manual'], threshold: 0 }),
      ).rejects.toThrow(/no directory for procedure files/);
      expect(memory.procedures.formatProcedures(found)).toMatch(
        /source="recording" video="vid_\d+" clip="0:01-0:05" recorded="2026-02-10T14:30:06.000Z\/2026-02-10T14:30:10.000Z" confidence="0.92"/,
      );

      // recall: the seed's sentence, at the clip's time, and a category to ask for recorded steps only.
      const recalled = await memory.recall('adding an SSH key to GitHub');
      const hit = recalled.results.find((entry) => entry.memory.id === result!.memoryId);
      expect(hit?.memory).toMatchObject({
        kind: 'experience',
        category: 'recording',
        occurredAt: '2026-02-10T14:30:06.000Z',
        metadata: { recording: { procedureId: result!.procedureId, videoId, confidence: 0.92 } },
      });
      expect(hit!.memory.content).toMatch(/^On Feb 10, 2026 at 14:30 UTC, the user: 1\) .+ 2\) /);
      const only = await memory.recall('SSH key', { categories: ['recording'] });
      expect(only.results.map((entry) => entry.memory.id)).toEqual([result!.memoryId]);

      // A similar query later: from the cache, the same memory, nothing stored twice.
      const [again] = await memory.procedures.fromRecording('How do I add an SSH key on GitHub?', { limit: 1 });
      expect(again).toMatchObject({ cached: true, memoryId: result!.memoryId, recordedAt: result!.recordedAt });
      expect((await memory.list({ categories: ['recording'] })).length).toBe(1);

      // The find → follow → record loop works for recorded steps too.
      const used = await memory.procedures.recordUse(result!.procedureId, { success: true });
      expect(used).toMatchObject({ id: result!.procedureId, successCount: 1 });
      expect(await memory.procedures.get(result!.procedureId)).toMatchObject({ successCount: 1, source: 'recording' });
    }, 60_000);

    it('without a video provider, the cache answers; a client of another scope sees none of it', async () => {
      const provider = createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl, minIntervalMs: 0 });
      let i = 0;
      const model = createScriptedLanguageModel(() => STEPS[i++] ?? 'NONE');
      const store = make();
      const { createMemory } = await import('../../src/index.js');
      const alice = createMemory({
        store,
        logger: { log() {} },
        scope: { userId: 'alice' },
        video: { provider, frames: createFfmpegFrameExtractor(), visionModel: model, maxFramesPerClip: 5 },
      });
      open.push(alice);
      const [drawn] = await alice.procedures.fromRecording('add an SSH key on GitHub', { limit: 1 });

      // A second client over the same store, with no video provider (as an agent host without a Memories AI key).
      const offline = createMemory({ store, logger: { log() {} } });
      open.push(offline);
      const asAlice = await offline.procedures.fromRecording('adding an SSH key to GitHub', {
        scope: { userId: 'alice' },
      });
      expect(asAlice.map((entry) => entry.procedureId)).toEqual([drawn!.procedureId]);
      expect(asAlice[0]).toMatchObject({ cached: true, recordedAt: drawn!.recordedAt });
      await expect(
        offline.procedures.fromRecording('adding an SSH key to GitHub', { scope: { userId: 'bob' } }),
      ).rejects.toThrow(/no video provider/);
    }, 60_000);
  });
});
