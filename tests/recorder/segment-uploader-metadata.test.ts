import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoriesAiProvider } from '../../src/adapters/memories-ai/index.js';
import { createScreenRecorder, createSegmentUploader, type SegmentUploader } from '../../src/recorder/index.js';
import { segmentStartOf } from '../../src/recorder/segment-name.js';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';
import { missingTools, titled } from '../helpers/system-tools.js';
import { writeTestVideo } from '../helpers/video-files.js';
import { startXvfb, waitFor, xToolsMissing } from '../helpers/x-display.js';

const ffmpegMissing = missingTools('ffmpeg');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sent {
  captured_at?: string;
  metadata: { title: string; custom: Record<string, string> };
}

describe('segment names', () => {
  it('say when a segment started: exactly with an offset, in local time without one; nonsense is no time', () => {
    expect(segmentStartOf('/r/rec-20260210-143005+0100-0a0b.mp4')).toBe(Date.parse('2026-02-10T13:30:05Z'));
    expect(segmentStartOf('rec-20260210-143005-0530-0a0b.mp4')).toBe(Date.parse('2026-02-10T20:00:05Z'));
    expect(segmentStartOf('rec-20260210-143005-0a0b.mp4')).toBe(new Date(2026, 1, 10, 14, 30, 5).getTime());
    expect(segmentStartOf('rec-20260231-143005-0a0b.mp4')).toBeUndefined();
    expect(segmentStartOf('clip.mp4')).toBeUndefined();
  });
});

// Whatever way a segment reaches the uploader (closed by the recorder, found on disk after a
// restart, left pending in an old journal), the provider gets when it was recorded and the display.
describe.skipIf(ffmpegMissing)(titled('uploads always carry recordedAt and display', ffmpegMissing), () => {
  let server: MemoriesAiServer;
  let dir: string;
  const open: SegmentUploader[] = [];
  const provider = () =>
    createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl, minIntervalMs: 0, timeoutMs: 5000 });
  const sent = () =>
    server.requests
      .filter((request) => request.method === 'POST' && request.path === '/videos')
      .map((request) => (request.body as { json: Sent }).json);

  beforeEach(async () => {
    server = await new MemoriesAiServer().start();
    dir = await mkdtemp(join(tmpdir(), 'memoir-upload-meta-'));
  });
  afterEach(async () => {
    for (const uploader of open.splice(0)) await uploader.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('segments found on disk after a restart: recordedAt from the name, the configured display; search says when', async () => {
    writeTestVideo(join(dir, 'rec-20261123-101500-0a0b0c0d.mp4'), 2);
    writeTestVideo(join(dir, 'rec-20261123-101505+0100-0a0b0c0d.mp4'), 2);
    const uploader = createSegmentUploader({ provider: provider(), outputDir: dir, display: ':7' });
    open.push(uploader);
    await uploader.start();
    await waitFor(() => uploader.entries().every((entry) => entry.state === 'uploaded'), 10_000, 'two uploads');
    const byTitle = new Map(sent().map((json) => [json.metadata.title, json]));
    const local = new Date(2026, 10, 23, 10, 15, 0).toISOString();
    expect(byTitle.get('rec-20261123-101500-0a0b0c0d.mp4')).toMatchObject({
      captured_at: local,
      metadata: { custom: { display: ':7', recorded_at: local, source: 'screen_recording', host: hostname() } },
    });
    expect(byTitle.get('rec-20261123-101505+0100-0a0b0c0d.mp4')).toMatchObject({
      captured_at: '2026-11-23T09:15:05.000Z',
      metadata: { custom: { display: ':7' } },
    });
    const clips = await provider().search({ text: 'anything' });
    expect(clips.map((clip) => clip.recordedAt).sort()).toEqual(['2026-11-23T09:15:05.000Z', local].sort());
  }, 30_000);

  it('a pending entry of an old journal (no time, no display) is sent with both; without a display option, the default', async () => {
    const path = writeTestVideo(join(dir, 'rec-20261123-101510+0000-0a0b0c0d.mp4'), 2);
    await writeFile(
      join(dir, 'upload-journal.jsonl'),
      `${JSON.stringify({ path, key: 'memoir-old-key', state: 'pending', attempts: 1 })}\n`,
    );
    const uploader = createSegmentUploader({ provider: provider(), outputDir: dir });
    open.push(uploader);
    await uploader.start();
    await waitFor(() => uploader.entries()[0]?.state === 'uploaded', 10_000, 'the upload');
    expect(sent()).toMatchObject([
      {
        captured_at: '2026-11-23T10:15:10.000Z',
        metadata: { custom: { display: process.env.DISPLAY ?? ':0' } },
      },
    ]);
    expect(uploader.entries()[0]).toMatchObject({ startedAt: Date.parse('2026-11-23T10:15:10Z') });
  }, 30_000);

  it.skipIf(xToolsMissing)(
    'real segments under Xvfb: closed ones and ones left from an earlier run carry their display and start time',
    async () => {
      const x = await startXvfb();
      try {
        // An earlier run recorded without uploading (the process ended before it could).
        const before = Date.now();
        const earlier = createScreenRecorder({ outputDir: dir, display: x.display, segmentSeconds: 2, privacy: false });
        await earlier.start();
        await sleep(2500);
        await earlier.stop();
        const left = (await readdir(dir)).filter((file) => file.endsWith('.mp4'));
        expect(left.length).toBeGreaterThan(0);
        // The file's name carries its UTC offset, so its time survives the restart exactly.
        expect(left[0]).toMatch(/^rec-\d{8}-\d{6}[+-]\d{4}-[0-9a-f]{8}\.mp4$/);

        const recorder = createScreenRecorder({
          outputDir: dir,
          display: x.display,
          segmentSeconds: 2,
          privacy: false,
        });
        const uploader = createSegmentUploader({ provider: provider(), outputDir: dir });
        open.push(uploader);
        uploader.attach(recorder);
        await uploader.start();
        await recorder.start();
        await sleep(2500);
        await recorder.stop();
        await waitFor(
          () => uploader.entries().length > left.length && uploader.entries().every((e) => e.state === 'uploaded'),
          20_000,
          'every segment uploaded',
        );
        for (const json of sent()) {
          expect(json.metadata.custom.display).toBe(x.display);
          const at = Date.parse(json.captured_at!);
          expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
          expect(at).toBeLessThanOrEqual(Date.now());
        }
        expect(sent().length).toBe(uploader.entries().length);
      } finally {
        await x.close();
      }
    },
    60_000,
  );
});
