import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoriesAiProvider } from '../../src/adapters/memories-ai/index.js';
import { createFfmpegFrameExtractor, createScreenRecorder, type SegmentInfo } from '../../src/recorder/index.js';
import { createScriptedLanguageModel } from '../../src/testing/index.js';
import { clientsClosedAfterEach } from '../helpers/clients.js';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';
import { titled } from '../helpers/system-tools.js';
import { startXvfb, type XDisplay, xToolsMissing } from '../helpers/x-display.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const makeClient = clientsClosedAfterEach();

// A recording made here (three coloured windows opening one after another), indexed by the
// loopback Memories AI server, read back over HTTP by ffmpeg; only the vision model is scripted.
describe.skipIf(xToolsMissing)(titled('steps from a screen recording', xToolsMissing), () => {
  let x: XDisplay;
  let server: MemoriesAiServer;
  let dir: string;
  let videoId: string;

  beforeAll(async () => {
    x = await startXvfb();
    server = await new MemoriesAiServer().start();
    dir = await mkdtemp(join(tmpdir(), 'memoir-steps-'));
    const recorder = createScreenRecorder({ outputDir: dir, display: x.display, segmentSeconds: 30, privacy: false });
    const closed: SegmentInfo[] = [];
    recorder.on('segment', (segment) => closed.push(segment));
    await recorder.start();
    for (const [i, colour] of ['#c00000', '#00a000', '#0000c0'].entries()) {
      await sleep(1200);
      x.spawn('xterm', [
        '-T',
        `step ${i}`,
        '-geometry',
        `${60 + i * 20}x${20 + i * 8}+${i * 200}+${i * 80}`,
        '-bg',
        colour,
      ]);
    }
    await sleep(1500);
    await recorder.stop();
    const provider = createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl, minIntervalMs: 0 });
    ({ videoId } = await provider.upload({ filePath: closed[0]!.path, idempotencyKey: 'steps-test' }));
    server.searchResults = [
      {
        video_id: videoId,
        score: 0.87,
        start: 0,
        end: closed[0]!.durationSeconds,
        snippet: 'Three terminals are opened.',
      },
    ];
  }, 60_000);
  afterAll(async () => {
    await x?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it('describes the action between consecutive key frames, drops NONE, and caches the result as a recording procedure', async () => {
    const answers = [
      'Opened a red terminal window at the top left',
      'NONE',
      'Opened a green terminal window',
      'Opened a blue terminal window',
    ];
    const model = createScriptedLanguageModel((_request, i) => answers[i] ?? 'NONE');
    const provider = createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl, minIntervalMs: 0 });
    const memory = makeClient({ video: { provider, frames: createFfmpegFrameExtractor(), visionModel: model } });

    const [result] = await memory.procedures.fromRecording('how do I open the coloured terminals', { limit: 1 });
    // First frame, the three windows appearing, the last frame: at least three pairs.
    expect(model.calls.length).toBeGreaterThanOrEqual(3);
    expect(model.calls.length).toBeLessThanOrEqual(7);
    for (const call of model.calls) {
      const images = call.messages[0]!.images!;
      expect(images).toHaveLength(2);
      expect(
        images.every(
          (image) =>
            image.mediaType === 'image/jpeg' &&
            (image.data as Uint8Array)[0] === 0xff &&
            (image.data as Uint8Array)[1] === 0xd8,
        ),
      ).toBe(true);
      expect(call.system).toMatch(/NONE/);
    }
    expect(result).toMatchObject({
      confidence: 0.87,
      summary: 'Three terminals are opened.',
      videoId,
      videoStartMs: 0,
      cached: false,
      steps: answers.slice(0, model.calls.length).filter((answer) => answer !== 'NONE'),
    });
    expect(result!.videoUrl).toBe(`${server.origin}/media/${videoId}`);
    expect(result!.durationSeconds).toBeGreaterThan(4);

    const [stored] = await memory.store.get('procedure', [result!.procedureId]);
    expect(stored).toMatchObject({
      source: 'recording',
      steps: result!.steps,
      videoEvidence: [{ videoId, startMs: 0, endMs: result!.videoEndMs }],
    });

    const searches = server.requests.filter((request) => request.path === '/search').length;
    const calls = model.calls.length;
    const [again] = await memory.procedures.fromRecording('How do I open the coloured terminals?', { limit: 1 });
    expect(again).toMatchObject({ cached: true, steps: result!.steps, procedureId: result!.procedureId });
    expect(model.calls.length).toBe(calls);
    expect(server.requests.filter((request) => request.path === '/search').length).toBe(searches);
  }, 60_000);

  it('says what to configure when no video provider was given', async () => {
    const memory = makeClient();
    await expect(memory.procedures.fromRecording('anything')).rejects.toThrow(/video\.provider|no video provider/);
  });
});
