/**
 * Invalid manifest generators for scenario 6. Most cases are derived from the installed
 * PullZoneConfig CRD schema (one wrong-type value per setting, values past every
 * minimum/maximum/maxLength, enum values outside the list), plus hand-written cases: unknown
 * fields, huge strings, unicode and malformed hostnames, CEL rules, and ShieldPolicy /
 * ContainerApp cases when those CRDs are installed. Each case names the field it breaks.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { crdFileOf } from '../../src/controllers/kind-names.js';
import { PULL_ZONE_CONFIG } from '../../src/controllers/pullzoneconfig/kind.js';
import { apiVersionOfKind } from '../../src/controllers/kinds.js';
import { type Manifest } from '../lib/objects.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** One invalid manifest and the field it breaks. */
export interface InvalidCase {
  id: string;
  /** The spec field (dotted, for the message check: its last segment must be named). */
  field: string;
  why: string;
  manifest: Manifest;
}

interface Schema {
  type?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
}

function settingsSchema(): Record<string, Schema> {
  const crd = parse(readFileSync(resolve(ROOT, crdFileOf(PULL_ZONE_CONFIG)), 'utf8')) as {
    spec: { versions: Array<{ schema: { openAPIV3Schema: Schema } }> };
  };
  const spec = crd.spec.versions[0]?.schema.openAPIV3Schema.properties?.spec;
  return spec?.properties?.settings?.properties ?? {};
}

function wrongTypeValue(s: Schema): unknown {
  switch (s.type) {
    case 'boolean':
      return 'yes';
    case 'integer':
    case 'number':
      return 'twelve';
    case 'array':
      return 'not-a-list';
    case 'object':
      return 42;
    default:
      return { nested: true };
  }
}

function pz(
  ns: string,
  id: string,
  spec: Record<string, unknown>,
  settings: Record<string, unknown> = {},
): Manifest {
  return {
    apiVersion: apiVersionOfKind('PullZoneConfig'),
    kind: 'PullZoneConfig',
    metadata: { name: `bad-${id}`.toLowerCase().slice(0, 63), namespace: ns },
    spec: { settings: { originUrl: 'https://origin.example.com', ...settings }, ...spec },
  };
}

function schemaCases(ns: string): InvalidCase[] {
  const out: InvalidCase[] = [];
  for (const [name, s] of Object.entries(settingsSchema())) {
    const field = `spec.settings.${name}`;
    out.push({
      id: `type-${name}`,
      field,
      why: `wrong type for ${s.type}`,
      manifest: pz(ns, `t-${name}`, {}, { [name]: wrongTypeValue(s) }),
    });
    if (s.maximum !== undefined)
      out.push({
        id: `max-${name}`,
        field,
        why: `above maximum ${s.maximum}`,
        manifest: pz(ns, `mx-${name}`, {}, { [name]: s.maximum + 1 }),
      });
    if (s.minimum !== undefined)
      out.push({
        id: `min-${name}`,
        field,
        why: `below minimum ${s.minimum}`,
        manifest: pz(ns, `mn-${name}`, {}, { [name]: s.minimum - 1 }),
      });
    if (s.enum)
      out.push({
        id: `enum-${name}`,
        field,
        why: 'value outside the enum',
        manifest: pz(ns, `e-${name}`, {}, { [name]: 'NotAnOption' }),
      });
    if (s.maxLength !== undefined)
      out.push({
        id: `len-${name}`,
        field,
        why: `longer than ${s.maxLength}`,
        manifest: pz(ns, `l-${name}`, {}, { [name]: 'x'.repeat(s.maxLength + 1) }),
      });
  }
  return out;
}

const HOSTNAMES = [
  'bücher.example.com',
  '例え.テスト',
  'emoji-😀.example.com',
  'under_score.example.com',
  '-leading.example.com',
  'a..b.example.com',
  `${'a'.repeat(64)}.example.com`,
  'no-tld',
  'xn--bcher-kva.example.com.',
  ' spaced.example.com',
];

