import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/spec/errors.js';
import type { VideoProvider } from '../../src/core/spec/video-provider.js';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';
import { missingTools, titled } from '../helpers/system-tools.js';
import { writeTestVideo } from '../helpers/video-files.js';

/** What a provider under contract is built against: a loopback server and options for it. */
export interface VideoProviderHarness {
  /** A provider talking to `server`, with option overrides (e.g. a wrong key, a short deadline). */
  make(
    server: MemoriesAiServer,
    overrides?: { apiKey?: string; timeoutMs?: number; minIntervalMs?: number },
  ): VideoProvider;
}

/** A 3-second test video made by ffmpeg (a real file for real multipart uploads). */
export function makeTestVideo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'memoir-video-'));
  return writeTestVideo(join(dir, 'rec-20261123-101500-abcd1234.mp4'), 3);
}

async function rejection(work: Promise<unknown>): Promise<ProviderError> {
  const error = await work.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(ProviderError.isInstance(error), `expected a ProviderError, got ${String(error)}`).toBe(true);
  return error as ProviderError;
}

/**
 * The VideoProvider contract: every provider runs it against a loopback server speaking its
 * wire format. It checks what goes over the wire (paths, the key header, multipart fields)
 * and what comes back (ids, states, clips in milliseconds, typed errors for 401, 429 with
 * Retry-After, 500 and malformed JSON, and a deadline when the server never answers).
 */
