/**
 * Maps a field named in a platform validation error (a path into the body the operator sent,
 * e.g. `containerTemplates[0].endpoints[1].cdn.pullZoneId`) back to the spec path a user edits
 * (`spec.containerTemplates[web].endpoints[http].cdn.pullZoneRef`).
 *
 * Every body the operator sends (create, PATCH, PUT) lists containers, endpoints, volumes,
 * environment variables and volume mounts in desired (spec) order, so an index in the error
 * is an index into the desired app.
 */
import type { DesiredApp } from './mapping.js';
import type { ContainerAppSpec, EndpointSpec } from './types.js';

type Token = { name: string } | { index: number };

/** `$.A[0].b` / `/a/0/b` / `a[0].b` -> tokens, names with a lower-case first letter. */
export function tokenizeField(field: string): Token[] {
  const text = field.startsWith('/') ? field.split('/').join('.') : field.replace(/^\$\.?/, '');
  const tokens: Token[] = [];
  for (const m of text.matchAll(/\[(\d+)\]|([^.[\]]+)/g)) {
    if (m[1] !== undefined) tokens.push({ index: Number(m[1]) });
    else if (/^\d+$/.test(m[2]!)) tokens.push({ index: Number(m[2]) });
    else tokens.push({ name: m[2]!.charAt(0).toLowerCase() + m[2]!.slice(1) });
  }
  return tokens;
}

/** The names the mapping needs, copied out of the desired app (no values are kept). */
interface Skeleton {
  containers: { name: string; endpoints: string[]; env: string[]; mounts: string[] }[];
  volumes: string[];
}

function skeletonOf(desired: DesiredApp): Skeleton {
  return {
    containers: desired.containerTemplates.map((c) => ({
      name: c.name,
      endpoints: (c.endpoints ?? []).map((e) => e.displayName),
      env: (c.environmentVariables ?? []).map((v) => v.name),
      mounts: (c.volumeMounts ?? []).map((m) => m.mountPath),
    })),
    volumes: desired.volumes.map((v) => v.name),
  };
}

interface Scope {
  container?: Skeleton['containers'][number];
  endpointSpec?: EndpointSpec;
}

type Namer = (i: number, scope: Scope) => { label: string; scope: Scope } | undefined;

function labelled(
  label: string | undefined,
  scope: Scope,
): { label: string; scope: Scope } | undefined {
  return label === undefined ? undefined : { label, scope };
}

function namers(sk: Skeleton, spec: ContainerAppSpec): Record<string, Namer> {
  return {
    containerTemplates: (i) => {
      const c = sk.containers[i];
      return c && { label: c.name, scope: { container: c } };
    },
    volumes: (i) => labelled(sk.volumes[i], {}),
    endpoints: (i, s) => {
      const name = s.container?.endpoints[i];
      if (name === undefined) return undefined;
      const c = spec.containerTemplates.find((x) => x.name === s.container?.name);
      const endpointSpec = c?.endpoints?.find((x) => x.displayName === name);
      return { label: name, scope: { ...s, endpointSpec } };
    },
    environmentVariables: (i, s) => labelled(s.container?.env[i], s),
    volumeMounts: (i, s) => labelled(s.container?.mounts[i], s),
  };
}

interface Walk {
  out: string;
  scope: Scope;
  /** The list the next index belongs to. */
  list?: string;
}

/** Platform members the spec names otherwise. */
const SPEC_NAMES: Readonly<Record<string, string>> = {
  isSslEnabled: 'sslEnabled',
  size: 'sizeGigabytes',
};

function stepName(walk: Walk, name: string): void {
  if (name === 'body') return;
  // A pull zone given by reference is written as pullZoneRef in the spec.
  const shown = name === 'pullZoneId' && walk.scope.endpointSpec?.cdn?.pullZoneRef;
  walk.out += `.${shown ? 'pullZoneRef' : (SPEC_NAMES[name] ?? name)}`;
  walk.list = name;
}

function stepIndex(walk: Walk, index: number, byList: Record<string, Namer>): void {
  const named = walk.list ? byList[walk.list]?.(index, walk.scope) : undefined;
  if (named) walk.scope = named.scope;
  walk.out += `[${named ? named.label : index}]`;
  walk.list = undefined;
}

/**
 * Returns a function mapping an API field to a spec path. Unknown shapes keep their indices;
 * an empty or whole-body field maps to `spec`.
 */
export function specPathForField(
  desired: DesiredApp,
  spec: ContainerAppSpec,
): (apiField: string) => string {
  const byList = namers(skeletonOf(desired), spec);
  return (apiField) => {
    const walk: Walk = { out: 'spec', scope: {} };
    for (const t of tokenizeField(apiField)) {
      if ('name' in t) stepName(walk, t.name);
      else stepIndex(walk, t.index, byList);
    }
    return walk.out;
  };
}
