import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

// Who wrote an intent (a transaction's undo log, a staged change's plan), so another process
// can tell whether it is still being carried out or was left by a process that died.
//
// A process id means something only where it was issued: on the same machine, since the same
// boot, in the same pid namespace (containers). `machine` names exactly that on Linux
// (hostname, boot id, pid namespace); there a writer is gone as soon as its pid is, whatever
// the storage (a directory or a bucket two machines share). Elsewhere (macOS, Windows) the
// hostname alone names it, trusted only for a local directory; a writer that cannot be
// checked is gone once it has been silent for the grace given by the caller.

/** The writer of an intent, as stored beside it. */
export interface IntentWriter {
  /** Process id. */
  pid: number;
  /** Where `pid` means something (see the comment at the top of this file). */
  machine: string;
  /** Whether `machine` pins the pid down on its own (Linux boot id and pid namespace known). */
  exact: boolean;
  /** The process's start time in clock ticks since boot (Linux), so a reused pid is not taken for it; '' elsewhere. */
  started: string;
  /** Epoch ms of the writer's last write to the intent. */
  at: number;
}

function readOr(read: () => string, fallback: string): string {
  try {
    return read().trim();
  } catch {
    return fallback;
  }
}

const bootId = readOr(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'), '');
const pidNamespace = readOr(() => readlinkSync('/proc/self/ns/pid'), '');
const exactHere = bootId !== '' && pidNamespace !== '';
const machineHere = exactHere ? `${hostname()}|${bootId}|${pidNamespace}` : hostname();

/** Field 22 of /proc/<pid>/stat (start time), read past the command name, which may hold spaces. */
function startTime(pid: number | 'self'): string {
  const stat = readOr(() => readFileSync(`/proc/${pid}/stat`, 'utf8'), '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? '';
}
const startedHere = exactHere ? startTime('self') : '';

/** This process, writing now. */
export function currentWriter(): IntentWriter {
  return { pid: process.pid, machine: machineHere, exact: exactHere, started: startedHere, at: Date.now() };
}

/** Whether `writer` is this very process. */
export function isThisProcess(writer: Pick<IntentWriter, 'pid' | 'machine'>): boolean {
  return writer.pid === process.pid && writer.machine === machineHere;
}

function isAlive(pid: number, started: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, it just is not ours to signal.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // The pid is taken: by the writer, unless it started at another time (a reused pid).
  return started === '' || startTime(pid) === started;
}

/**
 * Whether another process's intent can no longer be carried out by its writer: its pid is
 * gone from this machine (when the pid can be checked here), or it has been silent for
 * `graceMs`. This process's own intents are never "gone" (the caller tracks those).
 */
export function writerGone(writer: IntentWriter, options: { local: boolean; graceMs: number }): boolean {
  if (isThisProcess(writer)) return false;
  // A writer recorded by hostname alone (another OS, or a plan from an older memoir) is checked by
  // its pid only on a local directory, where the same hostname is this machine.
  const checkable =
    (writer.machine === machineHere && (writer.exact || options.local)) ||
    (!writer.exact && options.local && writer.machine === hostname());
  if (checkable) return !isAlive(writer.pid, writer.exact ? writer.started : '');
  return Date.now() - writer.at > options.graceMs;
}

/** Parse a stored writer; null when it is not one. */
export function parseWriter(value: unknown): IntentWriter | null {
  const writer = value as Partial<IntentWriter> | null;
  if (!writer || typeof writer.pid !== 'number' || typeof writer.machine !== 'string') return null;
  return {
    pid: writer.pid,
    machine: writer.machine,
    exact: writer.exact === true,
    started: typeof writer.started === 'string' ? writer.started : '',
    at: Number(writer.at) || 0,
  };
}
