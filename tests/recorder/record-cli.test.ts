import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoriesAiServer } from '../helpers/memories-ai-server.js';
import { titled } from '../helpers/system-tools.js';
import { probeVideo } from '../helpers/video-files.js';
import { startXvfb, waitFor, type XDisplay, xToolsMissing } from '../helpers/x-display.js';

const main = resolve(import.meta.dirname, '../../src/cli/main.ts');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Each command is its own process, as a user types them: `stop` reaches the daemon `start` left running.
describe.skipIf(xToolsMissing)(titled('memoir record and procedures from-recording', xToolsMissing), () => {
  let x: XDisplay;
  let home: string;
  let server: MemoriesAiServer;
  const memoir = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      const env: NodeJS.ProcessEnv = {};
      for (const [key, value] of Object.entries(process.env))
        if (!key.startsWith('MEMOIR_') && !key.startsWith('OPENAI_')) env[key] = value;
      Object.assign(env, {
        MEMOIR_HOME: home,
        DISPLAY: x.display,
        MEMORIES_AI_API_KEY: server.apiKey,
        MEMORIES_AI_BASE_URL: server.baseUrl,
      });
      execFile(
        process.execPath,
        ['--import', 'tsx', main, ...args],
        { env, timeout: 60_000 },
        (error, stdout, stderr) => done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  beforeAll(async () => {
    x = await startXvfb();
    server = await new MemoriesAiServer().start();
    server.pollsUntilReady = 0;
    home = await mkdtemp(join(tmpdir(), 'memoir-record-cli-'));
    x.spawn('xterm', ['-geometry', '100x30+0+0', '-e', 'sh', '-c', 'while :; do date +%s%N; sleep 0.1; done']);
  }, 30_000);
  afterAll(async () => {
    // Never leave a daemon behind, even when a step failed.
    await memoir('record', 'stop').catch(() => undefined);
    await x?.close();
    await server?.close();
    await rm(home, { recursive: true, force: true });
  }, 60_000);

  it('starts a daemon, pauses, resumes and stops it from other invocations, and uploads its segments', async () => {
    const started = await memoir('record', 'start', '--segment-seconds', '2');
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/state: recording \(pid \d+\)/);
    expect((await memoir('record', 'start')).stderr).toMatch(/already running/);

    await sleep(3000);
    const status = JSON.parse((await memoir('record', 'status', '--json')).stdout);
    expect(status).toMatchObject({ running: true, state: 'recording', uploading: true });

    expect((await memoir('record', 'pause')).stdout).toMatch(/state: paused/);
    expect((await memoir('record', 'resume')).stdout).toMatch(/state: recording/);
    await sleep(2500);
    const stopped = await memoir('record', 'stop');
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(/state: stopped/);
    expect(JSON.parse((await memoir('record', 'status', '--json')).stdout).running).toBe(false);

    const dir = join(home, 'recordings');
    const files = (await readdir(dir)).filter((file) => file.endsWith('.mp4'));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) expect((await probeVideo(join(dir, file))).frames).toBeGreaterThan(0);
    // Segments closed while the daemon ran were uploaded (the rest go at its next start).
    await waitFor(() => server.videos.size >= 1, 5000, 'uploads');
  }, 120_000);

  it('procedures from-recording prints steps for a query (captions without a vision model) and caches them', async () => {
    const first = await memoir('procedures', 'from-recording', 'what happened in the terminal', '--k', '1');
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/confidence 0\.50\): a screen\n {2}1\) A terminal prints the time\./);
    const again = await memoir('procedures', 'from-recording', 'what happened in the terminal', '--json');
    const parsed = JSON.parse(again.stdout) as { results: Array<{ cached: boolean; steps: string[] }> };
    expect(parsed.results[0]).toMatchObject({ cached: true, steps: ['A terminal prints the time.'] });
  }, 60_000);
});
