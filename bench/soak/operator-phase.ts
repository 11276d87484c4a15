/**
 * Soak phase 2: the built `cdn-operator` (dist/main.js) against a real kube-apiserver
 * (test/cluster/control-plane.ts via BenchEnv) through watch-fault-proxy.ts, which breaks
 * every watch stream the operator opens, for `seconds`, while a driver keeps changing the
 * origin URL of PullZoneConfigs. cdn-sim's state is sampled every second.
 *
 * Definitions used by the checks:
 * - a *change* is one merge patch of `spec.settings.originUrl` to a new value (sequence n);
 * - a change is *held* when the driver did not change that object again for at least the
 *   operator's poll interval afterwards (the next change came later, or never); every held
 *   change must be seen on the platform (in a 1 s sample of cdn-sim's state) before the next
 *   change of that object, or before the end of the settle time for the last one;
 * - changes superseded sooner may legitimately be skipped (the operator reconciles the newest
 *   spec); they are counted, not required;
 * - at the end every platform zone must carry its object's final spec, and the operator must
 *   be the same process (same pid, never exited) that started.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BenchEnv } from '../lib/env.js';
import { createAll, objectName, patchSpec, pullZoneManifest } from '../lib/objects.js';
import { groupProm, parseProm, sumProm } from '../lib/prom.js';
import { quantile, sleep } from '../lib/stats.js';
import { waitAllReady } from '../chaos/common.js';
import { startWatchFaultProxy, type WatchProxyStats } from './watch-fault-proxy.js';

const USER = 'cdn-operator-soak';
const NS = 'soak';

/** Parameters of the phase. */
export interface OperatorPhaseParams {
  /** How long faults are injected while the driver changes specs. */
  seconds: number;
  objects: number;
  /** The operator's `--poll-interval`; also the hold time that makes a change required. */
  pollIntervalSeconds: number;
  /** The operator's `--watch-stall-timeout` (the proxy's stalls end when it fires). */
  stallTimeoutSeconds: number;
  /** Time allowed after the last change for the platform to match every final spec. */
  settleTimeoutMs: number;
}

/** One spec change the driver made. */
interface Change {
  name: string;
  seq: number;
  at: number;
  /** When the next change of the same object was made (undefined: the last one). */
  supersededAt?: number;
  /** First time the platform showed it. */
  seenAt?: number;
}

/** A named check. */
export interface PhaseCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/** What the phase measured. */
export interface OperatorPhaseResult {
  params: OperatorPhaseParams;
  durationSeconds: number;
  operator: { pid: number; samePid: boolean; exited: boolean; restarts: number };
  proxy: WatchProxyStats;
  watchRestartsByReason: Record<string, number>;
  watchRestartsPerMinute: number;
  changes: {
    total: number;
    held: number;
    heldSeen: number;
    heldMissed: Array<{ name: string; seq: number }>;
    superseded: number;
    supersededSeen: number;
    latencyMs: { p50: number; p95: number; max: number };
  };
  settleMs: number;
  finalMismatches: string[];
  operatorRssBytes: { start: number; end: number };
  checks: PhaseCheck[];
}

const originOf = (name: string, seq: number): string => `https://o${seq}-${name}.example.com`;
const seqOf = (url: string): number | undefined => {
  const m = /^https:\/\/o(\d+)-/.exec(url);
  return m ? Number(m[1]) : undefined;
};

interface SimZones {
  pullZones: Array<{ record: { Name?: string; OriginUrl?: string } }>;
}

/** Runs the phase; everything it starts is stopped before it resolves. */
export async function runOperatorPhase(p: OperatorPhaseParams): Promise<OperatorPhaseResult> {
  const env = await BenchEnv.start({ operatorUsers: [USER] });
  try {
    return await runIn(env, p);
  } finally {
    await env.stop();
  }
}

async function proxiedKubeconfig(
  env: BenchEnv,
): Promise<{ path: string; close(): Promise<void>; stats: WatchProxyStats; disarm(): void }> {
  const proxy = await startWatchFaultProxy({
    upstream: env.cp.server,
    ca: await readFile(env.cp.pki.caCert),
    cert: await readFile(join(env.dir, `${USER}.crt`)),
    key: await readFile(join(env.dir, `${USER}.key`)),
  });
  const path = join(env.dir, 'proxied.kubeconfig');
  await writeFile(
    path,
    `apiVersion: v1
kind: Config
clusters:
- name: proxy
  cluster: {server: ${proxy.url}, insecure-skip-tls-verify: true}
users:
- name: ${USER}
  user: {}
contexts:
- name: proxy
  context: {cluster: proxy, user: ${USER}, namespace: default}
current-context: proxy
`,
    { mode: 0o600 },
  );
  return { path, close: () => proxy.close(), stats: proxy.stats, disarm: () => proxy.disarm() };
}

