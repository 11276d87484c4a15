/**
 * Creates of one account run concurrently (issue 17): many PullZoneExternal creates against an
 * in-process cdn-sim with latency overlap on the wire, and still leave exactly one zone per
 * name, also when two objects race for one name and when create answers are lost (the
 * runtime's create-pending recovery looks the name up instead of creating again).
 */
import test from 'ava';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import type { FetchLike } from '../../../../src/cdn/options.js';
import {
  NameTaken,
  PullZoneExternal,
} from '../../../../src/controllers/pullzoneconfig/external.js';
import type { PullZoneConfig } from '../../../../src/controllers/pullzoneconfig/types.js';
import { TerminalError } from '../../../../src/runtime/errors.js';
import type { ExternalContext } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';

interface Harness {
  sim: SimulatorHandle;
  ext: PullZoneExternal;
  /** Highest number of `POST /pullzone` requests in flight at once. */
  maxCreatesInFlight(): number;
}

async function harness(key: string, faults: Record<string, unknown>): Promise<Harness> {
  const sim = await startSimulator({ apiKeys: [{ key }], faults });
  let inFlight = 0;
  let max = 0;
  const counting: FetchLike = async (url, init) => {
    const isCreate = init.method === 'POST' && new URL(url).pathname === '/pullzone';
    if (isCreate) max = Math.max(max, ++inFlight);
    try {
      return await fetch(url, { method: init.method, headers: init.headers, body: init.body });
    } finally {
      if (isCreate) inFlight--;
    }
  };
  const client = new CdnClient({
    baseUrl: sim.url,
    credentials: key,
    retry: { maxAttempts: 1 },
    timeoutMs: 5_000,
    fetch: counting,
  });
  const ext = new PullZoneExternal({
    client,
    accountId: key,
    secrets: { settings: new Map(), tls: new Map() },
  });
  return { sim, ext, maxCreatesInFlight: () => max };
}

function zone(name: string, objectName = name): PullZoneConfig {
  return {
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
    metadata: { name: objectName, namespace: 'default', uid: `uid-${objectName}` },
    spec: { name, settings: { originUrl: 'https://origin.example.com' } },
  };
}

function ctx(createPending = false): ExternalContext {
  return {
    createPending,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
  };
}

/** Zones on the platform per name (read from cdn-sim's admin state). */
function zonesPerName(sim: SimulatorHandle): Map<string, number> {
  const counts = new Map<string, number>();
  for (const z of sim.state.pullZones.values()) {
    const name = String(z.record.Name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

test('concurrent creates of one account overlap on the wire and make one zone each', async (t) => {
  const h = await harness('concurrent-create-key', { latencyMs: 100 });
  t.teardown(() => h.sim.close());
  const names = Array.from({ length: 16 }, (_, i) => `cc-zone-${i}`);
  const results = await Promise.allSettled(names.map((n) => h.ext.create(zone(n), ctx())));
  t.deepEqual(
    results.filter((r) => r.status === 'rejected').map((r) => String(r.reason)),
    [],
  );
  t.true(
    h.maxCreatesInFlight() > 1,
    `creates overlapped (max in flight ${h.maxCreatesInFlight()}); 1 means they are serialized`,
  );
  const counts = zonesPerName(h.sim);
  for (const n of names) t.is(counts.get(n), 1, `${n}: exactly one zone`);
});

test('two objects racing for one name: one zone, the other reports NameTaken', async (t) => {
  const h = await harness('race-create-key', { latencyMs: 50 });
  t.teardown(() => h.sim.close());
  const results = await Promise.allSettled([
    h.ext.create(zone('cc-shared', 'first'), ctx()),
    h.ext.create(zone('cc-shared', 'second'), ctx()),
  ]);
  const ok = results.filter((r) => r.status === 'fulfilled');
  const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  t.is(ok.length, 1, 'exactly one create succeeds');
  t.true(refused[0] instanceof TerminalError && refused[0].reason === NameTaken);
  t.is(zonesPerName(h.sim).get('cc-shared'), 1);
});

test('concurrent creates whose answers are lost are recovered by name, never duplicated', async (t) => {
  // Every create is applied and then left unanswered, like a crash right after the POST.
  const h = await harness('lost-create-key', { latencyMs: 30, commitThenDropRate: 1 });
  t.teardown(() => h.sim.close());
  const names = Array.from({ length: 8 }, (_, i) => `cc-lost-${i}`);
  const first = await Promise.allSettled(names.map((n) => h.ext.create(zone(n), ctx())));
  t.true(
    first.every((r) => r.status === 'rejected'),
    'every answer was lost',
  );
  h.sim.faults.set({ latencyMs: 30 });
  // The next pass of each object carries the create-pending marker: observe finds the zone.
  const again = await Promise.all(names.map((n) => h.ext.observe(zone(n), ctx(true))));
  t.true(
    again.every((o) => o.exists),
    'each lost create is found by name',
  );
  const counts = zonesPerName(h.sim);
  for (const n of names) t.is(counts.get(n), 1, `${n}: exactly one zone`);
});
