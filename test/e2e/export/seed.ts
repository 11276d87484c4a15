/**
 * Seeds cdn-sim with a mixed account for the export e2e test: 24 pull zones (hostnames, edge
 * rules, enum / boolean / list / class settings, some with secret settings), 12 shield zones
 * with WAF and DDoS settings, 7 container apps (each with a CDN endpoint, which creates one more
 * pull zone) and 3 storage zones. Secret values are unique strings the test greps for.
 */
import type { CdnClient } from '../../../src/cdn/client.js';
import type { EdgeRule } from '../../../src/cdn/types.js';

/** Known secret values by Secret key, per resource name (the test fills the Secrets with them). */
export interface Seeded {
  /** Lowercased pull zone name -> secret setting spec name -> value. */
  zoneSecrets: Map<string, Record<string, string>>;
  /** App name -> variable -> value. */
  appSecrets: Map<string, Record<string, string>>;
  /** Every secret value seeded (never allowed in the export). */
  secretValues: string[];
  /** Resources that export as manifests of the three applied kinds. */
  appliedCount: number;
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
      i % 6 === 0 ? [{ Name: 'thumb', Properties: { width: '120', height: '120' } }] : [],
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

async function seedShield(cdn: CdnClient, pullZoneId: number, i: number): Promise<void> {
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

/** See the module comment. */
export async function seedAccount(cdn: CdnClient): Promise<Seeded> {
  const seeded: Seeded = {
    zoneSecrets: new Map(),
    appSecrets: new Map(),
    secretValues: [],
    appliedCount: 0,
  };
  const zoneIds: number[] = [];
  for (let i = 0; i < 24; i++) zoneIds.push(await seedZone(cdn, i, seeded));
  for (let i = 0; i < 12; i++) await seedShield(cdn, zoneIds[i]!, i);
  for (let i = 0; i < 7; i++) await seedApp(cdn, i, seeded);
  for (let i = 0; i < 3; i++)
    await cdn.addStorageZone({
      Name: `store-${i}`,
      Region: 'DE',
      ReplicationRegions: i > 0 ? ['NY'] : [],
    });
  // Pull zones, the apps' own zones, shield zones, apps, and every storage zone (cdn-sim
  // starts with two of its own besides the three seeded here).
  seeded.appliedCount = 24 + 7 + 12 + 7 + (await cdn.listStorageZones()).length;
  return seeded;
}