async function runIn(env: BenchEnv, p: OperatorPhaseParams): Promise<OperatorPhaseResult> {
  await env.createNamespace(NS);
  const proxy = await proxiedKubeconfig(env);
  try {
    const op = await env.startOperator(NS, {
      kubeconfig: proxy.path,
      entry: 'dist/main.js',
      args: [
        '--namespace',
        NS,
        '--poll-interval',
        `${p.pollIntervalSeconds}s`,
        '--watch-stall-timeout',
        `${p.stallTimeoutSeconds}s`,
      ],
    });
    const pid = op.pid;
    const rssStart = sumProm(
      parseProm(await op.metrics()),
      'cdn_operator_process_resident_memory_bytes',
    );
    const names = Array.from({ length: p.objects }, (_, i) => objectName('soak-pz', i, 3));
    await createAll(
      env.kube,
      names.map((n) => pullZoneManifest(NS, n, { originUrl: originOf(n, 0) })),
      4,
    );
    await waitAllReady(env, NS, 'PullZoneConfig', p.objects, 180_000);
    const started = Date.now();
    const changes: Change[] = [];
    const latest = new Map<string, Change>();
    const byKey = new Map<string, Change>();
    let sampling = true;
    const sampler = (async (): Promise<void> => {
      while (sampling) {
        const state = (await env.sim.state()) as unknown as SimZones;
        const now = Date.now();
        for (const z of state.pullZones) {
          const seq = seqOf(String(z.record.OriginUrl ?? ''));
          const c = seq === undefined ? undefined : byKey.get(`${String(z.record.Name)}#${seq}`);
          if (c && c.seenAt === undefined) c.seenAt = now;
        }
        await sleep(1000);
      }
    })();
    const holdLongMs = (p.pollIntervalSeconds + 5) * 1000;
    const endAt = started + p.seconds * 1000;
    await Promise.all(
      names.map(async (name) => {
        for (let seq = 1; Date.now() < endAt; seq++) {
          const c: Change = { name, seq, at: Date.now() };
          await patchSpec(env.kube, NS, 'PullZoneConfig', name, {
            settings: { originUrl: originOf(name, seq) },
          });
          const prev = latest.get(name);
          if (prev) prev.supersededAt = c.at;
          latest.set(name, c);
          byKey.set(`${name}#${seq}`, c);
          changes.push(c);
          // A third of the changes are held past the poll interval; the rest are superseded fast.
          const hold = Math.random() < 1 / 3 ? holdLongMs : 300 + Math.random() * 3700;
          await sleep(Math.min(hold, Math.max(0, endAt - Date.now())));
        }
      }),
    );
    const lastChangeAt = Date.now();
    const settleDeadline = lastChangeAt + p.settleTimeoutMs;
    let finalMismatches = names;
    while (Date.now() < settleDeadline) {
      await sleep(1000);
      finalMismatches = names.filter((n) => latest.get(n)?.seenAt === undefined);
      if (finalMismatches.length === 0) break;
    }
    // The newest change was seen; also confirm the platform still shows it now (nothing reverted it).
    const state = (await env.sim.state()) as unknown as SimZones;
    const now = new Map(state.pullZones.map((z) => [String(z.record.Name), z.record.OriginUrl]));
    finalMismatches = names.filter((n) => now.get(n) !== originOf(n, latest.get(n)?.seq ?? -1));
    const settleMs = Date.now() - lastChangeAt;
    sampling = false;
    await sampler;
    const metrics = parseProm(await op.metrics().catch(() => ''));
    const restartsByReason = groupProm(
      metrics,
      'cdn_operator_informer_watch_restarts_total',
      'reason',
    );
    const rssEnd = sumProm(metrics, 'cdn_operator_process_resident_memory_bytes');
    const exited = op.child.exitCode !== null || op.child.signalCode !== null;
    const restartsAll = Object.values(restartsByReason).reduce((a, b) => a + b, 0);
    const durationSeconds = Math.round((lastChangeAt - started) / 1000);
    const heldCut = p.pollIntervalSeconds * 1000;
    const held = changes.filter(
      (c) => c.supersededAt === undefined || c.supersededAt - c.at >= heldCut,
    );
    const heldOk = (c: Change): boolean =>
      c.seenAt !== undefined && (c.supersededAt === undefined || c.seenAt <= c.supersededAt + 1000);
    const heldMissed = held.filter((c) => !heldOk(c));
    const superseded = changes.filter((c) => !held.includes(c));
    const lat = changes
      .filter((c) => c.seenAt !== undefined)
      .map((c) => (c.seenAt as number) - c.at);
    const faultsHit = Object.entries(proxy.stats.faults)
      .filter(([, n]) => n === 0)
      .map(([f]) => f);
    const result: OperatorPhaseResult = {
      params: p,
      durationSeconds,
      operator: { pid, samePid: op.pid === pid, exited, restarts: exited ? 1 : 0 },
      proxy: proxy.stats,
      watchRestartsByReason: restartsByReason,
      watchRestartsPerMinute: +(restartsAll / ((Date.now() - started) / 60_000)).toFixed(1),
      changes: {
        total: changes.length,
        held: held.length,
        heldSeen: held.length - heldMissed.length,
        heldMissed: heldMissed.map((c) => ({ name: c.name, seq: c.seq })),
        superseded: superseded.length,
        supersededSeen: superseded.filter((c) => c.seenAt !== undefined).length,
        latencyMs: { p50: quantile(lat, 0.5), p95: quantile(lat, 0.95), max: Math.max(0, ...lat) },
      },
      settleMs,
      finalMismatches,
      operatorRssBytes: { start: rssStart, end: rssEnd },
      checks: [],
    };
    result.checks = [
      {
        name: 'operator never restarted (same pid, still running)',
        ok: !exited,
        detail: `pid ${pid}, exited: ${exited}`,
      },
      {
        name: 'every fault kind was injected',
        ok: faultsHit.length === 0,
        detail: faultsHit.length
          ? `never: ${faultsHit.join(', ')}`
          : JSON.stringify(proxy.stats.faults),
      },
      {
        name: 'final platform state equals the final specs',
        ok: finalMismatches.length === 0,
        detail: finalMismatches.length
          ? `differ: ${finalMismatches.join(', ')}`
          : `${names.length} zones, settled ${settleMs} ms after the last change`,
      },
      {
        name: 'every change held for a poll interval reached the platform before the next',
        ok: heldMissed.length === 0 && held.length > 0,
        detail: `${held.length - heldMissed.length}/${held.length}`,
      },
    ];
    return result;
  } finally {
    await proxy.close();
  }
}
