import { execFile } from 'node:child_process';
import { rename, rm } from 'node:fs/promises';

/**
 * Keep only the first `keepSeconds` of a segment, in place. Stream copy cuts at packet
 * boundaries, and with x264's ultrafast preset (no B-frames) every kept frame refers only to
 * earlier ones, so the result plays and holds no frame from after the cut. Bounded to 30 s.
 */
export function truncateSegment(ffmpegPath: string, file: string, keepSeconds: number): Promise<void> {
  const temporary = `${file}.cut.mp4`;
  const args = ['-hide_banner', '-v', 'error', '-y', '-i', file, '-t', keepSeconds.toFixed(3), '-c', 'copy'];
  args.push('-movflags', '+faststart', temporary);
  return new Promise((resolve, reject) => {
    execFile(ffmpegPath, args, { timeout: 30_000 }, (error, _stdout, stderr) => {
      if (error) {
        void rm(temporary, { force: true });
        reject(new Error(`ffmpeg could not cut ${file}: ${stderr.trim() || error.message}`));
        return;
      }
      rename(temporary, file).then(resolve, reject);
    });
  });
}
