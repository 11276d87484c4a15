/**
 * `spec.logForwarding` through ContainerAppExternal against an in-process cdn-sim: the calls
 * each step makes (create = 1 POST, no change = 0 writes, a member = 1 PUT, a rotated Secret =
 * 1 PUT, block removed = 1 DELETE), no read at all for an app whose spec and status have no
 * block, adoption that compares the platform's token in memory (0 writes when equal), and
 * platform errors mapped to spec paths with the token scrubbed.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import { ContainerAppExternal } from '../../../../src/controllers/containerapp/external.js';
import { classifyContainerAppError } from '../../../../src/controllers/containerapp/errors.js';
import { NO_REFS, type ResolvedRefs } from '../../../../src/controllers/containerapp/mapping.js';
import type {
  ContainerAppSpec,
  ContainerAppStatus,
  LogForwardingSpec,
} from '../../../../src/controllers/containerapp/types.js';
import type { Observation } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import { appObjectOf, baseSpec, externalCtxOf } from './fixtures.js';

const API_KEY = 'unit-logs-key';
const TOKEN_1 = 'unit-syslog/token+one=1a2b';
const TOKEN_2 = 'unit-syslog/token+two=3c4d';
const LOG_ROUTES = /^(GET|POST|PUT|DELETE) \/mc\/log\/forwarding/;

let sim: SimulatorHandle;
let client: CdnClient;

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
});

test.after.always(async () => {
  client?.close();
  await sim?.close();
});

const BLOCK: LogForwardingSpec = {
  type: 'SyslogTCP',
  endpoint: 'logs.example.com',
  port: 6514,
  format: 'SyslogRFC5424',
  tokenSecretRef: { name: 'logs', key: 'token' },
};

function specWith(name: string, logForwarding?: LogForwardingSpec): ContainerAppSpec {
  const spec = baseSpec();
  spec.name = name;
  if (logForwarding) spec.logForwarding = logForwarding;
  return spec;
}

/** Log forwarding calls (method + route) made since `from`. */
function logCalls(from: number): string[] {
  return sim.calls
    .snapshot()
    .log.slice(from)
    .map((c) => c.route)
    .filter((r) => LOG_ROUTES.test(r));
}

function writesOf(calls: string[]): string[] {
  return calls.filter((c) => !c.startsWith('GET'));
}

function mark(): number {
  return sim.calls.snapshot().log.length;
}

interface Harness {
  appId: string;
  status: ContainerAppStatus;
  token: string | undefined;
  /** Observe, then update when needed; merges status like the runtime. */
  sync(spec: ContainerAppSpec): Promise<Observation>;
}

async function harness(spec: ContainerAppSpec, token?: string): Promise<Harness> {
  const h: Harness = {
    appId: '',
    status: {},
    token,
    async sync(s) {
      const ext = new ContainerAppExternal(client, () => Promise.resolve(refs()));
      const obs = await ext.observe(appObjectOf(s, h.status, 'logs'), externalCtxOf(h.appId));
      Object.assign(h.status, obs.status);
      if (!obs.upToDate) {
        const res = await ext.update(appObjectOf(s, h.status, 'logs'), obs, externalCtxOf(h.appId));
        if (res?.status) Object.assign(h.status, res.status);
      }
      return obs;
    },
  };
  const refs = (): ResolvedRefs =>
    h.token === undefined ? NO_REFS : { ...NO_REFS, logForwardingToken: h.token };
  const ext = new ContainerAppExternal(client, () => Promise.resolve(refs()));
  const created = await ext.create(appObjectOf(spec, {}, 'logs'), externalCtxOf());
  h.appId = created.externalId;
  Object.assign(h.status, created.status);
  return h;
}

function stored(appId: string): Record<string, unknown> | undefined {
  return sim.state.collections.of('logForwarding').get(appId);
}

