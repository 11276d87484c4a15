/**
 * The solver as the operator runs it (`--dns01-solver`, solver-companion.ts), against a fake
 * kube-apiserver (the request-header ConfigMap, listed and watched by name, and the
 * SubjectAccessReviews) and cdn-sim: it logs `DNS-01 solver listening` with its port, solves a
 * challenge of the DnsZone cache's zone with the zone object's own credentials, counts it in
 * `cdn_operator_dns01_challenges_total`, follows a changed ConfigMap and closes on stop.
 */
import test from 'ava';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { CdnClient } from '../../../src/cdn/client.js';
import { OperatorMetrics } from '../../../src/runtime/metrics.js';
import type { Companion, CompanionContext } from '../../../src/runtime/companion.js';
import type { ManagedObject } from '../../../src/runtime/types.js';
import { createSolverCompanion } from '../../../src/solver/solver-companion.js';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { generatePki, type Pki } from '../../cluster/certs.js';
import { eventLine, startFakeKube, type FakeKube } from '../runtime/kube-fake-server.js';
import { startTestSim, TEST_KEY } from '../../support/sim-client.js';
import { callWebhook, CERT_MANAGER, payload, type Answer, type Call } from './webhook-call.js';

const GROUP = 'acme.cdn.operator.io';
const PATH = `/apis/${GROUP}/v1alpha1/cdn-operator`;
const CM_PATH = '/api/v1/namespaces/kube-system/configmaps';

let dir = '';
let pki: Pki;
let sim: SimulatorHandle;
let client: CdnClient;
let kube: FakeKube;
let solver: Companion;
let port = 0;
let zoneId = 0;
let watchRes: ServerResponse | undefined;
const lines: Array<Record<string, unknown>> = [];
const failures: string[] = [];
let tlsDir = '';
const listQueries: string[] = [];
const reviews: Array<Record<string, unknown>> = [];
const metrics = new OperatorMetrics({ defaultMetrics: false });

/** The ConfigMap as a kube-apiserver with front-proxy flags writes it. */
function configMap(allowedNames: string[]): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'extension-apiserver-authentication',
      namespace: 'kube-system',
      resourceVersion: '5',
    },
    data: {
      'requestheader-client-ca-file': readFileSync(pki.caCert, 'utf8'),
      'requestheader-allowed-names': JSON.stringify(allowedNames),
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
    },
  };
}

/** The DnsZone of namespace shop, synced, using the tenant's own key (credentialsRef). */
function zoneObject(): ManagedObject {
  return {
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsZone',
    metadata: { name: 'shop', namespace: 'shop' },
    spec: { domain: 'shop.example.com', credentialsRef: { name: 'cdn-key' } },
    status: {
      dnsZoneId: zoneId,
      domain: 'shop.example.com',
      conditions: [
        { type: 'Synced', status: 'True', reason: 'X', message: '', lastTransitionTime: '' },
      ],
    },
  };
}

function context(log: pino.Logger, registry = metrics): CompanionContext {
  return {
    client: kube.client,
    log,
    metrics: registry,
    signal: new AbortController().signal,
    namespaces: [''],
    mayWrite: () => true,
    stallTimeoutMs: 60_000,
    resyncMs: 60_000,
    cacheOf: (group, kind) =>
      group === 'dns.cdn.operator.io' && kind === 'DnsZone'
        ? {
            list: () => [zoneObject()],
            hasSynced: () => true,
            waitForSync: () => Promise.resolve(),
          }
        : undefined,
    connectContext: (l) => ({
      log: l,
      readSecret: (ns, name) =>
        Promise.resolve(ns === 'shop' && name === 'cdn-key' ? { apiKey: TEST_KEY } : undefined),
      readConfigMap: () => Promise.resolve(undefined),
      getObject: () => undefined,
    }),
    fail: (err) => failures.push(err.message),
  };
}

