/**
 * memoir record start | pause | resume | stop | status (the steps drawn from recordings are
 * `memoir procedures from-recording`, cli-commands-from-recording.ts).
 * `start` launches a detached daemon (`memoir record run`) that owns ffmpeg and writes its
 * state to <home>/recorder/state.json; the other subcommands, from any later run, read that
 * file and steer the daemon with signals (SIGUSR1 pause, SIGUSR2 resume, SIGTERM stop).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { childEnvironment } from '../config/setting-registry.js';
import type { CliContext } from './cli-context.js';
import { CliError } from './cli-errors.js';
import { integer, nonEmpty } from './cli-options.js';
import {
  isAlive,
  type RecorderStateFile,
  readRecorderState,
  recorderDir,
  writeRecorderState,
} from './cli-recorder-state.js';

interface RecordFlags {
  fps?: number;
  segmentSeconds?: number;
  maxSegments?: number;
  display?: string;
  exclude?: string[];
  upload?: boolean;
}

const WAIT_MS = 20_000;
const collect = (value: string, previous: string[] = []) => [...previous, value];

function live(context: CliContext): RecorderStateFile | null {
  const state = readRecorderState(context.config.home);
  return state && state.state !== 'stopped' && isAlive(state.pid) ? state : null;
}

async function waitForState(
  context: CliContext,
  accept: (state: RecorderStateFile | null) => boolean,
): Promise<RecorderStateFile | null> {
  const end = Date.now() + WAIT_MS;
  for (;;) {
    const state = readRecorderState(context.config.home);
    if (accept(state)) return state;
    if (Date.now() > end)
      throw new CliError(
        'the recorder did not answer in time',
        `See ${join(recorderDir(context.config.home), 'recorder.log')}.`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function report(context: CliContext, state: RecorderStateFile | null): void {
  const running = state !== null && state.state !== 'stopped' && isAlive(state.pid);
  if (context.json) {
    context.printJson({ running, ...state });
    return;
  }
  if (!state) {
    context.print('The recorder is not running.');
    return;
  }
  context.print(
    [
      `state: ${running ? state.state : 'stopped'}${running ? ` (pid ${state.pid})` : ''}`,
      `segments: ${state.segments} (${(state.bytes / 1048576).toFixed(1)} MB) in ${state.outputDir}`,
      `uploads: ${state.uploading ? `${state.uploaded} uploaded` : 'off (set MEMORIES_AI_API_KEY)'}`,
      `ffmpeg CPU: ${state.cpuSeconds.toFixed(1)} s`,
      ...(state.lastError ? [`last error: ${state.lastError}`] : []),
    ].join('\n'),
  );
}

function signalDaemon(context: CliContext, signal: NodeJS.Signals): RecorderStateFile {
  const state = live(context);
  if (!state) throw new CliError('the recorder is not running', 'Start it with `memoir record start`.');
  process.kill(state.pid, signal);
  return state;
}

/** The daemon: record until SIGTERM, uploading when a Memories AI key is set. */
async function runDaemon(context: CliContext, flags: RecordFlags): Promise<void> {
  const { createScreenRecorder, createSegmentUploader } = await import('../recorder/index.js');
  const home = context.config.home;
  const recorder = createScreenRecorder({
    outputDir: join(home, 'recordings'),
    ...(flags.display ? { display: flags.display } : {}),
    ...(flags.fps ? { fps: flags.fps } : {}),
    ...(flags.segmentSeconds ? { segmentSeconds: flags.segmentSeconds } : {}),
    ...(flags.maxSegments ? { maxSegments: flags.maxSegments } : {}),
    ...(flags.exclude ? { exclude: flags.exclude } : {}),
  });
  const startedAt = new Date().toISOString();
  let uploaded = 0;
  let lastError: string | null = null;
  const uploading = flags.upload !== false && Boolean(context.env.MEMORIES_AI_API_KEY);
  const save = () => {
    const stats = recorder.stats();
    writeRecorderState(home, {
      pid: process.pid,
      state: stats.state,
      outputDir: recorder.options.outputDir,
      startedAt,
      updatedAt: new Date().toISOString(),
      segments: stats.segments.length,
      bytes: stats.totalBytes,
      cpuSeconds: stats.ffmpegCpuSeconds,
      uploaded,
      uploading,
      lastError,
    });
  };
  recorder.on('state', save).on('segment', save).on('segment:deleted', save);
  recorder.on('error', ({ operation, error }) => {
    lastError = `${operation}: ${error.message}`;
    context.logger.log('warn', lastError);
    save();
  });
  const uploader = uploading
    ? createSegmentUploader({
        provider: (await import('../adapters/memories-ai/index.js')).createMemoriesAiProvider(),
        outputDir: recorder.options.outputDir,
        // Segments left on disk by an earlier run are sent at start(), before attach() names the display.
        display: recorder.options.display,
      })
    : undefined;
  if (uploader) {
    await uploader.start();
    uploader.attach(recorder);
    uploader.on('uploaded', () => {
      uploaded++;
      save();
    });
    uploader.on('upload:failed', ({ error, willRetry }) => {
      lastError = `upload: ${error.message}${willRetry ? ' (will retry)' : ''}`;
      save();
    });
  }
  const done = new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  process.on('SIGUSR1', () => void recorder.pause().then(save));
  process.on('SIGUSR2', () => void recorder.resume().then(save));
  try {
    await recorder.start();
  } catch (error) {
    lastError = (error as Error).message;
    save();
    throw error;
  }
  save();
  await done;
  await recorder.stop();
  await uploader?.close();
  save();
}

