import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProviderError } from '../core/spec/errors.js';
import type { FrameExtractionRequest, FrameExtractor, KeyFrame } from '../core/spec/frame-extractor.js';
import { locateFfmpeg } from './ffmpeg-discovery.js';

const COMPONENT = 'ffmpeg-frame-extractor';

/**
 * Options of {@link createFfmpegFrameExtractor}.
 *
 * @group Recorder
 */
export interface FfmpegFrameExtractorOptions {
  /** The ffmpeg binary. Default: `FFMPEG_PATH`, else `ffmpeg` on `PATH`. */
  ffmpegPath?: string;
  /** Longest one extraction may take, ms (also bounds network reads of a URL). Default 60000. */
  timeoutMs?: number;
  /** JPEG quality, 2 (best) to 31. Default 4. */
  quality?: number;
}

/** `pts_time` of each `showinfo` line, in order: the times of the frames written. */
export function showinfoTimes(stderr: string): number[] {
  return [...stderr.matchAll(/Parsed_showinfo.*?pts_time:\s*([\d.]+)/g)].map((match) => Number(match[1]));
}

/** At most `max` frames, evenly spread, the first and the last always kept. */
export function spread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const picked: T[] = [];
  for (let i = 0; i < max; i++) picked.push(items[Math.round((i * (items.length - 1)) / (max - 1))]!);
  return picked;
}

function runFfmpeg(binary: string, args: string[], timeoutMs: number, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: timeoutMs, signal, maxBuffer: 32 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error) {
        reject(
          new ProviderError(
            `ffmpeg could not read frames: ${stderr.split('\n').filter(Boolean).slice(-3).join(' | ') || error.message}`,
            {
              component: COMPONENT,
              cause: error,
              retryable: true,
              suggestion:
                'Check that the clip source can be read (a URL may have expired) and that ffmpeg is installed.',
            },
          ),
        );
      } else resolve(stderr);
    });
  });
}

/**
 * Key frames with ffmpeg: the span's first frame, every frame whose scene-change score passes
 * the threshold (ffmpeg's `select='gt(scene,T)'`), and the span's last frame, spread evenly
 * down to `maxFrames`. Reads local files and http(s) URLs (e.g. a provider's signed clip link).
 *
 * @group Recorder
 */
export function createFfmpegFrameExtractor(options: FfmpegFrameExtractorOptions = {}): FrameExtractor {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const quality = String(options.quality ?? 4);
  let binary = options.ffmpegPath;

  return {
    specificationVersion: 'v1',
    id: 'ffmpeg',
    async extract(request: FrameExtractionRequest): Promise<KeyFrame[]> {
      binary ??= locateFfmpeg();
      const dir = await mkdtemp(join(tmpdir(), 'memoir-frames-'));
      try {
        const network = /^https?:\/\//i.test(request.source) ? ['-rw_timeout', String(timeoutMs * 1000)] : [];
        const startS = request.startMs / 1000;
        const durationS = Math.max(0.001, (request.endMs - request.startMs) / 1000);
        const input = (from: number, length: number) => [
          '-hide_banner',
          '-nostdin',
          ...network,
          '-ss',
          from.toFixed(3),
          '-t',
          length.toFixed(3),
          '-i',
          request.source,
        ];
        const sceneStderr = await runFfmpeg(
          binary,
          [
            ...input(startS, durationS),
            '-vf',
            `select='eq(n\\,0)+gt(scene\\,${request.sceneThreshold})',showinfo`,
            '-fps_mode',
            'vfr',
            '-q:v',
            quality,
            join(dir, 'scene-%04d.jpg'),
          ],
          timeoutMs,
          request.signal,
        );
        // The span's end state matters most (the action's result): take its last frame too.
        const tail = Math.min(durationS, 1.5);
        const lastStderr = await runFfmpeg(
          binary,
          [
            ...input(startS + durationS - tail, tail),
            '-vf',
            'showinfo',
            '-update',
            '1',
            '-q:v',
            quality,
            join(dir, 'last.jpg'),
          ],
          timeoutMs,
          request.signal,
        );
        const files = (await readdir(dir)).filter((file) => file.startsWith('scene-')).sort();
        const times = showinfoTimes(sceneStderr);
        const frames: KeyFrame[] = [];
        for (const [i, file] of files.entries()) {
          frames.push({
            timeMs: Math.round(request.startMs + (times[i] ?? 0) * 1000),
            data: await readFile(join(dir, file)),
            mediaType: 'image/jpeg',
          });
        }
        const lastTime = showinfoTimes(lastStderr).at(-1);
        if (lastTime !== undefined) {
          const timeMs = Math.round(request.startMs + (durationS - tail + lastTime) * 1000);
          if (!frames.some((frame) => Math.abs(frame.timeMs - timeMs) < 1)) {
            frames.push({ timeMs, data: await readFile(join(dir, 'last.jpg')), mediaType: 'image/jpeg' });
          }
        }
        frames.sort((a, b) => a.timeMs - b.timeMs);
        return spread(frames, request.maxFrames);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
