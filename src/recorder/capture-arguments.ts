import { join } from 'node:path';
import { segmentNamePattern } from './segment-name.js';

/**
 * The screen-capture inputs memoir knows how to drive.
 *
 * @group Recorder
 */
export type CaptureInput = 'x11grab' | 'avfoundation' | 'gdigrab';

/** What the argument builders need. */
export interface CaptureSettings {
  /** Which input to use. */
  input: CaptureInput;
  /** X11 display (`:0`, `:0.0`, `host:1`) for x11grab; screen index for avfoundation; ignored by gdigrab. */
  display: string;
  /** Frames per second. */
  fps: number;
  /** Output size `WIDTHxHEIGHT`; the screen is scaled to fit inside it, aspect kept. */
  resolution: string;
  /** Draw the mouse pointer. */
  drawMouse: boolean;
}

/** What the encoder and segment muxer need. */
export interface OutputSettings {
  /** Directory of the segments. */
  outputDir: string;
  /** Path of the CSV list ffmpeg appends a line to when a segment is closed. */
  segmentList: string;
  /** Seconds per segment. */
  segmentSeconds: number;
  /** x264 preset. */
  preset: string;
  /** x264 constant rate factor (higher: smaller, worse). */
  crf: number;
  /** Distinguishes this ffmpeg run's files from another's started in the same second. */
  runId: string;
}

/** The input part of the command line for one platform's screen grabber. */
export function inputArguments(settings: CaptureSettings): string[] {
  const fps = String(settings.fps);
  switch (settings.input) {
    case 'x11grab': {
      // `:0` means screen 0 of display 0; x11grab wants the screen spelled out.
      const display = /\.\d+$/.test(settings.display) ? settings.display : `${settings.display}.0`;
      return ['-f', 'x11grab', '-framerate', fps, '-draw_mouse', settings.drawMouse ? '1' : '0', '-i', display];
    }
    case 'avfoundation':
      // `<screen>:none`: video from the screen device, no audio.
      return [
        '-f',
        'avfoundation',
        '-framerate',
        fps,
        '-capture_cursor',
        settings.drawMouse ? '1' : '0',
        '-i',
        `${settings.display}:none`,
      ];
    case 'gdigrab':
      return ['-f', 'gdigrab', '-framerate', fps, '-draw_mouse', settings.drawMouse ? '1' : '0', '-i', 'desktop'];
  }
}

/** `1280x720` → scale filter that fits the screen inside it, keeping the aspect and even sizes (x264 needs them). */
export function scaleFilter(resolution: string): string {
  const [width, height] = resolution.split('x');
  return `scale=w=${width}:h=${height}:force_original_aspect_ratio=decrease:force_divisible_by=2`;
}

/** The name pattern of segments: wall-clock time of the file's opening (with its UTC offset where %z gives one), then the run id. */
export function segmentPattern(outputDir: string, runId: string, input: CaptureInput = 'x11grab'): string {
  // With -strftime every `%` is a conversion, so a literal one in the directory is doubled.
  return join(outputDir.replaceAll('%', '%%'), segmentNamePattern(runId, input !== 'gdigrab'));
}

/** Encoder and segment-muxer arguments shared by every input. */
export function outputArguments(settings: CaptureSettings, output: OutputSettings): string[] {
  const seconds = String(output.segmentSeconds);
  return [
    '-vf',
    scaleFilter(settings.resolution),
    '-c:v',
    'libx264',
    '-preset',
    output.preset,
    '-crf',
    String(output.crf),
    '-pix_fmt',
    'yuv420p',
    // The segment muxer may only cut on a key frame; x264's default GOP (250 frames = 2 min at
    // 2 fps) would make segments far longer than asked, so force one at each boundary.
    '-force_key_frames',
    `expr:gte(t,n_forced*${seconds})`,
    '-f',
    'segment',
    '-segment_time',
    seconds,
    '-reset_timestamps',
    '1',
    '-strftime',
    '1',
    // A line is appended only once a segment is closed: the signal that a file is final.
    '-segment_list',
    output.segmentList,
    '-segment_list_type',
    'csv',
    '-segment_format',
    'mp4',
    '-segment_format_options',
    'movflags=+faststart',
    segmentPattern(output.outputDir, output.runId, settings.input),
  ];
}

/**
 * The whole ffmpeg command line (without the binary). `-benchmark` makes ffmpeg print its
 * own CPU time when it exits, which `stats()` reports; `-nostats` keeps stderr to the lines
 * we read (the input's start time, errors, the benchmark).
 */
export function recorderArguments(settings: CaptureSettings, output: OutputSettings): string[] {
  return [
    '-hide_banner',
    '-nostats',
    '-loglevel',
    'info',
    '-benchmark',
    ...inputArguments(settings),
    ...outputArguments(settings, output),
  ];
}
