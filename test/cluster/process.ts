/** A child process of the control plane, with its output kept in a log file. */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** A started server process. */
export interface ServerProcess {
  name: string;
  pid: number;
  logFile: string;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<number | string>;
  child: ChildProcess;
}

/** Starts `bin args` with stdout+stderr appended to `logFile` (`env` added to this process's). */
export function startServerProcess(
  name: string,
  bin: string,
  args: string[],
  logFile: string,
  detached = false,
  env: Record<string, string> = {},
): ServerProcess {
  const fd = openSync(logFile, 'a');
  // Detached processes outlive the starter (`make cluster-up`); tests keep them attached.
  const child = spawn(bin, args, {
    stdio: ['ignore', fd, fd],
    detached,
    env: { ...process.env, ...env },
  });
  closeSync(fd);
  if (detached) child.unref();
  if (child.pid === undefined) throw new Error(`cannot start ${name}: no pid`);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return { name, pid: child.pid, logFile, exited, child };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopServerProcess(proc: ServerProcess, graceMs = 5000): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  await proc.exited;
  clearTimeout(timer);
}

/** True when a process with this pid exists (and is not a zombie we reaped). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The last `lines` lines of a log file ('' when it cannot be read). */
export async function readLogTail(file: string, lines: number): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
