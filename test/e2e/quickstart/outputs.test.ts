/**
 * The outputs Secret on a real apiserver: outputs are written only into a Secret the
 * PullZoneConfig controls; a Secret that exists and belongs to someone else is refused with
 * OutputsReady=False and left byte-identical (no ownerReference added, no key written), while
 * the zone itself is reconciled as usual (id recorded, hostname added, Ready and Synced True).
 */
import test from 'ava';
import {
  RESOURCE,
  pzcYaml,
  secretYaml,
  startEnv,
  waitCondition,
  type Env,
} from '../pullzoneconfig/setup.js';
import { apply, getObject, kubectl, waitFor } from '../support/kube.js';

let env: Env;

test.before(async () => {
  env = await startEnv('e2e-outputs');
});

test.after.always(async () => {
  await env?.stop();
});

const decode = (v: string | undefined): string => Buffer.from(v ?? '', 'base64').toString();

test.serial(
  'a foreign Secret named in outputSecretRef is refused and left byte-identical; the zone is reconciled',
  async (t) => {
    // Someone else's Secret, created before the PullZoneConfig points at it.
    await apply(secretYaml(env.ns, 'payments-db', { password: 'do-not-touch' }));
    const before = await kubectl(['get', 'secret', 'payments-db', '-n', env.ns, '-o', 'json']);
    await apply(
      pzcYaml(env.ns, 'grabber', {
        outputSecretRef: { name: 'payments-db' },
        hostnames: [{ hostname: 'grabber.example.com' }],
      }),
    );
    const obj = await waitCondition(env.ns, 'grabber', 'OutputsReady', 'False', 'SecretNotOwned');
    t.regex(JSON.stringify(obj.status?.conditions), /not controlled by this PullZoneConfig/);
    const ready = await waitCondition(env.ns, 'grabber', 'Ready', 'True');
    await waitCondition(env.ns, 'grabber', 'Synced', 'True');
    t.true(Number(ready.status?.pullZoneId) > 0, 'id recorded');
    const id = Number(ready.status?.pullZoneId);
    const live = (env.sim.state.pullZones.get(id)?.record.Hostnames ?? []) as { Value?: string }[];
    const hosts = live.map((h) => h.Value);
    t.true(hosts.includes('grabber.example.com'), `hostname added: ${hosts.join(',')}`);
    // Another pass (forced) still touches nothing.
    await kubectl([
      'annotate',
      RESOURCE,
      'grabber',
      '-n',
      env.ns,
      `cdn.operator.io/reconcile-requested-at=${Date.now()}`,
      '--overwrite',
    ]);
    await new Promise((r) => setTimeout(r, 2000));
    const after = await kubectl(['get', 'secret', 'payments-db', '-n', env.ns, '-o', 'json']);
    t.is(after, before, 'the foreign Secret is byte-identical');
  },
);

test.serial(
  'an absent Secret is created owned by the object and kept up to date; another object cannot take it over',
  async (t) => {
    await apply(pzcYaml(env.ns, 'owner', { outputSecretRef: { name: 'owner-out' } }));
    const obj = await waitCondition(env.ns, 'owner', 'OutputsReady', 'True', 'OutputsWritten');
    const secret = await waitFor(
      () => getObject('secret', env.ns, 'owner-out'),
      30_000,
      'outputs Secret',
    );
    const data = secret.data as Record<string, string>;
    t.is(decode(data.pullZoneId), String(obj.status?.pullZoneId));
    const refs = (secret.metadata as { ownerReferences?: { uid: string; controller?: boolean }[] })
      .ownerReferences;
    t.deepEqual(
      refs?.map((r) => [r.uid, r.controller]),
      [[obj.metadata.uid, true]],
    );
    // A second object pointing at the same Secret must not overwrite it.
    const before = await kubectl(['get', 'secret', 'owner-out', '-n', env.ns, '-o', 'json']);
    await apply(pzcYaml(env.ns, 'thief', { outputSecretRef: { name: 'owner-out' } }));
    await waitCondition(env.ns, 'thief', 'OutputsReady', 'False', 'SecretNotOwned');
    await waitCondition(env.ns, 'thief', 'Ready', 'True');
    const after = await kubectl(['get', 'secret', 'owner-out', '-n', env.ns, '-o', 'json']);
    t.is(after, before, 'the first owner keeps its Secret unchanged');
    // The owner's hostnames change: its Secret follows.
    await apply(
      pzcYaml(env.ns, 'owner', {
        outputSecretRef: { name: 'owner-out' },
        hostnames: [{ hostname: 'owner.example.com' }],
      }),
    );
    await waitFor(
      async () => {
        const s = await getObject('secret', env.ns, 'owner-out');
        return decode((s?.data as Record<string, string>)?.hostnames) === 'owner.example.com'
          ? s
          : undefined;
      },
      30_000,
      'outputs follow the hostnames',
    );
    t.pass();
  },
);