function handCases(ns: string): InvalidCase[] {
  const out: InvalidCase[] = [
    {
      id: 'unknown-spec-field',
      field: 'spec.bogusField',
      why: 'unknown field',
      manifest: pz(ns, 'u1', { bogusField: 1 }),
    },
    {
      id: 'unknown-setting',
      field: 'spec.settings.notASetting',
      why: 'unknown setting',
      manifest: pz(ns, 'u2', {}, { notASetting: true }),
    },
    {
      id: 'unknown-hostname-field',
      field: 'spec.hostnames[0].colour',
      why: 'unknown field',
      manifest: pz(ns, 'u3', { hostnames: [{ hostname: 'a.example.com', colour: 'red' }] }),
    },
    {
      id: 'deletion-policy',
      field: 'spec.deletionPolicy',
      why: 'enum',
      manifest: pz(ns, 'dp', { deletionPolicy: 'Destroy' }),
    },
    {
      id: 'hostname-policy',
      field: 'spec.hostnamePolicy',
      why: 'enum',
      manifest: pz(ns, 'hp', { hostnamePolicy: 'Some' }),
    },
    {
      id: 'pullzoneid-type',
      field: 'spec.adoption.id',
      why: 'wrong type',
      manifest: pz(ns, 'pid', { adoption: { policy: 'ById', id: 'abc' } }),
    },
    {
      id: 'id-and-name',
      field: 'spec',
      why: 'CEL: adoption.id and name',
      manifest: pz(ns, 'cel', { adoption: { policy: 'ById', id: 5 }, name: 'x' }),
    },
    {
      id: 'huge-origin',
      field: 'spec.settings.originUrl',
      why: '256 KiB string',
      manifest: pz(ns, 'huge1', {}, { originUrl: `https://${'a'.repeat(256 * 1024)}.example.com` }),
    },
    {
      id: 'huge-name',
      field: 'spec.name',
      why: '64 KiB zone name',
      manifest: pz(ns, 'huge2', { name: 'z'.repeat(64 * 1024) }),
    },
    {
      id: 'credentials-ref-type',
      field: 'spec.credentialsRef',
      why: 'wrong type',
      manifest: pz(ns, 'cr', { credentialsRef: 'secret' }),
    },
    {
      id: 'hostnames-type',
      field: 'spec.hostnames',
      why: 'wrong type',
      manifest: pz(ns, 'hn', { hostnames: 'a.example.com' }),
    },
    {
      id: 'cert-type',
      field: 'spec.hostnames[0].certificate.type',
      why: 'enum',
      manifest: pz(ns, 'ct', {
        hostnames: [{ hostname: 'a.example.com', certificate: { type: 'Cheap' } }],
      }),
    },
  ];
  HOSTNAMES.forEach((h, i) =>
    out.push({
      id: `hostname-${i}`,
      field: 'spec.hostnames[0].hostname',
      why: `hostname ${JSON.stringify(h)}`,
      manifest: pz(ns, `h${i}`, { hostnames: [{ hostname: h }] }),
    }),
  );
  return out;
}

function otherKindCases(ns: string, served: string[]): InvalidCase[] {
  const out: InvalidCase[] = [];
  const sp = (id: string, spec: Record<string, unknown>): Manifest => ({
    apiVersion: apiVersionOfKind('ShieldPolicy'),
    kind: 'ShieldPolicy',
    metadata: { name: `bad-sp-${id}`, namespace: ns },
    spec,
  });
  if (served.includes('shieldpolicies')) {
    out.push(
      {
        id: 'sp-both-targets',
        field: 'spec',
        why: 'CEL: exactly one target',
        manifest: sp('both', { pullZoneRef: { name: 'x' }, pullZoneId: 1 }),
      },
      {
        id: 'sp-no-target',
        field: 'spec',
        why: 'CEL: exactly one target',
        manifest: sp('none', { waf: { enabled: true } }),
      },
      {
        id: 'sp-waf-type',
        field: 'spec.waf.enabled',
        why: 'wrong type',
        manifest: sp('waf', { pullZoneId: 1, waf: { enabled: 'on' } }),
      },
      {
        id: 'sp-unknown',
        field: 'spec.firewall',
        why: 'unknown field',
        manifest: sp('unk', { pullZoneId: 1, firewall: {} }),
      },
    );
  }
  const ca = (id: string, spec: Record<string, unknown>): Manifest => ({
    apiVersion: apiVersionOfKind('ContainerApp'),
    kind: 'ContainerApp',
    metadata: { name: `bad-ca-${id}`, namespace: ns },
    spec,
  });
  if (served.includes('containerapps')) {
    out.push(
      {
        id: 'ca-no-templates',
        field: 'spec.containerTemplates',
        why: 'required',
        manifest: ca('nt', { name: 'x', autoScaling: { min: 1, max: 1 } }),
      },
      {
        id: 'ca-scaling-type',
        field: 'spec.autoScaling.min',
        why: 'wrong type',
        manifest: ca('as', {
          name: 'x',
          autoScaling: { min: 'one', max: 1 },
          containerTemplates: [],
        }),
      },
      {
        id: 'ca-unknown',
        field: 'spec.replicas',
        why: 'unknown field',
        manifest: ca('unk', {
          name: 'x',
          replicas: 3,
          autoScaling: { min: 1, max: 1 },
          containerTemplates: [],
        }),
      },
    );
  }
  return out;
}

/** Up to `limit` cases (hand-written and other kinds first, then schema-derived ones). */
export function invalidCases(ns: string, served: string[], limit = 200): InvalidCase[] {
  return [...handCases(ns), ...otherKindCases(ns, served), ...schemaCases(ns)].slice(0, limit);
}