export function videoProviderContract(name: string, harness: VideoProviderHarness): void {
  // The uploads send a real video file, made by ffmpeg.
  const ffmpegMissing = missingTools('ffmpeg');
  describe.skipIf(ffmpegMissing)(titled(`VideoProvider contract: ${name}`, ffmpegMissing), () => {
    let server: MemoriesAiServer;
    let provider: VideoProvider;
    let video: string;

    beforeAll(async () => {
      server = await new MemoriesAiServer().start();
      provider = harness.make(server);
      video = makeTestVideo();
    });
    afterAll(async () => {
      await server.close();
    });

    it('declares v1 and an id', () => {
      expect(provider.specificationVersion).toBe('v1');
      expect(provider.id).toMatch(/\S/);
    });

    it('uploads a file as multipart with the raw key, metadata and an idempotency key', async () => {
      const uploaded = await provider.upload({
        filePath: video,
        metadata: { host: 'test-host', display: ':0' },
        idempotencyKey: 'seg-key-1',
        recordedAt: '2026-11-23T10:15:00.000Z',
      });
      expect(uploaded.videoId).toMatch(/\S/);
      const upload = server.requests.find((request) => request.method === 'POST' && request.path === '/videos')!;
      expect(upload.headers.authorization).toBe(server.apiKey);
      expect(upload.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      const fields = upload.body as {
        json: Record<string, unknown>;
        file: { name: string; type: string; bytes: Buffer };
      };
      expect(fields.json).toMatchObject({
        collection_id: 'col_memoir',
        idempotency_key: 'seg-key-1',
        captured_at: '2026-11-23T10:15:00.000Z',
        metadata: { custom: { host: 'test-host', display: ':0' } },
      });
      expect(fields.file.name).toBe('rec-20261123-101500-abcd1234.mp4');
      expect(fields.file.type).toBe('video/mp4');
      expect(fields.file.bytes.equals(readFileSync(video))).toBe(true);
      // The collection was looked up, then created, once.
      expect(
        server.requests.filter((request) => request.path === '/collections').map((request) => request.method),
      ).toEqual(['GET', 'POST']);
    });

    it('gives the same video for the same idempotency key', async () => {
      const first = await provider.upload({ filePath: video, idempotencyKey: 'seg-key-2' });
      const again = await provider.upload({ filePath: video, idempotencyKey: 'seg-key-2' });
      expect(again.videoId).toBe(first.videoId);
    });

    it('reports indexing until the video is ready', async () => {
      const { videoId } = await provider.upload({ filePath: video, idempotencyKey: 'seg-key-3' });
      expect((await provider.status(videoId)).state).toBe('processing');
      expect((await provider.status(videoId)).state).toBe('ready');
    });

    it('searches with a mode and top-k and answers clips in milliseconds', async () => {
      server.searchResults = [
        { video_id: 'vid_1', score: 0.92, start: 1.5, end: 2.75, snippet: 'clicks New SSH key' },
        { video_id: 'vid_2', score: 0.4, start: 0, end: 3 },
      ];
      const clips = await provider.search({ text: 'add an SSH key', limit: 1, mode: 'hybrid' });
      expect(clips).toEqual([
        { videoId: 'vid_1', startMs: 1500, endMs: 2750, score: 0.92, description: 'clicks New SSH key' },
      ]);
      const search = server.requests.findLast((request) => request.path === '/search')!;
      expect(search.headers['content-type']).toMatch(/application\/json/);
      expect(search.body).toMatchObject({
        query: 'add an SSH key',
        mode: 'hybrid',
        top_k: 1,
        collection_id: 'col_memoir',
      });
      server.searchResults = undefined;
    });

    it('reads a summary, captions and a clip source for a span', async () => {
      const { videoId } = await provider.upload({ filePath: video, idempotencyKey: 'seg-key-4' });
      expect(await provider.summary(videoId, { startMs: 1000, endMs: 2000 })).toContain('1');
      const summary = server.requests.findLast((request) => request.path.endsWith('/summary'))!;
      expect([summary.query.get('start'), summary.query.get('end')]).toEqual(['1', '2']);
      expect(await provider.caption?.(videoId)).toEqual([
        { startMs: 0, endMs: 1500, text: 'A terminal prints the time.' },
      ]);
      const source = await provider.clipSource?.(videoId, { startMs: 0, endMs: 3000 });
      expect(source).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    });

    it('turns 401 into a ProviderError that is not retried and names the key', async () => {
      const wrong = harness.make(server, { apiKey: 'sk-mai-wrong' });
      const error = await rejection(wrong.status('vid_1'));
      expect(error.status).toBe(401);
      expect(error.retryable).toBe(false);
      expect(error.suggestion).toMatch(/MEMORIES_AI_API_KEY/);
    });

    it('turns 429 into a retryable ProviderError carrying Retry-After', async () => {
      server.fail('POST /search', {
        status: 429,
        headers: { 'retry-after': '2' },
        body: JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } }),
      });
      const error = await rejection(provider.search({ text: 'anything' }));
      expect([error.status, error.retryable, error.retryAfterMs]).toEqual([429, true, 2000]);
      server.fail('POST /search', {
        status: 429,
        body: JSON.stringify({ error: { code: 'rate_limited', retry_after: 3 } }),
      });
      expect((await rejection(provider.search({ text: 'anything' }))).retryAfterMs).toBe(3000);
    });

    it('turns 500 into a retryable ProviderError', async () => {
      server.fail('GET /videos/', { status: 500, body: JSON.stringify({ error: { message: 'boom' } }) });
      const error = await rejection(provider.status('vid_1'));
      expect([error.status, error.retryable]).toEqual([500, true]);
      expect(error.message).toContain('boom');
    });

    it('turns malformed JSON into a ProviderError', async () => {
      server.fail('POST /search', { status: 200, body: '{"results": [' });
      const error = await rejection(provider.search({ text: 'anything' }));
      expect(error.message).toMatch(/not a JSON object/);
      server.fail('POST /search', { status: 200, body: JSON.stringify({ results: [{ video_id: 1 }] }) });
      expect((await rejection(provider.search({ text: 'anything' }))).message).toMatch(/unexpected answer/);
    });

    it('gives up on a server that does not answer, at the deadline', async () => {
      const quick = harness.make(server, { timeoutMs: 300 });
      server.fail('GET /videos/', { status: 200, body: '{}', delayMs: 5000 });
      const started = Date.now();
      const error = await rejection(quick.status('vid_1'));
      expect(Date.now() - started).toBeLessThan(2000);
      expect(error.message).toMatch(/no answer within 300 ms/);
    });

    it('spaces requests by the rate limit', async () => {
      const limited = harness.make(server, { minIntervalMs: 400 });
      const before = server.requests.length;
      await Promise.all([limited.status('vid_1'), limited.status('vid_1'), limited.status('vid_1')]);
      const times = server.requests.slice(before).map((request) => request.at);
      expect(times).toHaveLength(3);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(380);
    });
  });
}