/** The listening line of `log`, once it is written (the solver listens in the background). */
async function listening(log: Array<Record<string, unknown>>): Promise<Record<string, unknown>> {
  for (let i = 0; i < 250; i++) {
    const line = log.find((l) => l.msg === 'DNS-01 solver listening');
    if (line) return line;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the solver never logged that it listens');
}

/** A pino logger whose lines land in `into`. */
function captureLog(into: Array<Record<string, unknown>>): pino.Logger {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done): void {
      for (const l of chunk.toString('utf8').split('\n').filter(Boolean))
        into.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return pino({ level: 'info' }, sink);
}

function sendJson(res: ServerResponse, body: unknown): void {
  res.writeHead(201, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solver-solver-'));
  pki = await generatePki(dir);
  tlsDir = join(dir, 'tls');
  mkdirSync(tlsDir);
  copyFileSync(pki.servingCert, join(tlsDir, 'tls.crt'));
  copyFileSync(pki.servingKey, join(tlsDir, 'tls.key'));
  sim = await startTestSim();
  client = new CdnClient({ baseUrl: sim.url, credentials: TEST_KEY, retry: { maxAttempts: 1 } });
  zoneId = Number((await client.addDnsZone({ Domain: 'shop.example.com' })).Id);
  kube = await startFakeKube({
    watch: (_req, res, _n, url) => {
      listQueries.push(`watch ${url.searchParams.get('fieldSelector') ?? ''}`);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(eventLine('BOOKMARK', { metadata: { resourceVersion: '5' } }));
      watchRes = res;
    },
    other: (req, res, _n, url) => {
      if (req.method === 'GET' && url.pathname === CM_PATH) {
        listQueries.push(url.searchParams.get('fieldSelector') ?? '');
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            metadata: { resourceVersion: '5' },
            items: [configMap(['cdn-operator-admin'])],
          }),
        );
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (d: Buffer) => chunks.push(d));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          spec: { user: string };
        };
        reviews.push(review);
        const allowed = review.spec.user === CERT_MANAGER['X-Remote-User'];
        sendJson(res, { ...review, status: { allowed } });
      });
    },
  });
  solver = createSolverCompanion({
    host: '127.0.0.1',
    port: 0,
    tlsDir,
    group: GROUP,
    deps: { apiBaseUrl: sim.url, log: pino({ level: 'silent' }) },
  });
  await solver.start(context(captureLog(lines)));
  port = Number((await listening(lines)).port);
});

