/**
 * PullZoneConfig end to end, driven with `kubectl apply` against a real kube-apiserver, a real
 * operator process and cdn-sim: create (one write), in sync (no writes), update of one field
 * (exactly one write), drift corrected, dry-run plan, apiserver validation, platform 400,
 * adoption by id and by name (explicit), outputs Secret, deletion with Delete and Orphan.
 */
import test from 'ava';
import {
  apply,
  conditionOf,
  getObject,
  kubectl,
  kubectlRaw,
  waitFor,
  deleteObject,
} from '../support/kube.js';
import {
  pzcYaml,
  RESOURCE,
  simWrites,
  startEnv,
  waitCondition,
  zoneWrites,
  type Env,
} from './setup.js';

let env: Env;

test.before(async () => {
  env = await startEnv('e2e-pzc');
});

test.after.always(async () => {
  await env?.stop();
});

const FAST_POLL = { 'cdn.operator.io/poll-interval': '5s' };

async function idOf(name: string): Promise<number> {
  const obj = await waitCondition(env.ns, name, 'Ready', 'True');
  return Number(obj.status?.pullZoneId);
}

test.serial(
  'create: one POST /pullzone with the settings, Ready, printer columns, outputs Secret',
  async (t) => {
    const before = (await simWrites(env.sim)).length;
    await apply(
      pzcYaml(env.ns, 'site', {
        outputSecretRef: { name: 'site-outputs' },
        settings: {
          originUrl: 'https://origin.example.com',
          originShieldMaxConcurrentRequests: 300,
          ipFamilyPolicy: 'DualStack',
        },
      }),
    );
    const obj = await waitCondition(env.ns, 'site', 'Ready', 'True');
    await waitCondition(env.ns, 'site', 'Synced', 'True');
    const id = Number(obj.status?.pullZoneId);
    const created = (await simWrites(env.sim)).slice(before);
    t.deepEqual(
      created.map((c) => c.route),
      ['POST /pullzone'],
      'exactly one write for the create',
    );
    const record = env.sim.state.pullZones.get(id)?.record;
    t.like(record, {
      Name: 'site',
      OriginUrl: 'https://origin.example.com',
      OriginShieldMaxConcurrentRequests: 300,
      IpFamilyPolicy: 1,
    });
    t.is(obj.status?.cdnHostname, 'site.b-cdn.net');

    const table = await kubectl(['get', 'pzc', 'site', '-n', env.ns]);
    t.regex(table, /NAME\s+READY\s+SYNCED\s+ID\s+CDN-HOSTNAME\s+AGE/);
    t.regex(table, new RegExp(`site\\s+True\\s+True\\s+${id}\\s+site\\.b-cdn\\.net`));

    const secret = await waitFor(
      () => getObject('secret', env.ns, 'site-outputs'),
      30_000,
      'outputs Secret',
    );
    const data = secret.data as Record<string, string>;
    t.is(Buffer.from(data.pullZoneId ?? '', 'base64').toString(), String(id));
    t.is(Buffer.from(data.cdnHostname ?? '', 'base64').toString(), 'site.b-cdn.net');
    const owner = (secret.metadata as { ownerReferences?: { kind: string; name: string }[] })
      .ownerReferences?.[0];
    t.like(owner, { kind: 'PullZoneConfig', name: 'site' });
  },
);

test.serial('update one field: exactly one write, only that field', async (t) => {
  const id = await idOf('site');
  const before = (await zoneWrites(env.sim, id)).length;
  await apply(
    pzcYaml(env.ns, 'site', {
      outputSecretRef: { name: 'site-outputs' },
      settings: {
        originUrl: 'https://origin.example.com',
        originShieldMaxConcurrentRequests: 400,
        ipFamilyPolicy: 'DualStack',
      },
    }),
  );
  await waitFor(
    () => env.sim.state.pullZones.get(id)?.record.OriginShieldMaxConcurrentRequests === 400,
    30_000,
    'update applied',
  );
  await waitCondition(env.ns, 'site', 'Synced', 'True');
  // Let a possible second pass happen before counting.
  await new Promise((r) => setTimeout(r, 1500));
  t.deepEqual((await zoneWrites(env.sim, id)).slice(before), ['POST /pullzone/{id}']);
});

