/**
 * What the always-on recorder costs: CPU per minute of recording at 2 fps, 1280x720, on a
 * changing screen (a terminal printing ten lines a second and a window moved twice a
 * second, under Xvfb), and disk per 5-minute segment — beside ffmpeg alone with the very
 * same arguments, measured in the same run, alternating, so both see the same machine.
 *
 * The recorder's own overhead is what it adds to ffmpeg: this Node process's CPU while it
 * records, once started (segment-list polling, timers, events), plus its xprop privacy
 * watchers. The goal is ≤ 3 % of one core.
 *
 *   npm run bench:recorder                      # 3 runs of 60 s each way
 *   BENCH_SECONDS=30 BENCH_RUNS=5 npm run bench:recorder
 *
 * Runs are shorter than a segment, so disk per 5-minute segment is extrapolated from the
 * bytes per second recorded (said in the output).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { recorderArguments } from '../src/recorder/capture-arguments.js';
import { createScreenRecorder } from '../src/recorder/index.js';
import { startXvfb, xToolsMissing } from '../tests/helpers/x-display.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SEGMENT_SECONDS = 300;

interface Sample {
  /** ffmpeg's own CPU seconds (its -benchmark report). */
  ffmpegCpu: number;
  /** CPU seconds the recorder adds (this process + its xprop children); 0 for ffmpeg alone. */
  ownCpu: number;
  /** Wall seconds recorded. */
  wall: number;
  /** Bytes written. */
  bytes: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const file of await readdir(dir)) if (file.endsWith('.mp4')) total += (await stat(join(dir, file))).size;
  return total;
}

/** CPU seconds of the xprop processes watching `display` (Linux /proc; USER_HZ 100). */
async function xpropCpu(display: string): Promise<number> {
  let total = 0;
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.startsWith('xprop\0') || !cmdline.includes(`\0${display}\0`)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    total += (Number(fields[11]) + Number(fields[12])) / 100;
  }
  return total;
}

async function ffmpegAlone(display: string): Promise<Sample> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-ffmpeg-'));
  const args = recorderArguments(
    { input: 'x11grab', display, fps: 2, resolution: '1280x720', drawMouse: true },
    {
      outputDir: dir,
      segmentList: join(dir, 'list.csv'),
      segmentSeconds: SEGMENT_SECONDS,
      preset: 'ultrafast',
      crf: 28,
      runId: 'bench',
    },
  );
  const child = spawn('ffmpeg', args, { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const started = performance.now();
  await sleep(SECONDS * 1000);
  child.stdin.end('q');
  await new Promise((resolve) => child.once('exit', resolve));
  const wall = (performance.now() - started) / 1000;
  const bench = /bench: utime=([\d.]+)s stime=([\d.]+)s/.exec(stderr);
  const sample = {
    ffmpegCpu: Number(bench?.[1] ?? 0) + Number(bench?.[2] ?? 0),
    ownCpu: 0,
    wall,
    bytes: await directoryBytes(dir),
  };
  await rm(dir, { recursive: true, force: true });
  return sample;
}

async function recorder(display: string): Promise<Sample> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-recorder-'));
  const recording = createScreenRecorder({ outputDir: dir, display, segmentSeconds: SEGMENT_SECONDS });
  const started = performance.now();
  await recording.start();
  // Steady state: what an always-on recorder costs per minute, not its one-time start (ffmpeg discovery, imports).
  const steadyFrom = performance.now();
  const cpuBefore = process.cpuUsage();
  await sleep(SECONDS * 1000);
  const watchers = await xpropCpu(display);
  const own = process.cpuUsage(cpuBefore);
  const steady = (performance.now() - steadyFrom) / 1000;
  await recording.stop();
  const wall = (performance.now() - started) / 1000;
  const sample = {
    ffmpegCpu: recording.stats().ffmpegCpuSeconds,
    // Scaled to the whole run so it adds to ffmpeg's CPU per minute like for like.
    ownCpu: (((own.user + own.system) / 1e6 + watchers) / steady) * wall,
    wall,
    bytes: await directoryBytes(dir),
  };
  await rm(dir, { recursive: true, force: true });
  return sample;
}