test.after.always(async () => {
  await solver?.stop();
  await kube?.close();
  client?.close();
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function call(c: Call): Promise<Answer> {
  return callWebhook(port, pki, c);
}

const CHALLENGE = {
  uid: 'c1',
  action: 'Present',
  type: 'dns-01',
  dnsName: 'origin.shop.example.com',
  key: 'the-key-authorization-digest',
  resourceNamespace: 'shop',
  resolvedFQDN: '_acme-challenge.origin.shop.example.com.',
};

async function txtValues(): Promise<string[]> {
  const zone = await client.getDnsZone(zoneId);
  return (zone.Records ?? [])
    .filter((r) => r.Type === 3 && r.Name === '_acme-challenge.origin')
    .map((r) => String(r.Value));
}

test.serial('listening is logged once with host and port (what the e2e reads)', (t) => {
  const listening = lines.filter((l) => l.msg === 'DNS-01 solver listening');
  t.is(listening.length, 1);
  t.like(listening[0], { host: '127.0.0.1' });
  t.true(port > 0);
});

test.serial(
  'the request-header ConfigMap is listed and watched by name (what its Role grants)',
  async (t) => {
    // The watch opens once the list is stored: it may not have arrived yet.
    for (let i = 0; i < 100 && listQueries.length < 2; i++)
      await new Promise((r) => setTimeout(r, 20));
    t.deepEqual(listQueries, [
      'metadata.name=extension-apiserver-authentication',
      'watch metadata.name=extension-apiserver-authentication',
    ]);
  },
);

test.serial(
  'Present and CleanUp through the front proxy: reviewed, written, removed, counted',
  async (t) => {
    const present = await call({
      method: 'POST',
      path: PATH,
      body: payload(CHALLENGE),
      proxyCert: true,
      headers: CERT_MANAGER,
    });
    t.like(present.body, { response: { uid: 'c1', success: true } }, JSON.stringify(present.body));
    t.deepEqual(await txtValues(), [CHALLENGE.key]);
    t.like(reviews.at(-1), {
      kind: 'SubjectAccessReview',
      spec: {
        user: CERT_MANAGER['X-Remote-User'],
        groups: CERT_MANAGER['X-Remote-Group'],
        resourceAttributes: { group: GROUP, resource: 'cdn-operator', verb: 'create' },
      },
    });
    const cleanUp = await call({
      method: 'POST',
      path: PATH,
      body: payload({ ...CHALLENGE, uid: 'c2', action: 'CleanUp' }),
      proxyCert: true,
      headers: CERT_MANAGER,
    });
    t.like(cleanUp.body, { response: { uid: 'c2', success: true } });
    t.deepEqual(await txtValues(), []);
    const text = await metrics.render();
    t.regex(text, /cdn_operator_dns01_challenges_total\{action="Present",result="written"\} 1/);
    t.regex(text, /cdn_operator_dns01_challenges_total\{action="CleanUp",result="removed"\} 1/);
  },
);

test.serial(
  'a name in no zone of the namespace is refused, said in the answer and counted',
  async (t) => {
    const res = await call({
      method: 'POST',
      path: PATH,
      body: payload({
        ...CHALLENGE,
        uid: 'c3',
        resourceNamespace: 'other',
      }),
      proxyCert: true,
      headers: CERT_MANAGER,
    });
    t.like(res.body, { response: { success: false, status: { reason: 'NoDnsZoneForName' } } });
    t.regex(
      await metrics.render(),
      /cdn_operator_dns01_challenges_total\{action="Present",result="refused"\} 1/,
    );
  },
);

test.serial(
  'a caller the review does not allow is refused before anything is solved',
  async (t) => {
    const before = await metrics.render();
    const res = await call({
      method: 'POST',
      path: PATH,
      body: payload(CHALLENGE),
      proxyCert: true,
      headers: { 'X-Remote-User': 'system:serviceaccount:shop:default' },
    });
    t.is(res.status, 403);
    t.deepEqual(await txtValues(), []);
    t.is(await metrics.render(), before, 'nothing counted');
  },
);

test.serial(
  'a changed request-header ConfigMap is followed (watch of that one object)',
  async (t) => {
    const discovery = (): Promise<Answer> =>
      call({ path: `/apis/${GROUP}/v1alpha1`, proxyCert: true, headers: CERT_MANAGER });
    t.is((await discovery()).status, 200);
    watchRes?.write(eventLine('MODIFIED', configMap(['front-proxy-client'])));
    for (let i = 0; i < 100 && (await discovery()).status === 200; i++)
      await new Promise((r) => setTimeout(r, 20));
    t.is((await discovery()).status, 401, 'our certificate is no longer an allowed name');
    watchRes?.write(eventLine('MODIFIED', configMap(['cdn-operator-admin'])));
    for (let i = 0; i < 100 && (await discovery()).status !== 200; i++)
      await new Promise((r) => setTimeout(r, 20));
    t.is((await discovery()).status, 200);
  },
);

test.serial('a port already taken ends the operator (ctx.fail), naming the cause', async (t) => {
  const second = createSolverCompanion({
    host: '127.0.0.1',
    port,
    tlsDir,
    group: GROUP,
    deps: { apiBaseUrl: sim.url, log: pino({ level: 'silent' }) },
  });
  const before = failures.length;
  await second.start(
    context(pino({ level: 'silent' }), new OperatorMetrics({ defaultMetrics: false })),
  );
  for (let i = 0; i < 250 && failures.length === before; i++)
    await new Promise((r) => setTimeout(r, 20));
  await second.stop();
  t.is(failures.length, before + 1);
  t.regex(failures.at(-1) ?? '', /^cannot start the DNS-01 solver: .*EADDRINUSE/);
});

test.serial('a missing serving certificate fails the start, naming the file', async (t) => {
  const broken = createSolverCompanion({
    host: '127.0.0.1',
    port: 0,
    tlsDir: join(dir, 'nowhere'),
    group: GROUP,
    deps: { apiBaseUrl: sim.url, log: pino({ level: 'silent' }) },
  });
  const start = broken.start(
    context(pino({ level: 'silent' }), new OperatorMetrics({ defaultMetrics: false })),
  );
  await t.throwsAsync(start, {
    message: /serving certificate: .*nowhere\/tls\.crt: ENOENT/,
  });
});

test.serial(
  'start returns while the DnsZone cache has not synced (SIGTERM waits for it)',
  async (t) => {
    const pending = createSolverCompanion({
      host: '127.0.0.1',
      port: 0,
      tlsDir,
      group: GROUP,
      deps: { apiBaseUrl: sim.url, log: pino({ level: 'silent' }) },
    });
    const log: Array<Record<string, unknown>> = [];
    const h = context(captureLog(log), new OperatorMetrics({ defaultMetrics: false }));
    const never: CompanionContext = {
      ...h,
      cacheOf: () => ({
        list: () => [],
        hasSynced: () => false,
        waitForSync: () => new Promise<void>(() => undefined),
      }),
    };
    const started = await Promise.race([
      pending.start(never).then(() => 'returned'),
      new Promise((r) => setTimeout(() => r('still waiting'), 2000)),
    ]);
    t.is(started, 'returned');
    t.false(
      log.some((l) => l.msg === 'DNS-01 solver listening'),
      'not listening before the sync',
    );
    await pending.stop();
  },
);

test.serial('stop closes the listener', async (t) => {
  await solver.stop();
  const refused = await new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.on('error', () => resolve(true));
  });
  t.true(refused);
});
