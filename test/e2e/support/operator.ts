/**
 * Runs an operator process for e2e tests: `node --import tsx <entry> ...` (default
 * src/main.ts) with `--kubeconfig`, metrics and health on 127.0.0.1 with OS-chosen ports
 * (read back from the operator's own log lines, so there is no port race), waits for
 * `/readyz`, and captures stdout/stderr with pino lines parsed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Options of {@link startOperator}. */
export interface StartOperatorOptions {
  kubeconfig: string;
  /** Extra flags (e.g. `--namespace`, `--api-url`, `--leader-elect`). */
  args?: string[];
  env?: Record<string, string>;
  /** Entry script relative to the repo root or absolute (default src/main.ts). */
  entry?: string;
  /** Wait for /readyz (default true; a standby replica is ready too). */
  waitReady?: boolean;
  /** Startup timeout (default 60 s). */
  timeoutMs?: number;
}

/** A parsed pino log line. */
export interface LogLine {
  level: number;
  msg?: string;
  time?: string;
  [k: string]: unknown;
}

/** A running operator process. */
export interface OperatorProcess {
  pid: number;
  child: ChildProcess;
  metricsPort(): number;
  healthPort(): number;
  /** Parsed pino lines so far (stderr and stdout). */
  logs(): LogLine[];
  /** Raw output so far (stdout + stderr, interleaved as received). */
  output(): string;
  /** GET /metrics text. */
  metrics(): Promise<string>;
  /** GET /readyz status code (0 when unreachable). */
  readyz(): Promise<number>;
  /** SIGTERM and wait for exit; returns the exit code (SIGKILL after `timeoutMs`, default 60 s). */
  stop(timeoutMs?: number): Promise<number | null>;
  /** SIGKILL and wait. */
  kill(): Promise<void>;
  /** Resolves with the exit code when the process exits. */
  exited: Promise<number | null>;
}

/** Reads a metric value (first sample matching the name and label subset); undefined if absent. */
export function metricValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  let total: number | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{([^}]*)\})?\s+(\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const lbls = Object.fromEntries(
      [...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => lbls[k] === v))
      total = (total ?? 0) + Number(m[4]);
  }
  return total;
}

async function httpGet(port: number, path: string): Promise<{ status: number; body: string }> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      signal: AbortSignal.timeout(5000),
    });
    return { status: res.status, body: await res.text() };
  } catch {
    return { status: 0, body: '' };
  }
}

/** Starts an operator process; see the module comment. */
export async function startOperator(opts: StartOperatorOptions): Promise<OperatorProcess> {
  const entry = resolve(ROOT, opts.entry ?? 'src/main.ts');
  const args = [
    '--import',
    'tsx',
    entry,
    '--kubeconfig',
    opts.kubeconfig,
    '--metrics-bind-address',
    '127.0.0.1:0',
    '--health-probe-bind-address',
    '127.0.0.1:0',
    ...(opts.args ?? []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  let raw = '';
  const ports: { metrics?: number; health?: number } = {};
  const onData = (): ((chunk: Buffer) => void) => {
    let buf = '';
    return (chunk) => {
      const text = chunk.toString('utf8');
      raw += text;
      buf += text;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        try {
          const parsed = JSON.parse(line) as LogLine;
          lines.push(parsed);
          if (parsed.server === 'metrics') ports.metrics = parsed.port as number;
          if (parsed.server === 'health') ports.health = parsed.port as number;
        } catch {
          // not a pino line
        }
      }
    };
  };
  child.stdout?.on('data', onData());
  child.stderr?.on('data', onData());
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const proc: OperatorProcess = {
    pid: child.pid ?? 0,
    child,
    exited,
    metricsPort: () => ports.metrics ?? 0,
    healthPort: () => ports.health ?? 0,
    logs: () => lines,
    output: () => raw,
    metrics: async () => (await httpGet(ports.metrics ?? 0, '/metrics')).body,
    readyz: async () => (ports.health ? (await httpGet(ports.health, '/readyz')).status : 0),
    stop: async (timeoutMs = 60_000) => {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (opts.waitReady ?? true) {
    if (child.exitCode !== null)
      throw new Error(`operator exited early with ${child.exitCode}:\n${raw.slice(-4000)}`);
    if ((await proc.readyz()) === 200) break;
    if (Date.now() > deadline) {
      await proc.kill();
      throw new Error(
        `operator not ready after ${opts.timeoutMs ?? 60_000} ms:\n${raw.slice(-4000)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return proc;
}
