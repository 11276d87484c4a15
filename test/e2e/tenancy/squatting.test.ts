/**
 * A refused reference claims nothing (issue 44, item 3), on a real apiserver with the real
 * operator and cdn-sim. Team-b names an item of team-a's by id (a DNS record, a custom WAF
 * rule, a rate limit, an access list, each made outside Kubernetes) beside a zone it may not
 * use (team-a's) or one that does not exist. Its objects are refused and, though older, squat
 * nothing: team-a's own adoption of each item succeeds. On 72f93ad every one of team-a's
 * adoptions failed `AlreadyManaged … by team-b/…`.
 */
import test from 'ava';
import { RATE_SPEC, WAF_SPEC } from '../../support/shield-rule-specs.js';
import { apply } from '../support/kube.js';
import { objectYaml, settle, startTenancyEnv, syncedReason, type TenancyEnv } from './setup.js';
import { LIST_SPEC, outsideItems, teamADnsZone, teamAShield, type OutsideItems } from './team-a.js';

let env: TenancyEnv;

test.before(async () => {
  env = await startTenancyEnv();
});

test.after.always(async () => {
  await env?.stop();
});

/** Team-a's zones and the items on them that no object manages yet. */
interface Items extends OutsideItems {
  dnsZone: number;
  record: number;
  recordName: string;
  shieldZone: number;
}

/** A DNS zone id and a shield zone id that do not exist. */
const NO_DNS_ZONE = 999_999;
const NO_SHIELD_ZONE = 2_000_000_000;

/** One item kind: team-b's spec naming it beside `zone`, and team-a's adoption of it. */
const ITEMS: Array<{
  kind: string;
  squat: (i: Items, zone: number | undefined) => Record<string, unknown>;
  adopt: (i: Items) => Record<string, unknown>;
}> = [
  {
    kind: 'DnsRecord',
    squat: (i, zone) => ({
      dnsZoneId: zone ?? NO_DNS_ZONE,
      adoption: { policy: 'ById', id: i.record },
      type: 'A',
      name: i.recordName,
    }),
    adopt: (i) => ({
      dnsZoneRef: { name: 'zone' },
      adoption: { policy: 'ById', id: i.record },
      type: 'A',
      name: i.recordName,
    }),
  },
  {
    kind: 'ShieldWafRule',
    squat: (i, zone) => ({
      shieldZoneId: zone ?? NO_SHIELD_ZONE,
      adoption: { policy: 'ById', id: i.wafRule },
      ...WAF_SPEC,
    }),
    adopt: (i) => ({
      shieldPolicyRef: { name: 'shield' },
      adoption: { policy: 'ById', id: i.wafRule },
      ...WAF_SPEC,
    }),
  },
  {
    kind: 'ShieldRateLimit',
    squat: (i, zone) => ({
      shieldZoneId: zone ?? NO_SHIELD_ZONE,
      adoption: { policy: 'ById', id: i.rateLimit },
      ...RATE_SPEC,
    }),
    adopt: (i) => ({
      shieldPolicyRef: { name: 'shield' },
      adoption: { policy: 'ById', id: i.rateLimit },
      ...RATE_SPEC,
    }),
  },
  {
    kind: 'ShieldAccessList',
    squat: (i, zone) => ({
      shieldZoneId: zone ?? NO_SHIELD_ZONE,
      adoption: { policy: 'ById', id: i.accessList },
      ...LIST_SPEC,
    }),
    adopt: (i) => ({
      shieldPolicyRef: { name: 'shield' },
      adoption: { policy: 'ById', id: i.accessList },
      ...LIST_SPEC,
    }),
  },
];

/** Team-a's zones and one set of items on them; `tag` keeps the sets apart. */
async function teamAItems(
  dns: { zoneId: number },
  shieldZoneId: number,
  tag: string,
): Promise<Items> {
  const recordName = `squat-${tag}`;
  const record = await env.cdn.addDnsRecord(dns.zoneId, {
    Type: 0,
    Name: recordName,
    Value: '192.0.2.7',
  });
  return {
    dnsZone: dns.zoneId,
    record: Number(record.Id),
    recordName,
    shieldZone: shieldZoneId,
    ...(await outsideItems(env, shieldZoneId, tag)),
  };
}

/** Each squat: beside team-a's zone, or beside a zone that does not exist. */
const SQUATS = ['theirs', 'nowhere'] as const;

test.serial(
  "team-b's refused objects naming team-a's items by id do not keep team-a from adopting them",
  async (t) => {
    t.timeout(5 * 60_000);
    const { teamA, teamB } = env;
    const dns = await teamADnsZone(env, 'zone', 'e2e-squat-a.example');
    const shield = await teamAShield(env, 'shield');
    // One set of items per squat, so each squat is shown to hold nothing on its own.
    const cases = [];
    for (const squat of SQUATS) {
      const items = await teamAItems(dns, shield.shieldZoneId, squat);
      for (const k of ITEMS) {
        const zone = k.kind === 'DnsRecord' ? items.dnsZone : items.shieldZone;
        cases.push({
          ...k,
          items,
          name: `${k.kind.toLowerCase()}-${squat}`,
          squat: k.squat(items, squat === 'theirs' ? zone : undefined),
        });
      }
    }
    for (const c of cases) await apply(objectYaml(c.kind, teamB, c.name, c.squat));
    const refusals = [];
    for (const c of cases) refusals.push(`${c.name}: ${await syncedReason(c.kind, teamB, c.name)}`);
    t.log(refusals.join(', '));
    // Team-a's objects are younger (creationTimestamp has second resolution).
    await settle(1500);
    for (const c of cases) await apply(objectYaml(c.kind, teamA, c.name, c.adopt(c.items)));
    const outcome = [];
    for (const c of cases)
      outcome.push({ adopt: c.name, reason: await syncedReason(c.kind, teamA, c.name) });
    t.deepEqual(
      outcome,
      cases.map((c) => ({ adopt: c.name, reason: 'ReconcileSuccess' })),
      'every adoption by team-a succeeds',
    );
  },
);
