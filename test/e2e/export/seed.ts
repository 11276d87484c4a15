/**
 * Seeds cdn-sim with an account holding every kind cdnctl exports, for the export e2e test: 24
 * pull zones (hostnames, edge rules, enum / boolean / list / class settings, some with secret
 * settings), 12 shield zones with WAF and DDoS settings, a custom WAF rule, a rate limit and a
 * custom access list on one of them, a private container registry, 7 container apps (each with
 * a CDN endpoint, which creates one more pull zone), 3 storage zones, and two DNS zones: one
 * signed with custom nameservers, logging and records of many types (a PullZone record linking
 * a pull zone among them), one plain, and a published middleware script with a variable (its
 * code exports as a ConfigMap beside it). Secret values are unique strings the test greps for.
 */
import type { CdnClient } from '../../../src/cdn/client.js';
import type { DnsRecordAddRequest } from '../../../src/cdn/dns-types.js';
import type { EdgeRule } from '../../../src/cdn/types.js';
import { RATE_LIMIT_FAMILY } from '../../../src/controllers/shieldratelimit/family.js';
import { WAF_RULE_FAMILY } from '../../../src/controllers/shieldwafrule/family.js';
import { desiredConfiguration, RATE_SPEC, WAF_SPEC } from '../../support/shield-rule-specs.js';

/** Known secret values by Secret key, per resource name (the test fills the Secrets with them). */
export interface Seeded {
  /** Lowercased pull zone name -> secret setting spec name -> value. */
  zoneSecrets: Map<string, Record<string, string>>;
  /** App name -> variable -> value. */
  appSecrets: Map<string, Record<string, string>>;
  /** Registry display name -> `{ password }` (the export names a Secret per registry). */
  registrySecrets: Map<string, Record<string, string>>;
  /** Every secret value seeded (never allowed in the export). */
  secretValues: string[];
  /** Resources that export as manifests (every exported kind). */
  appliedCount: number;
  /** ConfigMaps the export writes beside them (an edge script's code). */
  configMaps: number;
}

const RULES: EdgeRule[] = [
  {
    ActionType: 1,
    ActionParameter1: 'https://new.example/landing',
    ActionParameter2: '301',
    Triggers: [{ Type: 0, PatternMatches: ['*/old/*'], PatternMatchingType: 0 }],
    TriggerMatchingType: 0,
    Description: 'Redirect old pages',
    Enabled: true,
  },
  {
    ActionType: 5,
    ActionParameter1: 'X-Frame-Options',
    ActionParameter2: 'DENY',
    Triggers: [{ Type: 3, PatternMatches: ['html', 'htm'], PatternMatchingType: 0 }],
    TriggerMatchingType: 1,
    Description: '',
    Enabled: false,
  },
  {
    ActionType: 4,
    Triggers: [
      { Type: 4, PatternMatches: ['KP'], PatternMatchingType: 0 },
      { Type: 1, PatternMatches: ['bot*'], PatternMatchingType: 2, Parameter1: 'User-Agent' },
    ],
    TriggerMatchingType: 2,
    Description: 'Block',
    Enabled: true,
  },
  {
    ActionType: 3,
    ActionParameter1: '86400',
    Triggers: [{ Type: 0, PatternMatches: ['*/static/*'], PatternMatchingType: 0 }],
    TriggerMatchingType: 0,
    Description: 'block',
    Enabled: true,
  },
];

