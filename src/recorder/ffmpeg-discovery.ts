import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ConfigError } from '../core/spec/errors.js';
import { type Environment, processEnvironment } from '../core/utils/environment.js';

const COMPONENT = 'recorder';
const INSTALL_HINT =
  'Install ffmpeg from the OS package (Debian/Ubuntu: `apt install ffmpeg`, macOS: `brew install ffmpeg`, Windows: `winget install ffmpeg`), or set FFMPEG_PATH to an ffmpeg binary.';

/** Where ffmpeg was found and which capture inputs it has. */
export interface FfmpegInstallation {
  /** Absolute path of the binary. */
  path: string;
  /** Input devices listed by `ffmpeg -devices` (e.g. `x11grab`, `avfoundation`, `gdigrab`). */
  inputs: ReadonlySet<string>;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable called `name` on `PATH` (with `.exe` on Windows), or undefined. */
export function findOnPath(name: string, env: Environment = processEnvironment()): string | undefined {
  const names = process.platform === 'win32' ? [`${name}.exe`, name] : [name];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const candidate of names.map((each) => join(dir, each))) if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The ffmpeg binary to run: `FFMPEG_PATH` when set (it must exist), else the first `ffmpeg`
 * on `PATH`. Nothing is downloaded: a missing ffmpeg is a ConfigError saying how to install it.
 */
export function locateFfmpeg(env: Environment = processEnvironment(), binary = 'ffmpeg'): string {
  const override = env.FFMPEG_PATH?.trim();
  if (override) {
    if (isExecutable(override)) return override;
    throw new ConfigError(`FFMPEG_PATH is ${override}, which is not an executable file`, {
      component: COMPONENT,
      field: 'FFMPEG_PATH',
      suggestion: INSTALL_HINT,
    });
  }
  const found = findOnPath(binary, env);
  if (found) return found;
  throw new ConfigError(`${binary} was not found on PATH`, {
    component: COMPONENT,
    field: 'ffmpeg',
    suggestion: INSTALL_HINT,
  });
}

/** The input devices in `ffmpeg -devices` output (lines like ` D  x11grab   X11 screen capture`; `DE` both ways). */
export function parseDevices(output: string): Set<string> {
  const inputs = new Set<string>();
  let listing = false;
  for (const line of output.split(/\r?\n/)) {
    // The legend above `--` uses the same letters, so only lines after it are devices.
    if (line.trim() === '--') listing = true;
    const match = listing ? /^ ([D ])([E ]) (\S+)/.exec(line) : null;
    if (match?.[1] === 'D') for (const name of match[3]!.split(',')) inputs.add(name);
  }
  return inputs;
}

/** Run `ffmpeg -hide_banner -devices` (bounded to 10 s) and list its inputs. */
export function listInputs(ffmpegPath: string): Promise<Set<string>> {
  return new Promise((resolve, reject) => {
    execFile(ffmpegPath, ['-hide_banner', '-devices'], { timeout: 10_000 }, (error, stdout) => {
      if (error) {
        reject(
          new ConfigError(`${ffmpegPath} -devices failed: ${error.message}`, {
            component: COMPONENT,
            field: 'ffmpeg',
            suggestion: INSTALL_HINT,
            cause: error,
          }),
        );
      } else resolve(parseDevices(stdout));
    });
  });
}

/** Find ffmpeg and check once that it has `input`; either failing is a ConfigError that says what to do. */
export async function discoverFfmpeg(
  input: string,
  env: Environment = processEnvironment(),
): Promise<FfmpegInstallation> {
  const path = locateFfmpeg(env);
  const inputs = await listInputs(path);
  if (!inputs.has(input)) {
    throw new ConfigError(`${path} has no "${input}" input (it has: ${[...inputs].join(', ') || 'none'})`, {
      component: COMPONENT,
      field: 'input',
      suggestion: `Use an ffmpeg build with ${input} (the OS package has it), or point FFMPEG_PATH at one.`,
    });
  }
  return { path, inputs };
}
