/**
 * The Argo CD health check (deploy/argocd/health.lua) against sample objects of each kind, run
 * the way Argo CD runs it: gopher-lua, the Lua engine Argo CD embeds, with Argo CD's library set
 * and nothing more (base, package and table; `os.time`/`os.date` only through `require("os")`;
 * no `string` library), built from Go by hack/build-binaries.sh (hack/lua, `make test-tools`).
 */
import test from 'ava';
import { apiVersionOf } from '../../../src/controllers/kind-names.js';
import { findKind, KINDS } from '../../../src/controllers/kinds.js';
import { evaluateWithGopherLua, type LuaHealth } from './argocd-lua.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

/** A condition time `seconds` ago, as Kubernetes writes it. */
function ago(seconds: number): string {
  return new Date(Date.now() - seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

interface Sample {
  generation?: number;
  observedGeneration?: number;
  conditions?: Condition[];
  annotations?: Record<string, string>;
  deleting?: boolean;
  noStatus?: boolean;
}

/** Every reconciled kind of the list of kinds, each case run once per kind. */
const RECONCILED = KINDS.filter((k) => k.controller !== undefined).map((k) => k.kind);

/** Observed fields of a kind's status, where the sample shows some. */
const STATUS_EXTRAS: Record<string, Record<string, Json>> = {
  PullZoneConfig: { pullZoneId: 4242, cdnHostname: 'demo.b-cdn.net' },
  ContainerApp: { appId: 'app-1', endpoints: [] },
  ShieldPolicy: { shieldZoneId: 7 },
  StorageZone: { storageZoneId: 9, region: 'DE', hostname: 'storage.bunnycdn.com' },
};

function sampleObject(kind: string, s: Sample): Json {
  const generation = s.generation ?? 3;
  return {
    apiVersion: apiVersionOf(findKind(kind)!),
    kind,
    metadata: {
      name: 'demo',
      namespace: 'default',
      generation,
      ...(s.annotations ? { annotations: s.annotations } : {}),
      ...(s.deleting
        ? { deletionTimestamp: '2025-01-01T00:00:00Z', finalizers: ['cdn.operator.io/finalizer'] }
        : {}),
    },
    spec: {},
    ...(s.noStatus
      ? {}
      : {
          status: {
            ...(STATUS_EXTRAS[kind] ?? {}),
            observedGeneration: s.observedGeneration ?? generation,
            conditions: (s.conditions ?? []).map((c) => ({
              lastTransitionTime: ago(30),
              message: '',
              observedGeneration: generation,
              ...c,
            })) as unknown as Json,
          },
        }),
  };
}

const ready: Condition = { type: 'Ready', status: 'True', reason: 'Available' };
const synced: Condition = { type: 'Synced', status: 'True', reason: 'ReconcileSuccess' };

const cases: { name: string; sample: Sample; status: string; message?: RegExp }[] = [
  {
    name: 'Ready=True and Synced=True for the current generation',
    sample: { conditions: [ready, synced] },
    status: 'Healthy',
  },
  {
    name: 'never reconciled: no status at all',
    sample: { noStatus: true },
    status: 'Progressing',
    message: /Waiting for the operator/,
  },
  {
    name: 'spec changed: status.observedGeneration is behind metadata.generation',
    sample: { generation: 4, observedGeneration: 3, conditions: [ready, synced] },
    status: 'Progressing',
    message: /generation 4/,
  },
  {
    name: 'Ready=True was recorded for an older generation',
    sample: { conditions: [{ ...ready, observedGeneration: 2 }, synced] },
    status: 'Progressing',
    message: /generation 3/,
  },
  {
    name: 'external resource created, not available yet',
    sample: {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'Creating',
          message: 'waiting for it to become available',
        },
        synced,
      ],
    },
    status: 'Progressing',
    message: /^Creating: waiting/,
  },
  {
    name: 'waiting for a referenced object',
    sample: {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'ReferenceNotReady',
          message: 'PullZoneConfig default/site is not Ready',
        },
        {
          type: 'Synced',
          status: 'Unknown',
          reason: 'Waiting',
          message: 'PullZoneConfig default/site is not Ready',
        },
      ],
    },
    status: 'Progressing',
    message: /^ReferenceNotReady: PullZoneConfig default\/site/,
  },
  {
    name: 'transient API outage before the first observation: retrying',
    sample: {
      conditions: [
        { type: 'Synced', status: 'False', reason: 'ApiUnavailable', message: 'HTTP 503' },
        { type: 'Ready', status: 'Unknown', reason: 'Unavailable', message: 'not observed yet' },
      ],
    },
    status: 'Progressing',
    message: /^Retrying: ApiUnavailable: HTTP 503/,
  },
  {
    name: 'rate limited while the resource is available: still Healthy',
    sample: {
      conditions: [
        ready,
        { type: 'Synced', status: 'False', reason: 'RateLimited', message: 'HTTP 429' },
      ],
    },
    status: 'Healthy',
  },
  {
    name: 'invalid spec rejected by the API: terminal',
    sample: {
      conditions: [
        {
          type: 'Synced',
          status: 'False',
          reason: 'InvalidSpec',
          message: 'spec.originUrl: must be a URL',
        },
        { type: 'Ready', status: 'Unknown', reason: 'Unavailable' },
      ],
    },
    status: 'Degraded',
    message: /^InvalidSpec: spec\.originUrl: must be a URL$/,
  },
  {
    name: 'API key rejected: terminal until the Secret is fixed',
    sample: {
      conditions: [
        {
          type: 'Synced',
          status: 'False',
          reason: 'Unauthorized',
          message: 'the API key was rejected',
        },
        { type: 'Ready', status: 'Unknown', reason: 'Unavailable' },
      ],
    },
    status: 'Degraded',
    message: /^Unauthorized:/,
  },
  {
    name: 'a terminal error while the old spec is still served: Degraded wins over Ready',
    sample: {
      conditions: [ready, { type: 'Synced', status: 'False', reason: 'NotFound', message: 'gone' }],
    },
    status: 'Degraded',
    message: /^NotFound: gone$/,
  },
  {
    name: 'a kind-specific terminal reason the script does not know',
    sample: {
      conditions: [{ type: 'Synced', status: 'False', reason: 'HostnameTaken', message: 'in use' }],
    },
    status: 'Degraded',
    message: /HostnameTaken/,
  },
  {
    name: 'API error on an update of a Ready object: the error is shown, not hidden',
    sample: {
      conditions: [
        { ...ready, observedGeneration: 2 },
        { type: 'Synced', status: 'False', reason: 'ApiUnavailable', message: 'HTTP 502' },
      ],
    },
    status: 'Progressing',
    message: /^Retrying: ApiUnavailable: HTTP 502$/,
  },
  {
    name: 'API error on an update lasting minutes: Degraded with the error',
    sample: {
      conditions: [
        { ...ready, observedGeneration: 2 },
        {
          type: 'Synced',
          status: 'False',
          reason: 'ApiUnavailable',
          message: 'HTTP 502',
          lastTransitionTime: ago(600),
        },
      ],
    },
    status: 'Degraded',
    message: /^Failing since .*Z: ApiUnavailable: HTTP 502$/,
  },
  {
    name: 'transient API outage before the first observation lasting minutes: Degraded',
    sample: {
      conditions: [
        {
          type: 'Synced',
          status: 'False',
          reason: 'ApiUnavailable',
          message: 'HTTP 503',
          lastTransitionTime: ago(301 + 5),
        },
        { type: 'Ready', status: 'Unknown', reason: 'Unavailable', message: 'not observed yet' },
      ],
    },
    status: 'Degraded',
    message: /ApiUnavailable: HTTP 503/,
  },
  {
    name: 'rate limited for minutes while available: Degraded',
    sample: {
      conditions: [
        ready,
        {
          type: 'Synced',
          status: 'False',
          reason: 'RateLimited',
          message: 'HTTP 429',
          lastTransitionTime: ago(3600),
        },
      ],
    },
    status: 'Degraded',
    message: /RateLimited: HTTP 429/,
  },
  {
    name: 'outputs Secret refused while the zone is Ready: Degraded with the reason',
    sample: {
      conditions: [
        ready,
        synced,
        {
          type: 'OutputsReady',
          status: 'False',
          reason: 'SecretNotOwned',
          message: 'not controlled by this PullZoneConfig',
        },
      ],
    },
    status: 'Degraded',
    message: /^SecretNotOwned: /,
  },
  {
    name: 'outputs Secret write failed once: still Healthy until it persists',
    sample: {
      conditions: [
        ready,
        synced,
        { type: 'OutputsReady', status: 'False', reason: 'WriteFailed', message: 'HTTP 409' },
      ],
    },
    status: 'Healthy',
  },
  {
    name: 'outputs written',
    sample: {
      conditions: [
        ready,
        synced,
        { type: 'OutputsReady', status: 'True', reason: 'OutputsWritten', message: 'ok' },
      ],
    },
    status: 'Healthy',
  },
  {
    name: 'a custom hostname waits for its certificate (DNS elsewhere) while the zone serves: Healthy, named in the message',
    sample: {
      conditions: [
        ready,
        synced,
        {
          type: 'CertificatesReady',
          status: 'False',
          reason: 'CertificatePending',
          message: 'the DNS of cdn.shop.example.com does not point to the pull zone yet',
          lastTransitionTime: ago(3600),
        },
      ],
    },
    status: 'Healthy',
    message: /^Ready; CertificatePending: the DNS of cdn\.shop\.example\.com/,
  },
  {
    name: 'certificates issued',
    sample: {
      conditions: [
        ready,
        synced,
        { type: 'CertificatesReady', status: 'True', reason: 'CertificatesIssued' },
      ],
    },
    status: 'Healthy',
    message: /^Ready$/,
  },
  {
    name: 'a pending certificate does not hide a terminal sync error',
    sample: {
      conditions: [
        ready,
        { type: 'Synced', status: 'False', reason: 'InvalidSpec', message: 'spec.hostnames[0]' },
        { type: 'CertificatesReady', status: 'False', reason: 'CertificatePending' },
      ],
    },
    status: 'Degraded',
    message: /^InvalidSpec: /,
  },
  {
    name: 'paused by annotation',
    sample: { annotations: { 'cdn.operator.io/paused': 'true' }, conditions: [ready, synced] },
    status: 'Suspended',
    message: /paused/,
  },
  {
    name: 'paused recorded in Synced (annotation removed, not yet reconciled again)',
    sample: {
      conditions: [
        ready,
        {
          type: 'Synced',
          status: 'False',
          reason: 'ReconcilePaused',
          message: 'Reconciliation is paused',
        },
      ],
    },
    status: 'Suspended',
  },
  {
    name: 'dry-run with planned changes',
    sample: {
      annotations: { 'cdn.operator.io/dry-run': 'true' },
      conditions: [
        ready,
        { type: 'Synced', status: 'False', reason: 'DryRun', message: '2 planned changes' },
      ],
    },
    status: 'Suspended',
    message: /Dry-run mode: 2 planned changes/,
  },
  {
    name: 'being deleted',
    sample: {
      deleting: true,
      conditions: [{ type: 'Ready', status: 'False', reason: 'Deleting' }, synced],
    },
    status: 'Progressing',
    message: /Deleting/,
  },
];

