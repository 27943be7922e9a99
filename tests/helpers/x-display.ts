import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { missingTools } from './system-tools.js';

/** A headless X server for recorder tests, on a display number nobody else uses. */
export interface XDisplay {
  /** `:N`. */
  display: string;
  /** Run a program on the display; killed by `close()`. */
  spawn(command: string, args: string[]): ChildProcess;
  /** Run a program on the display to completion, bounded to 10 s. */
  run(command: string, args: string[]): Promise<string>;
  /** Play the window manager's part: name `windowId` (0: none) as the active window. */
  setActiveWindow(windowId: number): Promise<void>;
  /** Stop everything started on the display, then the server. */
  close(): Promise<void>;
}

/**
 * Why the recorder tests under Xvfb cannot run here (a program they need is missing), or
 * undefined when they can. `.ci/run` installs them all.
 */
export const xToolsMissing: string | undefined = missingTools('ffmpeg', 'ffprobe', 'Xvfb', 'xprop', 'xdotool', 'xterm');

/** Start Xvfb at 1280x720 on the first free display from 140 on. */
export async function startXvfb(): Promise<XDisplay> {
  let number = 140 + (process.pid % 200);
  while (existsSync(`/tmp/.X${number}-lock`) || existsSync(`/tmp/.X11-unix/X${number}`)) number++;
  const display = `:${number}`;
  // -noreset: without a window manager the server would forget root properties whenever its last client left.
  const server = spawn('Xvfb', [display, '-screen', '0', '1280x720x24', '-nolisten', 'tcp', '-noreset'], {
    stdio: 'ignore',
  });
  const children: ChildProcess[] = [];
  const env = { ...process.env, DISPLAY: display };
  const run = (command: string, args: string[]) =>
    new Promise<string>((resolve, reject) => {
      execFile(command, args, { env, timeout: 10_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    });
  for (let i = 0; i < 100; i++) {
    if (
      await run('xprop', ['-root', '-display', display]).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const x: XDisplay = {
    display,
    run,
    spawn(command, args) {
      const child = spawn(command, args, { env, stdio: 'ignore' });
      children.push(child);
      return child;
    },
    async setActiveWindow(windowId) {
      await run('xprop', ['-root', '-f', '_NET_ACTIVE_WINDOW', '32x', '-set', '_NET_ACTIVE_WINDOW', String(windowId)]);
    },
    async close() {
      for (const child of children) child.kill('SIGKILL');
      server.kill('SIGTERM');
      await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    },
  };
  await x.setActiveWindow(0);
  return x;
}

/** Wait until `check()` is truthy, polling every 50 ms, for at most `ms`. */
export async function waitFor<T>(check: () => T | Promise<T>, ms: number, what: string): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