function zoneSettings(i: number): Record<string, unknown> {
  return {
    OriginUrl: `https://origin-${i}.example`,
    EnableLogging: i % 2 === 0,
    IpFamilyPolicy: i % 4,
    Type: i % 2,
    TlsSecurityLevel: i % 3,
    StickySessionType: i % 2,
    LogFormat: i % 2,
    EnableGeoZoneASIA: i % 3 !== 0,
    BlockedCountries: i % 3 === 0 ? ['KP', 'IR'] : [],
    AllowedReferrers: i % 5 === 0 ? [`ref-${i}.example`] : [],
    CacheControlMaxAgeOverride: i % 2 === 0 ? 3600 : -1,
    OptimizerClasses:
      i % 6 === 0
        ? [
            {
              Name: 'thumb',
              // Typed members (quality, crop_gravity, sharpen) and one without (face_crop).
              Properties: {
                width: '120',
                height: '120',
                quality: '80',
                crop_gravity: 'north',
                sharpen: 'true',
                face_crop: '100,100',
              },
            },
          ]
        : [],
    ErrorPageCustomCode: i % 7 === 0 ? '<h1>on</h1>' : null,
  };
}

function secretSettingsOf(i: number): Record<string, string> {
  if (i % 8 === 1) {
    return { awsSigningKey: `AKIASEED${i}KEY`, awsSigningSecret: `seed-secret-${i}-aws` };
  }
  if (i % 8 === 5) return { logForwardingToken: `seed-secret-${i}-token` };
  return {};
}

const SECRET_API: Record<string, string> = {
  awsSigningKey: 'AWSSigningKey',
  awsSigningSecret: 'AWSSigningSecret',
  logForwardingToken: 'LogForwardingToken',
};

async function seedZone(cdn: CdnClient, i: number, seeded: Seeded): Promise<number> {
  const name = i === 3 ? 'Zone-Upper-3' : `zone-${i}`;
  const secrets = secretSettingsOf(i);
  const secretWire = Object.fromEntries(
    Object.entries(secrets).map(([k, v]) => [SECRET_API[k] ?? k, v]),
  );
  const extra = secrets.awsSigningKey ? { AWSSigningEnabled: true } : {};
  const zone = await cdn.addPullZone({
    Name: name,
    ...zoneSettings(i),
    ...secretWire,
    ...extra,
  });
  const id = Number(zone.Id);
  if (Object.keys(secrets).length > 0) {
    seeded.zoneSecrets.set(name.toLowerCase(), secrets);
    seeded.secretValues.push(...Object.values(secrets));
  }
  for (let h = 0; h < i % 3; h++) {
    const host = `www${h}.site-${i}.example`;
    await cdn.addHostname(id, host);
    if (h === 0 && i % 2 === 0) await cdn.setForceSSL(id, host, true);
  }
  for (let r = 0; r < i % 5; r++) await cdn.addOrUpdateEdgeRule(id, RULES[r % RULES.length]!);
  return id;
}

async function seedShield(cdn: CdnClient, pullZoneId: number, i: number): Promise<number> {
  // Zones whose bot detection or upload scanning is changed below need a plan that has them
  // (cdn-sim: Advanced or higher).
  const features = i % 3 === 1 || i % 4 === 1;
  const zone = await cdn.createShieldZone({
    pullZoneId,
    shieldZone: {
      planType: features ? 1 : 0,
      learningMode: i % 2 === 0,
      wafEnabled: i % 3 !== 0,
      wafExecutionMode: i % 2,
      wafDisabledRules: i % 4 === 0 ? ['913100', '920350'] : [],
      wafRequestHeaderLoggingEnabled: i % 2 === 1,
      dDoSShieldSensitivity: i % 5,
      dDoSChallengeWindow: 1800,
      whitelabelResponsePages: i % 2 === 0,
    },
  } as never);
  // Bot detection and upload scanning away from their defaults on some zones (issue 34).
  const shieldZoneId = Number(zone.shieldZoneId);
  if (i % 3 === 1) {
    await cdn.updateBotDetection(shieldZoneId, {
      executionMode: 1,
      browserFingerprint: {
        sensitivity: 3,
        aggression: ([0, 1, 2, 3, 4] as const)[i % 5],
        complexEnabled: true,
      },
    });
  }
  if (i % 4 === 1) {
    await cdn.updateUploadScanning(shieldZoneId, { isEnabled: true, antivirusScanningMode: 2 });
  }
  return shieldZoneId;
}

