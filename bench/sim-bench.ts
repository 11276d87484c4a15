/**
 * cdn-sim throughput on loopback: starts `cdn-sim` as its own process (one Node thread, so one
 * core for the server), seeds pull zones, an app and shield zones, then drives a mixed
 * read/write workload from N keep-alive clients for a fixed time and prints requests/second.
 *
 *   node --import tsx bench/sim-bench.ts [--seconds 10] [--clients 32]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KEY = 'bench-key';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '32' },
  },
});
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);

interface Op {
  weight: number;
  method: string;
  path: () => string;
  body?: () => unknown;
}

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });

function send(
  base: string,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = { AccessKey: KEY };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    const req = request(`${base}${urlPath}`, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** CPU seconds (user + system) used so far by a process, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function startSim(): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/simulator/cli.ts',
      '--api-key',
      KEY,
      '--admin-token',
      'bench',
      '--log-level',
      'warn',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^cdn-sim listening on (\S+)$/.exec(line);
      if (m) resolve({ url: m[1]!, pid: child.pid!, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`cdn-sim exited ${String(code)}`)));
  });
}

async function seed(base: string): Promise<{ zones: number[]; appId: string }> {
  const zones: number[] = [];
  for (let i = 0; i < 50; i++) {
    const res = await send(base, 'POST', '/pullzone', {
      Name: `bench-${i}`,
      OriginUrl: 'https://origin.example',
    });
    zones.push((JSON.parse(res.text) as { Id: number }).Id);
  }
  for (const pullZoneId of zones.slice(0, 10))
    await send(base, 'POST', '/shield/shield-zone', { pullZoneId });
  const app = await send(base, 'POST', '/mc/apps', {
    name: 'bench-app',
    autoScaling: { min: 1, max: 2 },
    regionSettings: { allowedRegionIds: ['DE'] },
    containerTemplates: [
      {
        name: 'web',
        imageName: 'nginx',
        imageNamespace: 'library',
        imageTag: '1',
        imageRegistryId: 'r',
        endpoints: [{ displayName: 'http' }],
      },
    ],
  });
  return { zones, appId: (JSON.parse(app.text) as { id: string }).id };
}

function pick<T>(list: readonly T[]): T {
  return list[Math.floor(Math.random() * list.length)]!;
}

function workload(zones: number[], appId: string): Op[] {
  const zone = (): number => pick(zones);
  return [
    { weight: 45, method: 'GET', path: () => `/pullzone/${zone()}` },
    {
      weight: 15,
      method: 'POST',
      path: () => `/pullzone/${zone()}`,
      body: () => ({
        OptimizerImageQuality: 1 + Math.floor(Math.random() * 100),
        EnableLogging: null,
      }),
    },
    { weight: 10, method: 'GET', path: () => `/mc/apps/${appId}` },
    {
      weight: 10,
      method: 'GET',
      path: () => `/shield/shield-zone/get-by-pullzone/${pick(zones.slice(0, 10))}`,
    },
    {
      weight: 5,
      method: 'POST',
      path: () => `/pullzone/${zone()}/addBlockedReferrer`,
      body: () => ({ Hostname: `r${Math.floor(Math.random() * 5)}.example` }),
    },
    {
      weight: 5,
      method: 'POST',
      path: () => `/pullzone/${zone()}/removeBlockedReferrer`,
      body: () => ({ Hostname: `r${Math.floor(Math.random() * 5)}.example` }),
    },
    { weight: 5, method: 'GET', path: () => '/apikey' },
    { weight: 5, method: 'GET', path: () => '/shield/shield-zones?perPage=10' },
  ];
}

function chooser(ops: Op[]): () => Op {
  const total = ops.reduce((s, o) => s + o.weight, 0);
  return () => {
    let r = Math.random() * total;
    for (const op of ops) {
      r -= op.weight;
      if (r < 0) return op;
    }
    return ops[0]!;
  };
}

async function runClient(
  base: string,
  next: () => Op,
  until: number,
  counts: Map<number, number>,
): Promise<void> {
  while (Date.now() < until) {
    const op = next();
    const res = await send(base, op.method, op.path(), op.body?.());
    counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
  }
}

async function main(): Promise<void> {
  const sim = await startSim();
  try {
    const { zones, appId } = await seed(sim.url);
    const next = chooser(workload(zones, appId));
    // Warm-up so JIT and keep-alive sockets are in place before measuring.
    const warm = new Map<number, number>();
    await Promise.all(
      Array.from({ length: CLIENTS }, () => runClient(sim.url, next, Date.now() + 1000, warm)),
    );
    const counts = new Map<number, number>();
    const cpuBefore = cpuSeconds(sim.pid);
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, () =>
        runClient(sim.url, next, started + SECONDS * 1000, counts),
      ),
    );
    const elapsed = (Date.now() - started) / 1000;
    const cpu = cpuSeconds(sim.pid) - cpuBefore;
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const byStatus = Object.fromEntries([...counts].sort((a, b) => a[0] - b[0]));
    process.stdout.write(
      `cdn-sim mixed workload: ${total} requests in ${elapsed.toFixed(1)} s with ${CLIENTS} keep-alive clients\n`,
    );
    process.stdout.write(`status counts: ${JSON.stringify(byStatus)}\n`);
    process.stdout.write(`throughput: ${Math.round(total / elapsed)} req/s (wall clock)\n`);
    // The server is one Node thread; on a shared machine it may get less than a core, so also
    // report requests per CPU-second the server actually used (= req/s on one fully used core).
    process.stdout.write(
      `server CPU: ${cpu.toFixed(2)} s (${Math.round((100 * cpu) / elapsed)}% of one core); ` +
        `per core: ${Math.round(total / cpu)} req/s\n`,
    );
  } finally {
    sim.stop();
    agent.destroy();
  }
}

await main();