test.serial('drift made outside Kubernetes is corrected at the next poll', async (t) => {
  await apply(pzcYaml(env.ns, 'drift', { settings: { optimizerImageQuality: 80 } }, FAST_POLL));
  const id = await idOf('drift');
  const record = env.sim.state.pullZones.get(id)!.record;
  record.OptimizerImageQuality = 33;
  await waitFor(() => record.OptimizerImageQuality === 80, 30_000, 'drift corrected');
  t.pass();
});

test.serial('dry-run shows planned changes and writes nothing', async (t) => {
  await apply(pzcYaml(env.ns, 'plan', { settings: { enableLogging: true } }));
  const id = await idOf('plan');
  const before = (await zoneWrites(env.sim, id)).length;
  await apply(
    pzcYaml(
      env.ns,
      'plan',
      { settings: { enableLogging: false, optimizerMobileImageQuality: 55 } },
      { 'cdn.operator.io/dry-run': 'true' },
    ),
  );
  const obj = await waitCondition(env.ns, 'plan', 'Synced', 'False', 'DryRun');
  const planned = obj.status?.plannedChanges as { field: string; live: string; desired: string }[];
  t.deepEqual(planned.map((p) => p.field).sort(), ['EnableLogging', 'OptimizerMobileImageQuality']);
  t.like(
    planned.find((p) => p.field === 'EnableLogging'),
    { live: 'true', desired: 'false' },
  );
  t.deepEqual((await zoneWrites(env.sim, id)).slice(before), [], 'no write in dry-run');
  t.is(env.sim.state.pullZones.get(id)?.record.EnableLogging, true);
});

test.serial('an out-of-range value is rejected by the apiserver at apply time', async (t) => {
  const r = await kubectlRaw(
    ['apply', '-f', '-'],
    pzcYaml(env.ns, 'bad', { settings: { originShieldMaxConcurrentRequests: 20000 } }),
  );
  t.not(r.code, 0);
  t.regex(r.stderr, /spec\.settings\.originShieldMaxConcurrentRequests/);
  t.regex(r.stderr, /less than or equal to 10000/);
  t.is(await getObject(RESOURCE, env.ns, 'bad'), undefined);
});

test.serial(
  'a platform 400 surfaces as Synced=False InvalidSpec with the field and message',
  async (t) => {
    // The CRD cannot know every platform rule: a custom hostname that another zone already has.
    await apply(pzcYaml(env.ns, 'first', { hostnames: [{ hostname: 'taken.example.com' }] }));
    await waitFor(
      async () =>
        ((await getObject(RESOURCE, env.ns, 'first'))?.status?.hostnames as unknown[] | undefined)
          ?.length,
      30_000,
      'first hostname',
    );
    await apply(pzcYaml(env.ns, 'second', { hostnames: [{ hostname: 'taken.example.com' }] }));
    const obj = await waitCondition(env.ns, 'second', 'Synced', 'False', 'InvalidSpec').catch(
      async (err: unknown) => {
        t.log(JSON.stringify((await getObject(RESOURCE, env.ns, 'second'))?.status));
        t.log(
          env.operator
            .output()
            .split('\n')
            .filter((l) => l.includes('second'))
            .slice(-10)
            .join('\n'),
        );
        throw err;
      },
    );
    const c = conditionOf(obj, 'Synced');
    t.regex(c?.message ?? '', /Hostname/);
    t.regex(c?.message ?? '', /already registered/);
    // No retry storm: terminal errors are parked until the spec changes.
    const count = async (): Promise<number> =>
      (await simWrites(env.sim)).filter((w) => w.route.endsWith('addHostname')).length;
    const n = await count();
    await new Promise((r) => setTimeout(r, 4000));
    t.true((await count()) - n <= 1, 'at most one more attempt in 4 s');
  },
);

