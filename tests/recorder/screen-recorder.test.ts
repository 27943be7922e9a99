import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoriesAiProvider } from '../../src/adapters/memories-ai/index.js';
import { createScreenRecorder, createSegmentUploader, type SegmentInfo } from '../../src/recorder/index.js';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';
import { titled } from '../helpers/system-tools.js';
import { magentaShare, probeVideo, tinyFrames } from '../helpers/video-files.js';
import { startXvfb, waitFor, type XDisplay, xToolsMissing } from '../helpers/x-display.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Real ffmpeg grabbing a real (virtual) X display; short segments keep each test to seconds.
describe.skipIf(xToolsMissing)(titled('screen recorder under Xvfb', xToolsMissing), () => {
  let x: XDisplay;
  let dir: string;

  beforeAll(async () => {
    x = await startXvfb();
    // A changing screen: a terminal printing the time ten times a second.
    x.spawn('xterm', [
      '-geometry',
      '120x40+0+0',
      '-bg',
      '#103060',
      '-fg',
      'white',
      '-e',
      'sh',
      '-c',
      'while :; do date +%s%N; sleep 0.1; done',
    ]);
    await x.run('xdotool', ['search', '--sync', '--class', 'xterm']);
  }, 30_000);
  afterAll(async () => {
    await x?.close();
  }, 30_000);

  it('cuts playable segments, rotates the buffer, pauses, resumes and stops with a playable last segment', async () => {
    dir = await mkdtemp(join(tmpdir(), 'memoir-rec-'));
    const recorder = createScreenRecorder({ outputDir: dir, display: x.display, segmentSeconds: 2, maxSegments: 2 });
    expect(recorder.options).toMatchObject({ fps: 2, resolution: '1280x720', crf: 28, preset: 'ultrafast' });
    const closed: SegmentInfo[] = [];
    const deleted: string[] = [];
    const states: string[] = [];
    recorder.on('segment', (segment) => closed.push(segment));
    recorder.on('segment:deleted', (event) => deleted.push(event.path));
    recorder.on('state', (state) => states.push(state));

    await recorder.start();
    expect(recorder.status()).toBe('recording');
    await waitFor(() => closed.length >= 3, 15_000, 'three closed segments');
    // The oldest segment is removed after the event of the one that pushed it out (the removal
    // is a file deletion of its own): on a loaded machine the event comes first.
    await waitFor(() => deleted.length >= 1, 10_000, 'the oldest segment removed');
    expect(recorder.stats().segments.length).toBeLessThanOrEqual(2);

    await recorder.pause();
    expect(recorder.status()).toBe('paused');
    const afterPause = closed.length;
    await sleep(2500);
    expect(closed.length).toBe(afterPause);

    await recorder.resume();
    expect(recorder.status()).toBe('recording');
    await sleep(1500);
    await recorder.stop();
    expect(recorder.status()).toBe('stopped');
    expect(closed.length).toBeGreaterThan(afterPause);
    expect(states).toEqual(['recording', 'paused', 'recording', 'stopped']);

    const files = (await readdir(dir)).filter((file) => file.endsWith('.mp4'));
    expect(files.length).toBeLessThanOrEqual(2);
    for (const file of files) {
      expect(file).toMatch(/^rec-\d{8}-\d{6}[+-]\d{4}-[0-9a-f]{8}\.mp4$/);
      const probe = await probeVideo(join(dir, file));
      expect(probe.frames).toBeGreaterThan(0);
    }
    // The last segment, finished by `q`, plays.
    const last = closed.at(-1)!;
    expect((await probeVideo(last.path)).frames).toBeGreaterThan(0);
    const stats = recorder.stats();
    expect(stats.ffmpegCpuSeconds).toBeGreaterThan(0);
    expect(stats.segments.every((segment) => segment.bytes > 0)).toBe(true);
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('keeps segments that are not uploaded past the buffer budget, until the hard byte cap forces one out', async () => {
    dir = await mkdtemp(join(tmpdir(), 'memoir-rec-hold-'));
    const server = await new MemoriesAiServer().start();
    // Every upload is refused (a wrong key): nothing is ever uploaded.
    const provider = createMemoriesAiProvider({ apiKey: 'sk-mai-wrong', baseUrl: server.baseUrl, minIntervalMs: 0 });
    const hold = async (limits: { hardMaxBytes?: number }) => {
      const recorder = createScreenRecorder({
        outputDir: dir,
        display: x.display,
        segmentSeconds: 2,
        maxSegments: 1,
        maxBytes: 1,
        ...limits,
      });
      const uploader = createSegmentUploader({ provider, outputDir: dir });
      await uploader.start();
      uploader.attach(recorder);
      const closed: SegmentInfo[] = [];
      const deleted: Array<{ reason: string; uploaded: boolean }> = [];
      recorder.on('segment', (segment) => closed.push(segment));
      recorder.on('segment:deleted', (event) => deleted.push(event));
      await recorder.start();
      await waitFor(() => closed.length >= 3, 15_000, 'three segments');
      await recorder.stop();
      await uploader.close();
      return { deleted, files: (await readdir(dir)).filter((file) => file.endsWith('.mp4')) };
    };
    const first = await hold({});
    expect(first.deleted).toEqual([]);
    expect(first.files.length).toBeGreaterThanOrEqual(3);
    // The earlier segments are found on disk; a cap just above them forces the oldest out.
    let bytes = 0;
    for (const file of first.files) bytes += (await stat(join(dir, file))).size;
    const second = await hold({ hardMaxBytes: bytes + 1 });
    expect(second.deleted.length).toBeGreaterThanOrEqual(1);
    expect(second.deleted.every((event) => event.reason === 'hard-cap' && !event.uploaded)).toBe(true);
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('pauses while a "KeePass" window is active and keeps none of its frames', async () => {
    dir = await mkdtemp(join(tmpdir(), 'memoir-rec-privacy-'));
    const recorder = createScreenRecorder({ outputDir: dir, display: x.display, segmentSeconds: 2, maxSegments: 50 });
    const closed: SegmentInfo[] = [];
    const paused: string[] = [];
    const cuts: Array<{ removedSeconds: number }> = [];
    recorder.on('segment', (segment) => closed.push(segment));
    recorder.on('privacy:paused', (event) => paused.push(event.pattern));
    recorder.on('privacy:cut', (event) => cuts.push(event));
    await recorder.start();
    await sleep(3300);

    // A password manager opens over the whole screen and the test plays the window manager,
    // which focuses a window as it shows it: the window waits off-screen until both happen at once.
    const keepass = x.spawn('xterm', ['-T', 'KeePass', '-geometry', '300x100+3000+3000', '-bg', '#ff00ff']);
    const id = Number((await x.run('xdotool', ['search', '--sync', '--name', '^KeePass$'])).trim().split('\n')[0]);
    await x.run('xdotool', ['windowmove', String(id), '0', '0']);
    await x.setActiveWindow(id);
    await waitFor(() => recorder.status() === 'privacy-paused', 5000, 'the privacy pause');
    expect(paused).toEqual(['KeePass']);
    await sleep(2000);

    keepass.kill('SIGKILL');
    await x.setActiveWindow(0);
    await waitFor(() => recorder.status() === 'recording', 10_000, 'recording again');
    await sleep(2500);
    await recorder.stop();

    expect(cuts.length).toBeGreaterThanOrEqual(1);
    const files = (await readdir(dir)).filter((file) => file.endsWith('.mp4'));
    expect(files.length).toBeGreaterThanOrEqual(2);
    let frames = 0;
    for (const file of files) {
      for (const frame of await tinyFrames(join(dir, file))) {
        frames++;
        expect(magentaShare(frame), `${file} shows the KeePass window`).toBeLessThan(0.01);
      }
    }
    expect(frames).toBeGreaterThan(8);
    const audit = (await readFile(join(dir, 'privacy-audit.log'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(audit.map((line: { event: string }) => line.event)).toEqual(
      expect.arrayContaining(['paused', 'cut', 'resumed']),
    );
    expect(JSON.stringify(audit)).not.toContain('#ff00ff');
    await rm(dir, { recursive: true, force: true });
  }, 60_000);
});