/** One custom WAF rule, one rate limit and one custom access list on the zone (3 objects). */
async function seedShieldRules(cdn: CdnClient, shieldZoneId: number): Promise<void> {
  await cdn.createCustomWafRule({
    shieldZoneId,
    ruleName: 'block-admin',
    ruleDescription: 'No admin from outside',
    ruleConfiguration: desiredConfiguration(WAF_RULE_FAMILY.members, WAF_SPEC),
  });
  await cdn.createRateLimit({
    shieldZoneId,
    ruleName: 'login-limit',
    ruleConfiguration: desiredConfiguration(RATE_LIMIT_FAMILY.members, RATE_SPEC),
  });
  await cdn.createCustomAccessList(shieldZoneId, {
    name: 'office',
    type: 0,
    content: '192.0.2.1\n198.51.100.7',
  });
}

/** A private registry (the platform's public ones are not exported). */
async function seedRegistry(cdn: CdnClient, seeded: Seeded): Promise<void> {
  const password = 'seed-secret-registry-token';
  await cdn.addRegistry({
    displayName: 'ghcr-shop',
    type: 'gitHub',
    passwordCredentials: { userName: 'shop-bot', password },
  } as never);
  seeded.registrySecrets.set('ghcr-shop', { password });
  seeded.secretValues.push(password);
}

/** Records of the signed zone: one of many types, a PullZone record linking `pullZoneId`. */
function shopRecords(pullZoneId: number): DnsRecordAddRequest[] {
  return [
    { Type: 0, Name: '', Value: '192.0.2.10', Ttl: 3600 },
    { Type: 1, Name: 'www', Value: '2001:db8::10', Weight: 50 },
    { Type: 2, Name: 'cdn', Value: 'zone-2.b-cdn.net' },
    { Type: 3, Name: '', Value: 'v=spf1 include:_spf.shop.example -all' },
    { Type: 4, Name: '', Value: 'mail.shop.example', Priority: 10 },
    { Type: 8, Name: '_sip._tcp', Value: 'sip.shop.example', Priority: 10, Weight: 5, Port: 5060 },
    { Type: 9, Name: '', Value: 'letsencrypt.org', Flags: 0, Tag: 'issue' },
    { Type: 7, Name: 'static', Value: '', PullZoneId: pullZoneId },
  ];
}

/** A signed zone with custom nameservers, logging and records; a plain one with one record. */
async function seedDns(cdn: CdnClient, pullZoneId: number): Promise<void> {
  const shop = Number((await cdn.addDnsZone({ Domain: 'shop.example' })).Id);
  await cdn.updateDnsZone(shop, {
    CustomNameserversEnabled: true,
    Nameserver1: 'ns1.shop.example',
    Nameserver2: 'ns2.shop.example',
    SoaEmail: 'dns@shop.example',
    LoggingEnabled: true,
    LogAnonymizationType: 1,
    CertificateKeyType: 1,
  });
  await cdn.enableDnsSec(shop);
  for (const record of shopRecords(pullZoneId)) await cdn.addDnsRecord(shop, record);
  const plain = Number((await cdn.addDnsZone({ Domain: 'plain.example' })).Id);
  await cdn.addDnsRecord(plain, { Type: 0, Name: 'www', Value: '192.0.2.20' });
}

/** Exported objects of the DNS kinds: one per zone and one per record. */
async function dnsObjectCount(cdn: CdnClient): Promise<number> {
  const zones = await cdn.listDnsZones();
  let records = 0;
  for (const z of zones) records += (await cdn.listDnsRecords(Number(z.Id))).length;
  return zones.length + records;
}

