import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/spec/errors.js';
import { inputArguments, outputArguments, recorderArguments } from '../../src/recorder/capture-arguments.js';
import { parseDevices } from '../../src/recorder/ffmpeg-discovery.js';
import { createScreenRecorder, locateFfmpeg } from '../../src/recorder/index.js';
import { matchPattern, parseRecorderOptions } from '../../src/recorder/recorder-options.js';
import { planEvictions } from '../../src/recorder/rolling-buffer.js';
import { parseSegmentLines } from '../../src/recorder/segment-list.js';
import { parseWindowId, parseWindowProperties } from '../../src/recorder/x11-active-window.js';
import { missingTools, titled } from '../helpers/system-tools.js';

const capture = { display: ':0', fps: 2, resolution: '1280x720', drawMouse: true };
const output = {
  outputDir: '/rec',
  segmentList: '/rec/.segments-ab.csv',
  segmentSeconds: 300,
  preset: 'ultrafast',
  crf: 28,
  runId: 'ab',
};

describe('ffmpeg arguments per platform', () => {
  it('x11grab grabs the display at 2 fps with the pointer, screen spelled out', () => {
    expect(inputArguments({ ...capture, input: 'x11grab' })).toEqual([
      '-f',
      'x11grab',
      '-framerate',
      '2',
      '-draw_mouse',
      '1',
      '-i',
      ':0.0',
    ]);
    expect(inputArguments({ ...capture, input: 'x11grab', display: 'host:1.1' }).at(-1)).toBe('host:1.1');
  });
  it('avfoundation grabs screen <n> without audio, with the cursor', () => {
    expect(inputArguments({ ...capture, input: 'avfoundation', display: '3' })).toEqual([
      '-f',
      'avfoundation',
      '-framerate',
      '2',
      '-capture_cursor',
      '1',
      '-i',
      '3:none',
    ]);
  });
  it('gdigrab grabs the desktop', () => {
    expect(inputArguments({ ...capture, input: 'gdigrab', drawMouse: false })).toEqual([
      '-f',
      'gdigrab',
      '-framerate',
      '2',
      '-draw_mouse',
      '0',
      '-i',
      'desktop',
    ]);
  });
  it('encodes with the seed defaults and cuts segments on forced key frames, listing closed ones', () => {
    const args = outputArguments({ ...capture, input: 'x11grab' }, output);
    const value = (flag: string) => args[args.indexOf(flag) + 1];
    expect(value('-c:v')).toBe('libx264');
    expect(value('-preset')).toBe('ultrafast');
    expect(value('-crf')).toBe('28');
    expect(value('-force_key_frames')).toBe('expr:gte(t,n_forced*300)');
    expect(value('-segment_time')).toBe('300');
    expect(value('-segment_list')).toBe('/rec/.segments-ab.csv');
    expect(value('-segment_list_type')).toBe('csv');
    expect(value('-vf')).toContain('scale=w=1280:h=720:force_original_aspect_ratio=decrease');
    expect(args.at(-1)).toBe('/rec/rec-%Y%m%d-%H%M%S%z-ab.mp4');
    expect(outputArguments({ ...capture, input: 'x11grab' }, { ...output, outputDir: '/100%' }).at(-1)).toBe(
      '/100%%/rec-%Y%m%d-%H%M%S%z-ab.mp4',
    );
    expect(recorderArguments({ ...capture, input: 'x11grab' }, output).slice(0, 5)).toEqual([
      '-hide_banner',
      '-nostats',
      '-loglevel',
      'info',
      '-benchmark',
    ]);
  });
});