const kinds = RECONCILED;
const samples = kinds.flatMap((kind) => cases.map((c) => sampleObject(kind, c.sample)));
// One gopher-lua process for every sample.
let gopher: Promise<LuaHealth[]> | undefined;
const gopherHealth = (i: number): Promise<LuaHealth> =>
  (gopher ??= evaluateWithGopherLua(samples)).then((all) => all[i]!);

kinds.forEach((kind, k) => {
  cases.forEach((c, i) => {
    test(`${kind}: ${c.name} -> ${c.status}`, async (t) => {
      const health = await gopherHealth(k * cases.length + i);
      t.is(health.error, undefined, 'the script must not raise an error');
      t.is(health.status, c.status, health.message);
      if (c.message) t.regex(health.message ?? '', c.message);
    });
  });
});

test('gopher-lua without the string library: the script needs none (Argo CD default)', async (t) => {
  const [health] = await evaluateWithGopherLua([
    sampleObject('PullZoneConfig', {
      conditions: [
        { ...ready, observedGeneration: 2 },
        {
          type: 'Synced',
          status: 'False',
          reason: 'ApiUnavailable',
          message: 'HTTP 502',
          lastTransitionTime: ago(900),
        },
      ],
    }),
  ]);
  t.is(health?.error, undefined);
  t.is(health?.status, 'Degraded');
});