async function seedApp(cdn: CdnClient, i: number, seeded: Seeded): Promise<void> {
  const name = `app-${i}`;
  const password = `seed-secret-${i}-db`;
  seeded.appSecrets.set(name, { DB_PASSWORD: password });
  seeded.secretValues.push(password);
  await cdn.createApp({
    name,
    runtimeType: 'shared',
    autoScaling: { min: 1, max: 1 + (i % 3) },
    regionSettings: {
      allowedRegionIds: ['DE', 'NY'].slice(0, 1 + (i % 2)),
      requiredRegionIds: ['DE'],
    },
    containerTemplates: [
      {
        name: 'web',
        imageName: 'nginx',
        imageNamespace: 'library',
        imageTag: `1.2${i}`,
        imageRegistryId: 'dockerhub',
        imagePullPolicy: i % 2 === 0 ? 'always' : 'ifNotPresent',
        environmentVariables: [
          { name: 'MODE', value: i % 2 === 0 ? 'on' : 'yes' },
          { name: 'DB_PASSWORD', value: password },
        ],
        probes: {
          readiness: {
            periodSeconds: 5,
            httpGet: {
              request: { path: '/healthz', portNumber: 80 },
              response: { expectedStatusCode: 'ok' },
            },
          },
        },
        endpoints: [
          {
            displayName: 'public',
            cdn: { isSslEnabled: true, portMappings: [{ containerPort: 80 }] },
          },
        ],
      },
    ],
    volumes: [],
  } as never);
}

/**
 * A published middleware script with a variable. No secret: `spec.secrets` is applied with
 * kubectl's strict validation here (test/e2e/edgescript/export.test.ts covers secrets).
 */
async function seedEdgeScript(cdn: CdnClient): Promise<void> {
  const code = 'export default function handler() {\n\treturn new Response("edge");\n}\n';
  const id = Number((await cdn.addEdgeScript({ Name: 'edge', ScriptType: 2, Code: code })).Id);
  await cdn.upsertEdgeScriptVariable(id, { Name: 'MODE', DefaultValue: 'Off' });
  await cdn.publishEdgeScript(id, {});
}

/** See the module comment. */
export async function seedAccount(cdn: CdnClient): Promise<Seeded> {
  const seeded: Seeded = {
    zoneSecrets: new Map(),
    appSecrets: new Map(),
    registrySecrets: new Map(),
    secretValues: [],
    appliedCount: 0,
    configMaps: 0,
  };
  // cdn-sim's seeded video library has no pull zone or storage zone of its own (a library on the
  // platform always has both): its PULLZONE and HOSTNAME columns would stay empty.
  for (const library of await cdn.listVideoLibraries()) await cdn.deleteVideoLibrary(library.Id!);
  const zoneIds: number[] = [];
  for (let i = 0; i < 24; i++) zoneIds.push(await seedZone(cdn, i, seeded));
  const shieldZoneIds: number[] = [];
  for (let i = 0; i < 12; i++) shieldZoneIds.push(await seedShield(cdn, zoneIds[i]!, i));
  // Zone 1 is on a plan with custom WAF rules.
  await seedShieldRules(cdn, shieldZoneIds[1]!);
  await seedRegistry(cdn, seeded);
  for (let i = 0; i < 7; i++) await seedApp(cdn, i, seeded);
  for (let i = 0; i < 3; i++)
    await cdn.addStorageZone({
      Name: `store-${i}`,
      Region: 'DE',
      ReplicationRegions: i > 0 ? ['NY'] : [],
    });
  await seedDns(cdn, zoneIds[2]!);
  await seedEdgeScript(cdn);
  // Pull zones, the apps' own zones, shield zones, the three shield rules and lists, the
  // registry, apps, every storage zone (cdn-sim starts with two of its own besides the three
  // seeded here), and the DNS zones with their records.
  const storage = (await cdn.listStorageZones()).length;
  seeded.appliedCount = 24 + 7 + 12 + 3 + 1 + 7 + storage + (await dnsObjectCount(cdn)) + 1;
  seeded.configMaps = 1;
  return seeded;
}