describe('recorder options', () => {
  it('has the seed defaults and the seed privacy patterns plus the user’s', () => {
    const options = parseRecorderOptions({ outputDir: '/tmp/x', display: ':5', exclude: ['Bank', /^secret/i] });
    expect(options).toMatchObject({
      fps: 2,
      resolution: '1280x720',
      segmentSeconds: 300,
      maxSegments: 12,
      crf: 28,
      preset: 'ultrafast',
    });
    expect(options.patterns.slice(0, 4)).toEqual(['1Password', 'KeePass', 'Private Browsing', 'Incognito']);
    expect(matchPattern(options.patterns, ['Bank of Example - Login'])).toBe('Bank');
    expect(matchPattern(options.patterns, ['Mozilla Firefox Private Browsing'])).toBe('Private Browsing');
    expect(matchPattern(options.patterns, ['Secret notes'])).toBe('/^secret/i');
    expect(matchPattern(options.patterns, ['Terminal', 'xterm'])).toBeUndefined();
  });
  it('names the bad option', () => {
    expect(() => createScreenRecorder({ resolution: 'big' })).toThrow(/resolution/);
    expect(() => createScreenRecorder({ maxBytes: 10, hardMaxBytes: 5 })).toThrow(/hardMaxBytes/);
  });
  const ffmpegMissing = missingTools('ffmpeg');
  it.skipIf(ffmpegMissing)(
    titled('will not record with privacy exclusions it cannot enforce (no xprop)', ffmpegMissing),
    async () => {
      const saved = { PATH: process.env.PATH, FFMPEG_PATH: process.env.FFMPEG_PATH };
      process.env.FFMPEG_PATH = locateFfmpeg();
      process.env.PATH = '/nonexistent';
      try {
        const recorder = createScreenRecorder({ outputDir: '/tmp/memoir-no-xprop', display: ':1', input: 'x11grab' });
        const error = await recorder.start().catch((caught: unknown) => caught);
        expect(ConfigError.isInstance(error)).toBe(true);
        expect((error as ConfigError).suggestion).toMatch(/x11-utils|privacy: false/);
        expect(recorder.status()).toBe('idle');
      } finally {
        process.env.PATH = saved.PATH;
        if (saved.FFMPEG_PATH === undefined) delete process.env.FFMPEG_PATH;
        else process.env.FFMPEG_PATH = saved.FFMPEG_PATH;
      }
    },
  );

  it('reports a missing ffmpeg clearly', () => {
    const error = (() => {
      try {
        return locateFfmpeg({ PATH: '/nonexistent' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).suggestion).toMatch(/apt install ffmpeg/);
    expect(() => locateFfmpeg({ FFMPEG_PATH: '/no/ffmpeg' })).toThrow(/FFMPEG_PATH/);
  });
});

describe('parsers', () => {
  it('reads the inputs of ffmpeg -devices', () => {
    const out = [
      'Devices:',
      ' D. = Demuxing supported',
      ' .E = Muxing supported',
      ' --',
      ' DE alsa            ALSA',
      '  E sdl,sdl2        SDL2',
      ' D  x11grab         X11 screen capture, using XCB',
      ' DE video4linux2,v4l2 V4L2',
    ].join('\n');
    expect([...parseDevices(out)].sort()).toEqual(['alsa', 'v4l2', 'video4linux2', 'x11grab']);
  });
  it('reads the closed segments of the CSV list, quoted names included', () => {
    expect(parseSegmentLines('a.mp4,0.000000,2.000000\n"b,c.mp4",2.0,4.5\npartial')).toEqual([
      { file: 'a.mp4', startSeconds: 0, endSeconds: 2 },
      { file: 'b,c.mp4', startSeconds: 2, endSeconds: 4.5 },
    ]);
  });
  it('reads xprop lines from a window manager and from a bare property', () => {
    expect(parseWindowId('_NET_ACTIVE_WINDOW(WINDOW): window id # 0x80000c')).toBe(0x80000c);
    expect(parseWindowId('_NET_ACTIVE_WINDOW(CARDINAL) = 2097164')).toBe(2097164);
    expect(parseWindowId('_NET_ACTIVE_WINDOW:  no such atom on any window.')).toBeUndefined();
    expect(
      parseWindowProperties(
        '_NET_WM_NAME:  not found.\nWM_NAME(STRING) = "KeePass"\nWM_CLASS(STRING) = "xterm", "XTerm"',
      ),
    ).toEqual({
      title: 'KeePass',
      classes: ['xterm', 'XTerm'],
    });
  });
});

describe('rolling buffer', () => {
  const seg = (name: string, bytes: number, uploaded: boolean) => ({ path: name, bytes, uploaded });
  it('deletes the oldest uploaded segments past the count and byte budgets', () => {
    const plan = planEvictions([seg('a', 10, true), seg('b', 10, true), seg('c', 10, true)], {
      maxSegments: 2,
      maxBytes: 100,
      hardMaxBytes: 1000,
    });
    expect(plan).toEqual([{ segment: seg('a', 10, true), reason: 'rotation' }]);
    expect(
      planEvictions([seg('a', 60, true), seg('b', 60, true)], { maxSegments: 9, maxBytes: 100, hardMaxBytes: 1000 }),
    ).toHaveLength(1);
  });
  it('keeps segments not yet uploaded, unless the hard cap forces it', () => {
    const waiting = [seg('a', 10, false), seg('b', 10, true), seg('c', 10, false)];
    expect(planEvictions(waiting, { maxSegments: 1, maxBytes: 100, hardMaxBytes: 1000 })).toEqual([
      { segment: seg('b', 10, true), reason: 'rotation' },
    ]);
    expect(
      planEvictions(waiting, { maxSegments: 1, maxBytes: 5, hardMaxBytes: 15 }).map((e) => [e.segment.path, e.reason]),
    ).toEqual([
      ['b', 'rotation'],
      ['a', 'hard-cap'],
    ]);
  });
});