test('the script fails loudly on a malformed object rather than reporting Healthy', async (t) => {
  const [health] = await evaluateWithGopherLua([{ kind: 'PullZoneConfig' }]);
  t.truthy(health?.error, JSON.stringify(health));
});

/** CdnPolicy (issue 51): Healthy only when every generated object is Ready; a refusal is Degraded. */
const POLICY_CASES: Array<{
  name: string;
  conditions: Condition[];
  status: string;
  message: RegExp;
}> = [
  {
    name: 'every generated object Ready',
    conditions: [
      { type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration: 3 },
      { type: 'Ready', status: 'True', reason: 'Ready', observedGeneration: 3 },
    ],
    status: 'Healthy',
    message: /^Ready$/,
  },
  {
    name: 'a generated object not Ready yet',
    conditions: [
      { type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration: 3 },
      {
        type: 'Ready',
        status: 'False',
        reason: 'Progressing',
        message: 'not Ready yet: DnsRecord x',
        observedGeneration: 3,
      },
    ],
    status: 'Progressing',
    message: /DnsRecord x/,
  },
  {
    name: 'a hostname outside its zones',
    conditions: [
      {
        type: 'Accepted',
        status: 'False',
        reason: 'HostnameNotInZones',
        message: 'hostname www.other.org',
        observedGeneration: 3,
      },
      { type: 'Ready', status: 'True', reason: 'Ready', observedGeneration: 3 },
    ],
    status: 'Degraded',
    message: /^HostnameNotInZones: /,
  },
];

test('CdnPolicy: Healthy only when every generated object is Ready, Degraded on a refusal', async (t) => {
  const all = await evaluateWithGopherLua(
    POLICY_CASES.map((c) => sampleObject('CdnPolicy', { conditions: c.conditions })),
  );
  POLICY_CASES.forEach((c, i) => {
    t.is(all[i]?.error, undefined, c.name);
    t.is(all[i]?.status, c.status, c.name);
    t.regex(all[i]?.message ?? '', c.message, c.name);
  });
});
