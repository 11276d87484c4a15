/**
 * The CRD of a kind as tests read it: built from the kind's schema (the generator's output) or
 * as shipped in crds/, and a path walker over its openAPIV3Schema.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { crdOf } from '../../hack/generate-crds.js';
import { type KindModule } from '../../src/controllers/kind-module.js';
import { crdFileOf } from '../../src/controllers/kind-names.js';
import { REPO_ROOT } from './openapi-docs.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking a schema
export type Json = Record<string, any>;

/** The CRD the generator builds for `kind`. */
export async function builtCrd(kind: KindModule): Promise<Json> {
  return await crdOf(kind);
}

/** The CRD shipped in crds/, read as kubectl reads it (YAML 1.1). */
export function shippedCrd(kind: KindModule): Json {
  return parse(readFileSync(join(REPO_ROOT, crdFileOf(kind)), 'utf8'), { version: '1.1' }) as Json;
}

/** The openAPIV3Schema of a CRD. */
export function rootSchema(crd: Json): Json {
  return crd.spec.versions[0].schema.openAPIV3Schema as Json;
}

/** The node at `path` under `node`: property names separated by dots, `[]` for list items. */
export function schemaAt(node: Json, path: string): Json {
  let at = node;
  for (const part of path.split('.')) at = part === '[]' ? at.items : at.properties[part];
  return at;
}

/** Paths (`.spec.edgeRules[].extraActions`) of the properties under `node` without a description. */
export function undescribed(node: Json, path = ''): string[] {
  const missing: string[] = [];
  const properties = (node.properties ?? {}) as Record<string, Json>;
  for (const [name, child] of Object.entries(properties)) {
    if (path === '' && name === 'metadata') continue;
    const at = `${path}.${name}`;
    if (typeof child.description !== 'string' || child.description.trim() === '') missing.push(at);
    missing.push(...undescribed(child, at));
  }
  if (node.items && typeof node.items === 'object')
    missing.push(...undescribed(node.items as Json, `${path}[]`));
  const values = node.additionalProperties;
  if (values && typeof values === 'object')
    missing.push(...undescribed(values as Json, `${path}{}`));
  return missing;
}
