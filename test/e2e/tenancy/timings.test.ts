/**
 * Hostile timings from a tenant cause no more than the documented call rate (issue 13 item 7),
 * on a real apiserver with the real operator and cdn-sim:
 *
 * - `cdn.operator.io/poll-interval` is clamped to 5 s … 24 h (src/runtime/poll-interval.ts,
 *   docs/runtime.md) and the clamp is reported as a Warning event `InvalidPollInterval`;
 * - a 429 whose `Retry-After` is absurd (3 000 000 s) does not freeze the account: Retry-After is
 *   honoured up to 10 min only (src/cdn/retry.ts boundRetryAfter), beyond that the answer is a
 *   temporary outage retried with the normal per-item backoff.
 *
 * cdn-sim's own rate limit is a token bucket shared by every route, so the one-shot 429 comes
 * from a small proxy of this file in front of the simulator.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { MIN_POLL_INTERVAL_MS } from '../../../src/runtime/poll-interval.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import {
  accountJson,
  defaultAccountArgs,
  deleteAccount,
  namespacesSelector,
} from '../support/account.js';
import { applyAllCrds } from '../support/crds.js';
import { apply, createNamespace, deleteNamespace, kubectl } from '../support/kube.js';
import { secretYaml } from '../support/operator-env.js';
import { startOperator, type OperatorProcess } from '../support/operator.js';
import { objectYaml, PZC, settle, waitCondition } from './setup.js';

const API_KEY = 'e2e-timings-key';
/** Seconds of the hostile Retry-After (about 35 days). */
const HOSTILE_RETRY_AFTER_S = 3_000_000;

/** Answers the next matching request with a 429 and a chosen Retry-After, once. */
interface TooManyProxy {
  url: string;
  arm(method: string, path: RegExp, retryAfter: string): void;
  /** Times (ms since epoch) of the 429s served. */
  served(): number[];
  close(): Promise<void>;
}

async function forward(target: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
  const method = req.method ?? 'GET';
  const answer = await fetch(`${target}${req.url ?? '/'}`, {
    method,
    headers,
    ...(chunks.length > 0 && method !== 'GET' ? { body: Buffer.concat(chunks) } : {}),
  });
  const body = Buffer.from(await answer.arrayBuffer());
  const out: Record<string, string> = {};
  answer.headers.forEach((v, k) => {
    if (k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'content-length') out[k] = v;
  });
  res.writeHead(answer.status, out);
  res.end(body);
}

