/**
 * Team-a's side of the tenancy attacks (issue 44): a DNS zone its DnsZone manages, a shield zone
 * its ShieldPolicy manages, and items on that shield zone made outside Kubernetes (a custom WAF
 * rule, a rate limit, an access list) that no object manages: what team-b names by id.
 */
import { RATE_LIMIT_FAMILY } from '../../../src/controllers/shieldratelimit/family.js';
import { WAF_RULE_FAMILY } from '../../../src/controllers/shieldwafrule/family.js';
import { desiredConfiguration, RATE_SPEC, WAF_SPEC } from '../../support/shield-rule-specs.js';
import { apply } from '../support/kube.js';
import { adoptShieldPolicy, seedShieldZone, type SeededZone } from '../support/shield-zones.js';
import { appSpec, objectYaml, resourceOf, waitCondition, type TenancyEnv } from './setup.js';

/** An access list spec (a CIDR list that blocks). */
export const LIST_SPEC = { type: 'CIDR', entries: ['198.51.100.0/24'], action: 'Block' };

/** A DnsZone `name` in team-a for `domain` with one inline A record `www`; its ids. */
export async function teamADnsZone(
  env: TenancyEnv,
  name: string,
  domain: string,
): Promise<{ zoneId: number; recordId: number }> {
  const records = [{ type: 'A', name: 'www', value: '192.0.2.80' }];
  await apply(objectYaml('DnsZone', env.teamA, name, { domain, records }));
  const zone = await waitCondition(resourceOf('DnsZone'), env.teamA, name, 'Ready', 'True');
  const recorded = (zone.status?.records ?? []) as Array<{ id?: number }>;
  return { zoneId: Number(zone.status?.dnsZoneId), recordId: Number(recorded[0]?.id) };
}

/**
 * Team-a's objects whose pull zones the platform makes, Ready: DnsRecord `fast` accelerated (in
 * a DnsZone `zone` of `domain`) and ContainerApp `edge` with a CDN endpoint `public` (container
 * `web`); the ids of those zones.
 */
export async function teamAMadeZones(
  env: TenancyEnv,
  domain: string,
): Promise<{ record: number; app: number }> {
  const { teamA } = env;
  await teamADnsZone(env, 'zone', domain);
  await apply(
    objectYaml('DnsRecord', teamA, 'fast', {
      dnsZoneRef: { name: 'zone' },
      type: 'A',
      name: 'fast',
      value: '192.0.2.10',
      accelerated: true,
    }),
  );
  const endpoints = [{ displayName: 'public', cdn: { portMappings: [{ containerPort: 80 }] } }];
  await apply(objectYaml('ContainerApp', teamA, 'edge', appSpec('edge', {}, { endpoints })));
  const rec = await waitCondition(resourceOf('DnsRecord'), teamA, 'fast', 'Ready', 'True');
  const app = await waitCondition(
    resourceOf('ContainerApp'),
    teamA,
    'edge',
    'Ready',
    'True',
    undefined,
    90_000,
  );
  const containers = (app.status?.containers ?? []) as Array<{
    endpoints?: Array<{ pullZoneId?: string | number }>;
  }>;
  return {
    record: Number(rec.status?.acceleratedPullZoneId),
    app: Number(containers[0]?.endpoints?.[0]?.pullZoneId),
  };
}

/** A shield zone (Enterprise plan) whose ShieldPolicy `name` lives in team-a. */
export async function teamAShield(env: TenancyEnv, name: string): Promise<SeededZone> {
  const zone = await seedShieldZone(env.sim, `e2e-${name}`, 3);
  await adoptShieldPolicy(env.teamA, name, zone.pullZoneId);
  return zone;
}

/** Items on shield zone `shieldZoneId` that no object manages, made outside Kubernetes. */
export interface OutsideItems {
  wafRule: number;
  rateLimit: number;
  accessList: number;
}

/** Makes one of each {@link OutsideItems} on the zone; `tag` keeps names apart. */
export async function outsideItems(
  env: TenancyEnv,
  shieldZoneId: number,
  tag: string,
): Promise<OutsideItems> {
  const rule = (family: typeof WAF_RULE_FAMILY, spec: Record<string, unknown>): Promise<number> =>
    family
      .api(env.cdn)
      .create({
        shieldZoneId,
        ruleName: `outside-${family.names.kind.toLowerCase()}-${tag}`,
        ruleConfiguration: desiredConfiguration(family.members, spec),
      })
      .then((r) => Number(r.id));
  const list = await env.cdn.createCustomAccessList(shieldZoneId, {
    name: `outside-list-${tag}`,
    type: 1,
    content: LIST_SPEC.entries.join('\n'),
  });
  return {
    wafRule: await rule(WAF_RULE_FAMILY, WAF_SPEC),
    rateLimit: await rule(RATE_LIMIT_FAMILY, RATE_SPEC),
    accessList: Number(list.id),
  };
}