/** Add `memoir record`. */
export function registerRecordCommands(program: Command, context: CliContext): void {
  const record = program
    .command('record')
    .description(
      'Record the screen in the background into <home>/recordings (ffmpeg from the OS package), uploading segments to Memories AI when MEMORIES_AI_API_KEY is set.',
    );

  const withRecorderOptions = (command: Command) =>
    command
      .option('--fps <n>', 'frames per second (default 2)', integer(1, 60))
      .option('--segment-seconds <n>', 'seconds per segment (default 300)', integer(2, 3600))
      .option('--max-segments <n>', 'segments kept on disk (default 12)', integer(1, 10000))
      .option('--display <display>', 'X11 display (default $DISPLAY)', nonEmpty)
      .option('--exclude <pattern>', 'also pause while a window title or class contains this (repeatable)', collect)
      .option('--no-upload', 'do not upload segments even with MEMORIES_AI_API_KEY set');

  withRecorderOptions(
    record.command('start').description('Start the recorder daemon; returns once it records.'),
  ).action(async (flags: RecordFlags) => {
    const running = live(context);
    if (running)
      throw new CliError(
        `the recorder is already running (pid ${running.pid})`,
        'Stop it first with `memoir record stop`.',
      );
    const dir = recorderDir(context.config.home);
    mkdirSync(dir, { recursive: true });
    const log = openSync(join(dir, 'recorder.log'), 'a');
    const args = ['record', 'run'];
    if (flags.fps) args.push('--fps', String(flags.fps));
    if (flags.segmentSeconds) args.push('--segment-seconds', String(flags.segmentSeconds));
    if (flags.maxSegments) args.push('--max-segments', String(flags.maxSegments));
    if (flags.display) args.push('--display', flags.display);
    for (const pattern of flags.exclude ?? []) args.push('--exclude', pattern);
    if (flags.upload === false) args.push('--no-upload');
    if (context.globals.home) args.unshift('--home', context.globals.home);
    // The same entry this run came from (the bin, the build, or tsx with its loader flags).
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args], {
      detached: true,
      stdio: ['ignore', log, log],
      env: childEnvironment(context.env),
    });
    child.unref();
    const state = await waitForState(
      context,
      (current) =>
        (current !== null && current.pid === child.pid && current.state !== 'idle') || child.exitCode !== null,
    );
    if (child.exitCode !== null) {
      throw new CliError(
        `the recorder exited (code ${child.exitCode})${state?.lastError ? `: ${state.lastError}` : ''}`,
        `See ${join(dir, 'recorder.log')}.`,
      );
    }
    report(context, state);
  });

  withRecorderOptions(
    record.command('run', { hidden: true }).description('Run the recorder in this process (what `start` launches).'),
  ).action((flags: RecordFlags) => runDaemon(context, flags));

  record
    .command('pause')
    .description('Pause recording (the open segment is finished).')
    .action(async () => {
      const before = signalDaemon(context, 'SIGUSR1');
      report(context, await waitForState(context, (s) => s?.pid === before.pid && s.state === 'paused'));
    });

  record
    .command('resume')
    .description('Resume recording (unless an excluded window is active).')
    .action(async () => {
      const before = signalDaemon(context, 'SIGUSR2');
      report(context, await waitForState(context, (s) => s?.pid === before.pid && s.state !== 'paused'));
    });

  record
    .command('stop')
    .description('Stop the recorder; the last segment is finished and kept.')
    .action(async () => {
      const before = signalDaemon(context, 'SIGTERM');
      report(
        context,
        await waitForState(context, (s) => s?.pid === before.pid && s.state === 'stopped' && !isAlive(before.pid)),
      );
    });

  record
    .command('status')
    .description('Show whether the recorder runs, its segments and uploads.')
    .action(() => report(context, readRecorderState(context.config.home)));
}
