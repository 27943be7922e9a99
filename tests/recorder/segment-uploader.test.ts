import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoriesAiProvider } from '../../src/adapters/memories-ai/index.js';
import { createSegmentUploader, type SegmentUploader } from '../../src/recorder/index.js';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';
import { missingTools, titled } from '../helpers/system-tools.js';
import { writeTestVideo } from '../helpers/video-files.js';
import { waitFor } from '../helpers/x-display.js';

const ffmpegMissing = missingTools('ffmpeg');

/** A real segment file, as the recorder names them. */
function segment(dir: string, second: number): string {
  return writeTestVideo(join(dir, `rec-20261123-1015${String(second).padStart(2, '0')}-0a0b0c0d.mp4`), 2);
}

describe.skipIf(ffmpegMissing)(
  titled('segment uploader against the loopback Memories AI server', ffmpegMissing),
  () => {
    let server: MemoriesAiServer;
    let dir: string;
    const open: SegmentUploader[] = [];
    const provider = () =>
      createMemoriesAiProvider({ apiKey: server.apiKey, baseUrl: server.baseUrl, minIntervalMs: 0, timeoutMs: 5000 });
    const make = (extra: Partial<Parameters<typeof createSegmentUploader>[0]> = {}) => {
      const uploader = createSegmentUploader({
        provider: provider(),
        outputDir: dir,
        baseBackoffMs: 10,
        maxRetryAfterMs: 200,
        ...extra,
      });
      open.push(uploader);
      return uploader;
    };

    beforeEach(async () => {
      server = await new MemoriesAiServer().start();
      dir = await mkdtemp(join(tmpdir(), 'memoir-upload-'));
    });
    afterEach(async () => {
      for (const uploader of open.splice(0)) await uploader.close();
      await server.close();
    });

    it('uploads segments found on disk and queued later, once each, and journals them', async () => {
      const first = segment(dir, 0);
      const uploader = make();
      const uploaded: string[] = [];
      uploader.on('uploaded', (event) => uploaded.push(event.path));
      await uploader.start();
      const second = segment(dir, 5);
      await uploader.enqueue(second, Date.parse('2026-11-23T10:15:05Z'));
      await uploader.enqueue(second);
      await waitFor(() => uploaded.length === 2, 10_000, 'two uploads');
      await uploader.idle();
      expect(uploaded.sort()).toEqual([first, second].sort());
      expect(server.videos.size).toBe(2);
      expect(uploader.entries().every((entry) => entry.state === 'uploaded' && entry.videoId)).toBe(true);
      const journal = (await readFile(join(dir, 'upload-journal.jsonl'), 'utf8')).trim().split('\n');
      expect(journal.at(-1)).toContain('"state":"uploaded"');
    });

    it('after a restart in the middle of an upload, uploads it again under the same key: not lost, not indexed twice', async () => {
      const files = [segment(dir, 0), segment(dir, 5)];
      server.uploadAnswerDelayMs = 3000;
      const before = make();
      await before.start();
      // The server has stored the first upload but not answered when the process "dies".
      await waitFor(() => server.videos.size === 1, 10_000, 'the first upload to arrive');
      await before.close();
      expect(before.entries().map((entry) => entry.state)).toEqual(['pending', 'pending']);

      server.uploadAnswerDelayMs = 0;
      const after = make();
      const uploaded: string[] = [];
      after.on('uploaded', (event) => uploaded.push(event.path));
      await after.start();
      await waitFor(() => uploaded.length === 2, 10_000, 'both uploads after the restart');
      expect(server.videos.size).toBe(2);
      const keys = server.requests
        .filter((r) => r.path === '/videos')
        .map((r) => (r.body as { json: { idempotency_key: string } }).json.idempotency_key);
      // The first segment was sent twice with one key; the service kept one video.
      expect(keys.filter((key) => key === keys[0])).toHaveLength(2);
      expect(new Set(after.entries().map((entry) => entry.videoId)).size).toBe(2);
      expect(
        files.every((file) => after.entries().some((entry) => entry.path === file && entry.state === 'uploaded')),
      ).toBe(true);
    });

    it('waits out a run of 429s (Retry-After, capped) and succeeds; each failure is an event', async () => {
      const file = segment(dir, 0);
      for (let i = 0; i < 3; i++) {
        server.fail('POST /videos', {
          status: 429,
          headers: { 'retry-after': '30' },
          body: JSON.stringify({ error: { code: 'rate_limited', retry_after: 30 } }),
        });
      }
      const uploader = make();
      const failures: Array<{ attempt: number; willRetry: boolean }> = [];
      uploader.on('upload:failed', (event) => failures.push({ attempt: event.attempt, willRetry: event.willRetry }));
      const started = Date.now();
      await uploader.start();
      await waitFor(() => uploader.entries()[0]?.state === 'uploaded', 10_000, 'the upload');
      const elapsed = Date.now() - started;
      expect(failures).toEqual([
        { attempt: 1, willRetry: true },
        { attempt: 2, willRetry: true },
        { attempt: 3, willRetry: true },
      ]);
      // Retry-After said 30 s; the cap (200 ms) applied, three times. A timer may fire a
      // millisecond or two early, so each wait is allowed 2 ms less.
      expect(elapsed).toBeGreaterThanOrEqual(3 * (200 - 2));
      expect(elapsed).toBeLessThan(5000);
      expect(uploader.entries()[0]).toMatchObject({ path: file, state: 'uploaded', attempts: 4 });
    });

    it('gives up on an upload past its deadline and tries again', async () => {
      segment(dir, 0);
      server.fail('POST /videos', { status: 202, body: '{}', delayMs: 5000 });
      const uploader = make({ uploadTimeoutMs: 300 });
      const failures: boolean[] = [];
      uploader.on('upload:failed', (event) => failures.push(event.willRetry));
      await uploader.start();
      await waitFor(() => uploader.entries()[0]?.state === 'uploaded', 10_000, 'the second attempt');
      expect(failures).toEqual([true]);
    });

    it('reports a rejected key as an event and journals the failure, without throwing', async () => {
      segment(dir, 0);
      const uploader = createSegmentUploader({
        provider: createMemoriesAiProvider({ apiKey: 'sk-mai-wrong', baseUrl: server.baseUrl, minIntervalMs: 0 }),
        outputDir: dir,
      });
      open.push(uploader);
      const failures: boolean[] = [];
      uploader.on('upload:failed', (event) => failures.push(event.willRetry));
      await uploader.start();
      await waitFor(() => uploader.entries()[0]?.state === 'failed', 10_000, 'the failure');
      expect(failures).toEqual([false]);
    });
  },
);