test.serial(
  'adopt by id never creates; a missing id is reported as NotFound, never Ready',
  async (t) => {
    const existing = await fetch(`${env.sim.url}/pullzone`, {
      method: 'POST',
      headers: { AccessKey: 'e2e-pzc-key', 'content-type': 'application/json' },
      body: JSON.stringify({ Name: 'made-with-cdnctl' }),
    }).then((r) => r.json() as Promise<{ Id: number }>);
    const zonesBefore = env.sim.state.pullZones.size;
    await apply(
      pzcYaml(env.ns, 'by-id', {
        adoption: { policy: 'ById', id: existing.Id },
        settings: { enableAvifVary: true },
      }),
    );
    const obj = await waitCondition(env.ns, 'by-id', 'Ready', 'True');
    t.is(Number(obj.status?.pullZoneId), existing.Id);
    t.is(env.sim.state.pullZones.get(existing.Id)?.record.EnableAvifVary, true);
    t.is(env.sim.state.pullZones.size, zonesBefore, 'no zone created');

    await apply(pzcYaml(env.ns, 'missing-id', { adoption: { policy: 'ById', id: 99999999 } }));
    const missing = await waitFor(
      async () => {
        const o = await getObject(RESOURCE, env.ns, 'missing-id');
        const ready = conditionOf(o, 'Ready');
        const synced = conditionOf(o, 'Synced');
        return ready?.reason === 'NotFound' && synced?.reason === 'NotFound' ? o : undefined;
      },
      30_000,
      'NotFound',
    );
    t.like(conditionOf(missing, 'Synced'), { status: 'False', reason: 'NotFound' });
    t.like(conditionOf(missing, 'Ready'), { status: 'False', reason: 'NotFound' });
    t.is(env.sim.state.pullZones.size, zonesBefore, 'still no zone created');
  },
);

test.serial(
  'adopt by name (spec.adoption.policy ByName): the zone with exactly that name is taken over',
  async (t) => {
    await fetch(`${env.sim.url}/pullzone`, {
      method: 'POST',
      headers: { AccessKey: 'e2e-pzc-key', 'content-type': 'application/json' },
      body: JSON.stringify({ Name: 'legacy-zone' }),
    });
    const zonesBefore = env.sim.state.pullZones.size;
    await apply(
      pzcYaml(env.ns, 'legacy', {
        name: 'legacy-zone',
        adoption: { policy: 'ByName' },
        settings: { enableHostnameVary: true },
      }),
    );
    const obj = await waitCondition(env.ns, 'legacy', 'Ready', 'True');
    t.is(env.sim.state.pullZones.size, zonesBefore);
    t.is(env.sim.state.pullZones.get(Number(obj.status?.pullZoneId))?.record.Name, 'legacy-zone');
  },
);

test.serial(
  'delete with Delete removes the zone; with Orphan keeps it; no finalizer left',
  async (t) => {
    await apply(pzcYaml(env.ns, 'gone', {}));
    await apply(pzcYaml(env.ns, 'kept', { deletionPolicy: 'Orphan' }));
    const goneId = await idOf('gone');
    const keptId = await idOf('kept');
    await deleteObject(RESOURCE, env.ns, 'gone');
    await deleteObject(RESOURCE, env.ns, 'kept');
    await waitFor(
      async () => (await getObject(RESOURCE, env.ns, 'gone')) === undefined,
      60_000,
      'gone deleted',
    );
    await waitFor(
      async () => (await getObject(RESOURCE, env.ns, 'kept')) === undefined,
      60_000,
      'kept deleted',
    );
    t.false(env.sim.state.pullZones.has(goneId));
    t.true(env.sim.state.pullZones.has(keptId));

    // A zone deleted outside Kubernetes never blocks the finalizer.
    await apply(pzcYaml(env.ns, 'vanished', {}));
    const vid = await idOf('vanished');
    env.sim.state.pullZones.delete(vid);
    await deleteObject(RESOURCE, env.ns, 'vanished');
    await waitFor(
      async () => (await getObject(RESOURCE, env.ns, 'vanished')) === undefined,
      60_000,
      'vanished deleted',
    );
    t.pass();
  },
);

test.serial('changing an immutable identity field is refused by the apiserver', async (t) => {
  const obj = await getObject(RESOURCE, env.ns, 'by-id');
  const r = await kubectlRaw([
    'patch',
    'pzc',
    'by-id',
    '-n',
    env.ns,
    '--type',
    'merge',
    '-p',
    JSON.stringify({
      spec: {
        adoption: {
          policy: 'ById',
          id: Number((obj?.spec?.adoption as { id?: number } | undefined)?.id) + 1,
        },
      },
    }),
  ]);
  t.not(r.code, 0);
  t.regex(r.stderr, /adoption\.id is immutable/);
});

// Runs last (serial): every request of this file's lifecycle, adoption and deletion included.
test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