test.serial(
  'lifecycle: 1 POST, 0 writes, 1 PUT per change, 1 PUT per rotation, 1 DELETE',
  async (t) => {
    const spec = specWith('logs life', BLOCK);
    const h = await harness(spec, TOKEN_1);
    let from = mark();
    const first = await h.sync(spec);
    t.deepEqual(
      first.diff.map((d) => d.field),
      ['logForwarding'],
    );
    t.deepEqual(writesOf(logCalls(from)), ['POST /mc/log/forwarding']);
    t.like(stored(h.appId), { endpoint: 'logs.example.com', token: TOKEN_1, enabled: true });
    t.like(stored(h.appId), { type: 'SyslogTcp', format: 'SyslogRfc5424' }, 'its own enum values');
    t.regex(h.status.logForwarding?.tokenFingerprint ?? '', /^sha256:[0-9a-f]{64}$/);
    t.like(h.status.logForwarding, { port: 6514, type: 'SyslogTCP', enabled: true });

    from = mark();
    t.true((await h.sync(spec)).upToDate);
    t.deepEqual(logCalls(from), ['GET /mc/log/forwarding/{appId}'], 'one read, no write');

    from = mark();
    spec.logForwarding = { ...BLOCK, endpoint: '192.0.2.44' };
    const moved = await h.sync(spec);
    t.deepEqual(
      moved.diff.map((d) => d.field),
      ['logForwarding.endpoint'],
    );
    t.deepEqual(writesOf(logCalls(from)), ['PUT /mc/log/forwarding/{appId}']);
    t.like(stored(h.appId), { endpoint: '192.0.2.44', token: TOKEN_1 });

    const before = h.status.logForwarding?.tokenFingerprint;
    h.token = TOKEN_2;
    from = mark();
    const rotated = await h.sync(spec);
    t.deepEqual(
      rotated.diff.map((d) => d.field),
      ['logForwarding.token'],
    );
    t.deepEqual(writesOf(logCalls(from)), ['PUT /mc/log/forwarding/{appId}']);
    t.is(stored(h.appId)?.token, TOKEN_2);
    t.not(h.status.logForwarding?.tokenFingerprint, before);
    from = mark();
    t.true((await h.sync(spec)).upToDate, 'the rotation is sent once');
    t.deepEqual(writesOf(logCalls(from)), []);

    delete spec.logForwarding;
    from = mark();
    const removed = await h.sync(spec);
    t.deepEqual(
      removed.diff.map((d) => d.field),
      ['logForwarding'],
    );
    t.deepEqual(writesOf(logCalls(from)), ['DELETE /mc/log/forwarding/{appId}']);
    t.is(stored(h.appId), undefined);
    t.false('logForwarding' in h.status && h.status.logForwarding !== undefined);
    from = mark();
    t.true((await h.sync(spec)).upToDate);
    t.deepEqual(logCalls(from), [], 'nothing managed any more: not even read');
    t.true(JSON.stringify(h.status).includes('sha256:') === false, 'fingerprint forgotten');
    t.false(
      JSON.stringify(h.status).includes(TOKEN_1) || JSON.stringify(h.status).includes(TOKEN_2),
    );
  },
);

test.serial('an app whose spec and status have no block: never read, never touched', async (t) => {
  const spec = specWith('logs untouched');
  const h = await harness(spec);
  await client.createLogForwarding({
    app: h.appId,
    type: 'SyslogUdp',
    endpoint: 'outside.example.com',
    port: 514,
    format: 'SyslogRfc3164',
    enabled: true,
  });
  const from = mark();
  t.true((await h.sync(spec)).upToDate);
  t.deepEqual(logCalls(from), []);
  t.like(stored(h.appId), { endpoint: 'outside.example.com' });
  t.is(h.status.logForwarding, undefined);
});

test.serial(
  'adoption: equal platform token -> 0 writes and the fingerprint recorded; else 1 PUT',
  async (t) => {
    const spec = specWith('logs adopt', BLOCK);
    const h = await harness(specWith('logs adopt'), TOKEN_1);
    await client.createLogForwarding({
      app: h.appId,
      type: 'SyslogTcp',
      endpoint: 'LOGS.example.com',
      port: 6514,
      format: 'SyslogRfc5424',
      enabled: true,
      token: TOKEN_1,
    });
    let from = mark();
    t.true((await h.sync(spec)).upToDate);
    t.deepEqual(writesOf(logCalls(from)), [], 'same token, endpoint differs only in case');
    t.regex(h.status.logForwarding?.tokenFingerprint ?? '', /^sha256:/);

    // Another object adopting a configuration whose token is not the Secret's.
    const other = await harness(specWith('logs adopt other'), TOKEN_2);
    await client.createLogForwarding({ ...(await bodyOf(h.appId)), app: other.appId });
    from = mark();
    const obs = await other.sync(specWith('logs adopt other', BLOCK));
    t.deepEqual(
      obs.diff.map((d) => d.field),
      ['logForwarding.token'],
    );
    t.false(
      JSON.stringify(obs.diff).includes(TOKEN_1) || JSON.stringify(obs.diff).includes(TOKEN_2),
    );
    t.deepEqual(writesOf(logCalls(from)), ['PUT /mc/log/forwarding/{appId}']);
    t.is(stored(other.appId)?.token, TOKEN_2);
  },
);

async function bodyOf(appId: string): Promise<{
  app: string;
  type: 'SyslogTcp' | 'SyslogUdp';
  endpoint: string;
  port: number;
  format: 'SyslogRfc3164' | 'SyslogRfc5424';
  enabled: boolean;
  token: string;
}> {
  const r = (await client.getLogForwarding(appId))!;
  return {
    app: appId,
    type: r.type!,
    endpoint: r.endpoint!,
    port: r.port!,
    format: r.format!,
    enabled: r.enabled!,
    token: TOKEN_1,
  };
}

test.serial('a refused write names the spec path and never shows the token', async (t) => {
  const spec = specWith('logs refused', { ...BLOCK, endpoint: 'bad_host.example.com' });
  const h = await harness(spec, TOKEN_1);
  sim.faults.set({ echoBodyRoutes: [] });
  const err = await t.throwsAsync(h.sync(spec));
  const c = classifyContainerAppError(err);
  t.is(c.reason, 'InvalidSpec');
  t.regex(c.message, /spec\.logForwarding\.endpoint/);
  sim.faults.set({ echoBodyRoutes: ['POST /mc/log/forwarding'] });
  try {
    const echoed = await t.throwsAsync(h.sync(specWith('logs refused', BLOCK)));
    const text = `${classifyContainerAppError(echoed).message} ${String(echoed)} ${JSON.stringify(echoed)}`;
    t.false(text.includes(TOKEN_1), 'the echoed token is scrubbed');
    t.regex(text, /REDACTED|redacted/);
  } finally {
    sim.faults.set({});
  }
});
