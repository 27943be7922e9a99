import { execFile, execFileSync } from 'node:child_process';

function run(command: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${command} ${args.join(' ')}: ${stderr.toString()}`)) : resolve(stdout),
    );
  });
}

/** Decode a video to the end with ffprobe; resolves to its frame count and duration, rejects when it does not play. */
export async function probeVideo(file: string): Promise<{ frames: number; durationSeconds: number }> {
  const out = await run('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=nb_read_frames:format=duration',
    '-of',
    'json',
    file,
  ]);
  const parsed = JSON.parse(out.toString()) as {
    streams: Array<{ nb_read_frames: string }>;
    format: { duration: string };
  };
  return { frames: Number(parsed.streams[0]?.nb_read_frames ?? 0), durationSeconds: Number(parsed.format.duration) };
}

/** Every frame of a video as a tiny RGB image (32x18), for checking colours. */
export async function tinyFrames(file: string): Promise<Buffer[]> {
  const raw = await run('ffmpeg', [
    '-v',
    'error',
    '-i',
    file,
    '-vf',
    'scale=32:18',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-',
  ]);
  const size = 32 * 18 * 3;
  const frames: Buffer[] = [];
  for (let offset = 0; offset + size <= raw.length; offset += size) frames.push(raw.subarray(offset, offset + size));
  return frames;
}

/** Share of a frame's pixels close to magenta (#ff00ff), the background of the test's "KeePass" window. */
export function magentaShare(frame: Buffer): number {
  let hits = 0;
  for (let i = 0; i < frame.length; i += 3) {
    if (frame[i]! > 180 && frame[i + 1]! < 90 && frame[i + 2]! > 180) hits++;
  }
  return hits / (frame.length / 3);
}

/** A real H.264 test video of `seconds` (ffmpeg's test pattern at 2 fps), written to `file`. */
export function writeTestVideo(file: string, seconds: number): string {
  const args = ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=2', '-t', String(seconds)];
  execFileSync('ffmpeg', [...args, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file]);
  return file;
}
