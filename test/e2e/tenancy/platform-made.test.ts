/**
 * Pull zones the platform makes for team-a's objects have an owner (issue 44, item 2), on a real
 * apiserver with the real operator and cdn-sim: the zone of an accelerated DnsRecord and the zone
 * of a ContainerApp CDN endpoint that names none. Team-b guesses their ids: its PullZoneConfig
 * adopting one by id is refused `AlreadyManaged`, its ShieldPolicy on one is refused, nothing
 * is written to the zones or their shields, and deleting team-b's objects leaves the zones in
 * place. On 72f93ad team-b's PullZoneConfig adopted both zones and rewrote their origin.
 */
import test from 'ava';
import { apply, deleteObject } from '../support/kube.js';
import {
  objectYaml,
  resetCalls,
  resourceOf,
  settle,
  simWrites,
  startTenancyEnv,
  syncedReason,
  waitGone,
  type TenancyEnv,
} from './setup.js';
import { teamAMadeZones } from './team-a.js';

let env: TenancyEnv;

test.before(async () => {
  env = await startTenancyEnv();
});

test.after.always(async () => {
  await env?.stop();
});

/** Team-a's objects whose pull zones the platform made; those zones' ids. */
async function madeZones(): Promise<Array<{ what: string; id: number }>> {
  const made = await teamAMadeZones(env, 'e2e-made-a.example');
  return [
    { what: 'accelerated record', id: made.record },
    { what: 'app endpoint', id: made.app },
  ];
}

/** Team-b's objects naming a zone by id. */
const GRABS = [
  {
    kind: 'PullZoneConfig',
    prefix: 'adopt',
    refused: 'AlreadyManaged',
    spec: (id: number) => ({
      adoption: { policy: 'ById', id: id },
      deletionPolicy: 'Delete',
      settings: { originUrl: 'https://evil.example.com' },
    }),
  },
  {
    kind: 'ShieldPolicy',
    prefix: 'shield',
    // The zone is managed in team-a (by the record or the app): a reference into it.
    refused: 'ReferenceNotAllowed',
    spec: (id: number) => ({ pullZoneId: id, waf: { enabled: false } }),
  },
];

test.serial(
  "team-b cannot adopt, nor put a shield on, the pull zones the platform made for team-a's objects",
  async (t) => {
    t.timeout(5 * 60_000);
    const zones = await madeZones();
    t.true(
      zones.every((z) => Number.isSafeInteger(z.id) && z.id > 0),
      JSON.stringify(zones),
    );
    await settle(1000);
    await resetCalls(env.sim);
    const attempts = zones.flatMap((z, i) =>
      GRABS.map((g) => ({ ...g, zone: z, name: `${g.prefix}-${i}` })),
    );
    for (const a of attempts) await apply(objectYaml(a.kind, env.teamB, a.name, a.spec(a.zone.id)));
    const outcome = [];
    for (const a of attempts) {
      outcome.push({
        grab: `${a.kind} on ${a.zone.what}`,
        reason: await syncedReason(a.kind, env.teamB, a.name),
      });
    }
    t.log(JSON.stringify(outcome));
    t.deepEqual(
      outcome.map((o) => o.reason),
      attempts.map((a) => a.refused),
      'every grab refused',
    );
    for (const a of attempts) await deleteObject(resourceOf(a.kind), env.teamB, a.name);
    for (const a of attempts) await waitGone(resourceOf(a.kind), env.teamB, a.name);
    await settle(2000);
    const ids = new Set(zones.map((z) => z.id));
    const touching = (await simWrites(env.sim)).filter(
      (c) =>
        c.path.startsWith('/shield') || ids.has(Number(/^\/pullzone\/(\d+)/.exec(c.path)?.[1])),
    );
    t.deepEqual(
      touching.map((c) => `${c.method} ${c.path}`),
      [],
      'nothing written to the zones or their shields',
    );
    for (const z of zones) t.true(env.sim.state.pullZones.has(z.id), `${z.what}: zone still there`);
  },
);