async function startTooManyProxy(target: string): Promise<TooManyProxy> {
  let armed: { method: string; path: RegExp; retryAfter: string } | undefined;
  const served: number[] = [];
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (armed && req.method === armed.method && armed.path.test(url)) {
      const { retryAfter } = armed;
      armed = undefined;
      served.push(Date.now());
      // Drain the body, then answer as the platform's rate limiter does (empty body).
      req.resume();
      req.on('end', () => {
        res.writeHead(429, { 'Retry-After': retryAfter, 'Content-Length': '0' });
        res.end();
      });
      return;
    }
    forward(target, req, res).catch(() => {
      res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arm(method, path, retryAfter) {
      armed = { method, path, retryAfter };
    },
    served: () => [...served],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let sim: SimulatorHandle;
let proxy: TooManyProxy;
let operator: OperatorProcess;
let teamA: string;
let teamB: string;
let ops: string;

test.before(async () => {
  const kubeconfig = process.env.KUBECONFIG;
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  await applyAllCrds();
  ops = await createNamespace('e2e-tim-ops');
  teamA = await createNamespace('e2e-tim-a');
  teamB = await createNamespace('e2e-tim-b');
  await apply(secretYaml(ops, 'cdn-credentials', { apiKey: API_KEY }));
  // One account (credentials in the operator namespace) opened to both tenant namespaces.
  await apply(accountJson(ops, 'cdn-credentials', namespacesSelector(teamA, teamB)));
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  proxy = await startTooManyProxy(sim.url);
  operator = await startOperator({
    kubeconfig,
    args: ['--namespace', `${teamA},${teamB}`, '--api-url', proxy.url, ...defaultAccountArgs(ops)],
  });
});

test.after.always(async () => {
  await operator?.stop();
  await proxy?.close();
  await sim?.close();
  if (ops) await deleteAccount(ops);
  for (const ns of [teamA, teamB, ops]) if (ns) await deleteNamespace(ns);
});

const pzc = (ns: string, name: string, annotations: Record<string, string> = {}): string =>
  objectYaml(
    'PullZoneConfig',
    ns,
    name,
    { settings: { originUrl: `https://${name}.example.com` } },
    annotations,
  );

/** Platform GETs whose path names this pull zone, logged by cdn-sim in [from, to). */
function zoneGets(id: number, from: number, to: number): number {
  return sim.calls
    .snapshot()
    .log.filter(
      (c) =>
        c.method === 'GET' &&
        c.t >= from &&
        c.t < to &&
        (c.path === `/pullzone/${id}` || c.path.startsWith(`/pullzone/${id}/`)),
    ).length;
}

/** Reasons of the Warning events about one object. */
async function warningReasons(ns: string, name: string): Promise<string[]> {
  const out = await kubectl(['get', 'events.events.k8s.io', '-n', ns, '-o', 'json']);
  const items = (
    JSON.parse(out) as {
      items: Array<{ reason: string; type: string; regarding: { name: string } }>;
    }
  ).items;
  return items
    .filter((e) => e.regarding.name === name && e.type === 'Warning')
    .map((e) => e.reason);
}

test.serial(
  'poll-interval 1000h, 1ms and 1s: clamped to 5 s … 24 h, at most the documented GET rate, Warning InvalidPollInterval',
  async (t) => {
    const cases = [
      { name: 'poll-1000h', interval: '1000h' },
      { name: 'poll-1ms', interval: '1ms' },
      { name: 'poll-1s', interval: '1s' },
    ];
    for (const c of cases)
      await apply(pzc(teamA, c.name, { 'cdn.operator.io/poll-interval': c.interval }));
    const ids = new Map<string, number>();
    for (const c of cases) {
      const obj = await waitCondition(PZC, teamA, c.name, 'Ready', 'True');
      ids.set(c.name, Number(obj.status?.pullZoneId));
    }
    // Count only the periodic checks: from Ready on, over a window of 20 s.
    const windowMs = 20_000;
    const from = Date.now();
    await settle(windowMs);
    const to = Date.now();
    const counts = Object.fromEntries(
      cases.map((c) => [c.name, zoneGets(ids.get(c.name)!, from, to)]),
    );
    t.log(`zone GETs in ${to - from} ms after Ready: ${JSON.stringify(counts)}`);
    // The documented minimum is 5 s (jittered -10 %): at most ceil(20 / 4.5) = 5 checks in the
    // window, plus 2 for a check in flight at either edge. Before the fix, 1000h (3.6e9 ms) went
    // straight to setTimeout, which Node turns into 1 ms beyond 2^31-1: 385 GETs in 20 s; 1ms and
    // 1s were not clamped at all (thousands, and 20, GETs).
    const bound = Math.ceil(windowMs / (MIN_POLL_INTERVAL_MS * 0.9)) + 2;
    for (const c of cases)
      t.true(
        counts[c.name]! <= bound,
        `${c.name}: ${counts[c.name]} GETs in 20 s, documented rate allows ${bound}`,
      );
    // 1000h is clamped to the 24 h maximum, not to the minimum: no periodic check at all here.
    t.true(counts['poll-1000h']! <= 1, `poll-1000h: ${counts['poll-1000h']} GETs, expected none`);
    // Each clamp is reported, never silent (the old code emitted no event).
    for (const c of cases) {
      const reasons = await warningReasons(teamA, c.name);
      t.true(
        reasons.includes('InvalidPollInterval'),
        `${c.name}: Warning events ${JSON.stringify(reasons)}`,
      );
    }
  },
);

test.serial(
  'a 429 with Retry-After 3000000 s does not freeze the account: other objects still sync, the item retries',
  async (t) => {
    // The next create of a pull zone (this object's) is answered 429 with a 35-day Retry-After.
    proxy.arm('POST', /^\/pullzone(\?.*)?$/, String(HOSTILE_RETRY_AFTER_S));
    const armedAt = Date.now();
    await apply(pzc(teamA, 'throttled'));
    const [hitAt] = await waitForHit();
    t.truthy(hitAt, 'the 429 was served');
    // Another namespace of the same account: its create goes through the same per-account
    // limiter. Before the fix, the 429 paused that limiter for 3e9 ms (the whole account frozen
    // for 35 days): this object would never be created.
    const otherStart = Date.now();
    await apply(pzc(teamB, 'bystander'));
    const other = await waitCondition(PZC, teamB, 'bystander', 'Ready', 'True', undefined, 60_000);
    const otherMs = Date.now() - otherStart;
    t.truthy(other.status?.pullZoneId, 'the bystander got its zone');
    t.true(otherMs < 60_000, `bystander Ready after ${otherMs} ms`);
    // An update in the account is not held back either (the Ready zone from the first test).
    const updateStart = Date.now();
    await apply(
      objectYaml(
        'PullZoneConfig',
        teamA,
        'poll-1s',
        { settings: { originUrl: 'https://poll-1s-updated.example.com' } },
        { 'cdn.operator.io/poll-interval': '1s' },
      ),
    );
    const updated = await waitCondition(PZC, teamA, 'poll-1s', 'Ready', 'True');
    const id = Number(updated.status?.pullZoneId);
    await waitUntil(
      () => sim.state.pullZones.get(id)?.record.OriginUrl === 'https://poll-1s-updated.example.com',
      60_000,
    );
    const updateMs = Date.now() - updateStart;
    t.true(updateMs < 60_000, `update applied after ${updateMs} ms`);
    // The throttled object itself is retried with the normal per-item backoff, not after 35 days
    // (the old code kept retryAfterMs 3e9 as the item's minimum delay).
    const own = await waitCondition(PZC, teamA, 'throttled', 'Ready', 'True', undefined, 60_000);
    const ownMs = Date.now() - hitAt!;
    t.truthy(own.status?.pullZoneId, 'the throttled object got its zone after the 429');
    t.true(ownMs < 60_000, `throttled object Ready ${ownMs} ms after its 429`);
    t.is(proxy.served().length, 1, 'exactly one 429 served');
    t.log(
      `429 served ${hitAt! - armedAt} ms after arming; bystander Ready in ${otherMs} ms; ` +
        `update applied in ${updateMs} ms; throttled object Ready ${ownMs} ms after its 429`,
    );
  },
);

async function waitForHit(): Promise<number[]> {
  await waitUntil(() => proxy.served().length > 0, 30_000);
  return proxy.served();
}

async function waitUntil(ok: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await settle(100);
  }
}