function ffmpegVersion(): Promise<string> {
  return new Promise((resolve) =>
    execFile('ffmpeg', ['-version'], (_e, out) => resolve((String(out).split('\n')[0] ?? '?').split(' Copyright')[0]!)),
  );
}

async function main(): Promise<void> {
  if (xToolsMissing) throw new Error(`bench:recorder ${xToolsMissing}`);
  const x = await startXvfb();
  try {
    // The changing screen: a terminal printing ten lines a second, and a second window moved twice a second.
    x.spawn('xterm', ['-geometry', '160x50+0+0', '-e', 'sh', '-c', 'while :; do date +%s%N; sleep 0.1; done']);
    x.spawn('xterm', ['-T', 'mover', '-geometry', '40x10+100+100', '-bg', '#336699']);
    await x.run('xdotool', ['search', '--sync', '--name', '^mover$']);
    const mover = spawn(
      'sh',
      [
        '-c',
        `i=0; while :; do i=$(( (i + 37) % 900 )); xdotool search --name '^mover$' windowmove %@ $i $(( i / 2 )); sleep 0.5; done`,
      ],
      {
        env: { ...process.env, DISPLAY: x.display },
        stdio: 'ignore',
      },
    );
    await sleep(1000);
    const alone: Sample[] = [];
    const withRecorder: Sample[] = [];
    for (let run = 1; run <= RUNS; run++) {
      alone.push(await ffmpegAlone(x.display));
      withRecorder.push(await recorder(x.display));
      process.stderr.write(`run ${run}/${RUNS} done\n`);
    }
    mover.kill();
    const perMinute = (samples: Sample[], pick: (s: Sample) => number) =>
      median(samples.map((s) => (pick(s) / s.wall) * 60));
    const perSegmentMb = (samples: Sample[]) => median(samples.map((s) => (s.bytes / s.wall) * SEGMENT_SECONDS)) / 1e6;
    const aloneCpu = perMinute(alone, (s) => s.ffmpegCpu);
    const recorderFfmpeg = perMinute(withRecorder, (s) => s.ffmpegCpu);
    const own = perMinute(withRecorder, (s) => s.ownCpu);
    const total = perMinute(withRecorder, (s) => s.ffmpegCpu + s.ownCpu);
    console.log(
      `machine: ${cpus()[0]?.model ?? '?'} × ${cpus().length}, ${process.platform} ${process.arch}, Node ${process.version}, ${await ffmpegVersion()}`,
    );
    console.log(
      `${RUNS} runs of ${SECONDS} s each way, alternating; medians. 2 fps, 1280x720, libx264 ultrafast CRF 28.`,
    );
    console.log(`disk per 5-minute segment is extrapolated from bytes per second over ${SECONDS} s runs.\n`);
    console.log('| | CPU s per minute recorded | % of one core | disk per 5-min segment |');
    console.log('|---|---|---|---|');
    console.log(
      `| ffmpeg alone, same arguments | ${aloneCpu.toFixed(2)} | ${((aloneCpu / 60) * 100).toFixed(1)} % | ${perSegmentMb(alone).toFixed(2)} MB |`,
    );
    console.log(
      `| recorder: its ffmpeg | ${recorderFfmpeg.toFixed(2)} | ${((recorderFfmpeg / 60) * 100).toFixed(1)} % | ${perSegmentMb(withRecorder).toFixed(2)} MB |`,
    );
    console.log(
      `| recorder: its own work (Node + xprop watchers) | ${own.toFixed(3)} | ${((own / 60) * 100).toFixed(2)} % | — |`,
    );
    console.log(`| recorder, total | ${total.toFixed(2)} | ${((total / 60) * 100).toFixed(1)} % | — |`);
    console.log(
      `\nrecorder total / ffmpeg alone: ${(total / aloneCpu).toFixed(3)}; own overhead ${((own / 60) * 100).toFixed(2)} % of one core (goal ≤ 3 %).`,
    );
  } finally {
    await x.close();
  }
}

await main();
