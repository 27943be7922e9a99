import { type ChildProcess, execFile, spawn } from 'node:child_process';

/** The window that has the focus, as X11 describes it. */
export interface ActiveWindow {
  /** X11 window id; 0 when no window is active. */
  id: number;
  /** Its title (`_NET_WM_NAME`, else `WM_NAME`). */
  title: string;
  /** Its `WM_CLASS` instance and class names. */
  classes: string[];
  /** When the change was seen, epoch ms. */
  seenAt: number;
}

const RESTART_MS = 1000;

/** The window id in an xprop line: `window id # 0x80000c` from a window manager, or a bare number. */
export function parseWindowId(line: string): number | undefined {
  const match = /(0x[0-9a-f]+|\d+)\s*(?:,.*)?$/i.exec(line.trim());
  if (!match?.[1] || !line.includes('_NET_ACTIVE_WINDOW')) return undefined;
  return Number(match[1]);
}

/** Title and classes from `xprop -id <w> _NET_WM_NAME WM_NAME WM_CLASS` output. */
export function parseWindowProperties(output: string): { title: string; classes: string[] } {
  let title = '';
  let classes: string[] = [];
  for (const line of output.split('\n')) {
    const quoted = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
    if (line.startsWith('_NET_WM_NAME') && quoted[0] !== undefined) title = quoted[0];
    else if (line.startsWith('WM_NAME') && quoted[0] !== undefined && !title) title = quoted[0];
    else if (line.startsWith('WM_CLASS')) classes = quoted;
  }
  return { title, classes };
}

/**
 * Follows the active window of an X11 display without polling: `xprop -spy -root
 * _NET_ACTIVE_WINDOW` prints a line per focus change (the window manager keeps that property),
 * and a second spy on the focused window follows its title (a browser switching to a private
 * tab changes the title, not the focus). Each change is reported with the time it was seen.
 */
export class X11ActiveWindowWatcher {
  private rootSpy: ChildProcess | undefined;
  private windowSpy: ChildProcess | undefined;
  private current = 0;
  private running = false;
  private restartTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly display: string,
    private readonly onChange: (window: ActiveWindow) => void,
    private readonly onProblem: (message: string) => void,
  ) {}

  /** Start watching; the first report comes once xprop prints the current value. */
  start(): void {
    this.running = true;
    this.spawnRootSpy();
  }

  /** Stop both spies. */
  stop(): void {
    this.running = false;
    clearTimeout(this.restartTimer);
    this.rootSpy?.kill();
    this.windowSpy?.kill();
    this.rootSpy = undefined;
    this.windowSpy = undefined;
  }

  /** Ask X once for the active window, bounded to 3 s. */
  async query(): Promise<ActiveWindow> {
    const out = await this.xprop(['-root', '_NET_ACTIVE_WINDOW']).catch(() => '');
    const id = parseWindowId(out.split('\n')[0] ?? '') ?? 0;
    return this.describe(id, Date.now());
  }

  private xprop(args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile('xprop', ['-display', this.display, ...args], { timeout: 3000 }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      );
    });
  }

  private async describe(id: number, seenAt: number): Promise<ActiveWindow> {
    if (id === 0) return { id, title: '', classes: [], seenAt };
    const out = await this.xprop(['-id', `0x${id.toString(16)}`, '_NET_WM_NAME', 'WM_NAME', 'WM_CLASS']).catch(
      () => '',
    );
    return { id, ...parseWindowProperties(out), seenAt };
  }

  private lines(child: ChildProcess, onLine: (line: string, seenAt: number) => void): void {
    let partial = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      const seenAt = Date.now();
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line, seenAt);
    });
  }

  private spawnRootSpy(): void {
    const child = spawn('xprop', ['-display', this.display, '-spy', '-root', '_NET_ACTIVE_WINDOW'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    this.rootSpy = child;
    this.lines(child, (line, seenAt) => {
      const id = parseWindowId(line);
      if (id === undefined) return;
      this.current = id;
      this.followTitle(id);
      void this.describe(id, seenAt).then((window) => {
        if (this.running && this.current === id) this.onChange(window);
      });
    });
    const restart = (why: string) => {
      if (!this.running || this.rootSpy !== child) return;
      this.onProblem(`xprop stopped watching the active window (${why}); restarting it`);
      this.restartTimer = setTimeout(() => this.running && this.spawnRootSpy(), RESTART_MS);
    };
    child.once('error', (error) => restart(error.message));
    child.once('exit', (code) => restart(`exit code ${code}`));
  }

  private followTitle(id: number): void {
    this.windowSpy?.kill();
    this.windowSpy = undefined;
    if (id === 0) return;
    const child = spawn(
      'xprop',
      ['-display', this.display, '-spy', '-id', `0x${id.toString(16)}`, '_NET_WM_NAME', 'WM_NAME'],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    child.once('error', () => undefined);
    this.windowSpy = child;
    let first = true;
    this.lines(child, (_line, seenAt) => {
      // The spy's first lines are the current title, already reported with the focus change.
      if (first) {
        first = false;
        return;
      }
      void this.describe(id, seenAt).then((window) => {
        if (this.running && this.current === id) this.onChange(window);
      });
    });
  }
}
