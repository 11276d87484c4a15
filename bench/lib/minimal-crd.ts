/**
 * The yardstick of the admission bench: for each of our CRDs, a "minimal" CRD with the same
 * names and scope in another API group whose spec and status are free-form objects (no schema,
 * no CEL rules, no defaults). Creating the same objects against it costs what the API server
 * and etcd cost with no validation, so ours / minimal is what our schema adds.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { API_DOMAIN } from '../../src/api-group.js';

/** The group of the minimal CRDs (never served by the operator). */
export const MINIMAL_GROUP = `minimal.bench.${API_DOMAIN}`;

/** One of our CRDs as read from crds/, with the figures the report shows. */
export interface CrdFacts {
  kind: string;
  plural: string;
  group: string;
  version: string;
  namespaced: boolean;
  /** The CRD object as applied. */
  crd: Record<string, unknown>;
  /** Size of its YAML file in bytes. */
  bytes: number;
  /** Number of x-kubernetes-validations rules in the served version's schema. */
  celRules: number;
}

interface CrdSpec {
  group: string;
  scope: string;
  names: { kind: string; plural: string };
  versions: { name: string; served: boolean; storage: boolean; schema?: unknown }[];
}

/** Counts x-kubernetes-validations rules anywhere under `node`. */
export function countCelRules(node: unknown): number {
  if (Array.isArray(node)) return node.reduce<number>((n, v) => n + countCelRules(v), 0);
  if (node === null || typeof node !== 'object') return 0;
  let n = 0;
  for (const [key, value] of Object.entries(node)) {
    n += key === 'x-kubernetes-validations' && Array.isArray(value) ? value.length : 0;
    n += countCelRules(value);
  }
  return n;
}

/**
 * The facts of the CRD in `text` (one YAML document; `source` names it in errors), or undefined
 * when the document is not a CRD.
 */
export function crdFactsOf(text: string, source: string): CrdFacts | undefined {
  const crd = parseAllDocuments(text)[0]?.toJS() as Record<string, unknown> | undefined;
  if (crd?.kind !== 'CustomResourceDefinition') return undefined;
  const spec = crd.spec as CrdSpec;
  const version = spec.versions.find((v) => v.storage) ?? spec.versions[0];
  if (!version) throw new Error(`cannot read CRD ${source}: no version`);
  return {
    kind: spec.names.kind,
    plural: spec.names.plural,
    group: spec.group,
    version: version.name,
    namespaced: spec.scope === 'Namespaced',
    crd,
    bytes: Buffer.byteLength(text),
    celRules: countCelRules(version.schema),
  };
}

/** Reads every CRD in `dir` (one per file). */
export async function readCrds(dir: string): Promise<CrdFacts[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort();
  const out: CrdFacts[] = [];
  for (const file of files) {
    const facts = crdFactsOf(await readFile(join(dir, file), 'utf8'), file);
    if (facts) out.push(facts);
  }
  return out;
}

/**
 * The group of the lone minimal CRD of a kind: a group that serves that kind only. `kubectl
 * apply` parses the OpenAPI document of the object's whole group-version for each object, and
 * that document grows with every kind of the group (about 44 KB of paths per kind before its
 * schema), so the yardstick of a lone CRD is what a one-kind operator's users pay, the
 * same-surface minimal group ({@link MINIMAL_GROUP}) what our schemas add to our API surface.
 */
export function loneGroupOf(facts: CrdFacts): string {
  return `${facts.plural}.lone.bench.${API_DOMAIN}`;
}

/**
 * The group of the bare copy of a kind's CRD ({@link bareCrdOf}): ours without descriptions and
 * CEL rules, alone in its group.
 */
export function bareGroupOf(facts: CrdFacts): string {
  return `${facts.plural}.bare.bench.${API_DOMAIN}`;
}

/** `node` without the keys named in `drop`, at any depth (property names are kept). */
function withoutKeys(node: unknown, drop: readonly string[]): unknown {
  if (Array.isArray(node)) return node.map((v: unknown) => withoutKeys(v, drop));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'properties' && value !== null && typeof value === 'object')
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, schema]) => [
          name,
          withoutKeys(schema, drop),
        ]),
      );
    else if (!drop.includes(key)) out[key] = withoutKeys(value, drop);
  }
  return out;
}

/**
 * Our CRD of `facts` in `group` with every description and CEL rule removed: the same typed
 * schema (types, enums, limits, list keys) with none of its prose. Beside the lone minimal CRD
 * (no schema at all) it splits what kubectl and the apiserver pay for our schema into what its
 * structure costs and what its documentation and CEL rules cost.
 */
export function bareCrdOf(facts: CrdFacts, group: string): Record<string, unknown> {
  const spec = (facts.crd as { spec: CrdSpec }).spec;
  return crdIn(
    facts,
    group,
    spec.versions.map((v) => ({
      ...v,
      schema: withoutKeys(v.schema, ['description', 'x-kubernetes-validations']),
    })),
  );
}

/** A CRD with the names and scope of `facts`, in `group`, serving `versions`. */
function crdIn(facts: CrdFacts, group: string, versions: unknown[]): Record<string, unknown> {
  const spec = (facts.crd as { spec: CrdSpec }).spec;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${facts.plural}.${group}` },
    spec: {
      group,
      scope: spec.scope,
      names: { kind: facts.kind, plural: facts.plural, singular: facts.kind.toLowerCase() },
      versions,
    },
  };
}

/**
 * The minimal CRD of `facts` in `group` (default {@link MINIMAL_GROUP}): same names, scope and
 * version, free-form spec and status.
 */
export function minimalCrdOf(facts: CrdFacts, group = MINIMAL_GROUP): Record<string, unknown> {
  const free = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return crdIn(facts, group, [
    {
      name: facts.version,
      served: true,
      storage: true,
      subresources: { status: {} },
      schema: {
        openAPIV3Schema: { type: 'object', properties: { spec: free, status: free } },
      },
    },
  ]);
}
