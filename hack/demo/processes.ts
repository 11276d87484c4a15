/**
 * Detached background processes for `make demo`: started with their output appended to a log
 * file, remembered in a JSON state file (pid plus what they were started with), recognised
 * again on the next run only if the pid still runs the same command line, and stopped by pid.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the demo remembers about a process it started. */
export interface ProcessRecord {
  pid: number;
  /** A string the process's command line contains (guards against pid reuse). */
  marker: string;
  [key: string]: unknown;
}

/** True when `pid` runs and its command line contains `marker`. */
export function isRunning(pid: number, marker: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    // No /proc (macOS): trust the pid.
    return true;
  }
}

/** Reads a state file; undefined when missing or unreadable. */
export async function readRecord<T extends ProcessRecord>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Writes a state file. */
export async function writeRecord(file: string, record: ProcessRecord): Promise<void> {
  await writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
}

/** Size of a file (0 when missing): the offset from which a new run's log lines start. */
export function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Starts `node args...` detached from this process, output appended to `logFile`. */
export function startDetached(
  args: string[],
  logFile: string,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { stdio: ['ignore', fd, fd], detached: true, env });
  closeSync(fd);
  child.unref();
  if (child.pid === undefined) throw new Error(`cannot start node ${args.join(' ')}: no pid`);
  return child.pid;
}

/**
 * Polls the log from `offset` until `pattern` matches (returns the match) or the process dies
 * or `timeoutMs` passes (throws, naming the log).
 */
export async function waitForLog(
  logFile: string,
  offset: number,
  pattern: RegExp,
  pid: number,
  timeoutMs: number,
): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const text = (await readFile(logFile, 'utf8').catch(() => '')).slice(offset);
    const m = pattern.exec(text);
    if (m) return m;
    if (!isRunning(pid, ''))
      throw new Error(`cannot start process ${pid}: it exited, see ${logFile}`);
    await sleep(200);
  }
  throw new Error(
    `cannot start process ${pid}: no ${String(pattern)} after ${timeoutMs} ms, see ${logFile}`,
  );
}

/** SIGTERM, then SIGKILL after `graceMs`; removes the state file. */
export async function stopRecorded(
  file: string,
  graceMs: number,
): Promise<ProcessRecord | undefined> {
  const record = await readRecord(file);
  if (record && isRunning(record.pid, record.marker)) {
    process.kill(record.pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (isRunning(record.pid, record.marker) && Date.now() < deadline) await sleep(200);
    if (isRunning(record.pid, record.marker)) process.kill(record.pid, 'SIGKILL');
  }
  await rm(file, { force: true });
  return record;
}

/** GET `url`; the HTTP status, or 0 when nothing answers. */
export async function httpStatus(url: string): Promise<number> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    await res.body?.cancel();
    return res.status;
  } catch {
    return 0;
  }
}
