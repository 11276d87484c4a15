/**
 * One edge script as `cdnctl export` writes it (pure: export.ts reads the account): an
 * EdgeScript that adopts the script by id, and beside it a ConfigMap `<object>-code` holding
 * the code, byte for byte, under key `code` (the code is compared by SHA-256, so one changed
 * byte would be an upload). Variables become `spec.env` literals (their default values);
 * secrets become `spec.secrets` entries naming keys of a Secret `<object>-secrets` the user
 * creates (the platform never returns a secret's value, so none is ever exported). The publish
 * policy is the one under which applying the export publishes nothing: `Always` when the live
 * release holds the code, else `Held` pinned to the live release (if any), with a note.
 */
import { adoptionById } from '../shared/ownership-schema.js';
import type { EdgeScriptSecret, EdgeScriptVariable } from '../../cdn/edge-script-types.js';
import { specOfRecord } from '../kit/fields.js';
import { typeMetaOf } from '../kind-names.js';
import type { NameAllocator } from '../shared/export-names.js';
import {
  CONFIG_MAP_MAX_BYTES,
  configMapObject,
  metadataOf,
  type ExportOptions,
  type ExportedObject,
  type RequiredSecret,
} from '../shared/manifest-export.js';
import { codeHashOf } from './code.js';
import { ENV_MAX } from './crd.js';
import { EDGE_SCRIPT_FIELDS } from './fields.js';
import type { EdgeScriptState } from './index.js';
import { publishOf } from './releases.js';
import {
  EDGE_SCRIPT_NAMES,
  type EdgeScript,
  type EdgeScriptEnvVar,
  type PublishPolicy,
} from './types.js';

/** The ConfigMap key holding an exported script's code. */
export const CODE_KEY = 'code';
/** What a Secret data key may hold (the apiserver's rule) and its length. */
const SECRET_KEY_CHARS = /[^-._a-zA-Z0-9]+/g;
const SECRET_KEY_MAX = 253;

/** One script read from the platform, and the object name it gets. */
export interface ScriptExportInput {
  state: EdgeScriptState;
  /** The script's secrets (names only: the platform returns no value). */
  secrets: readonly EdgeScriptSecret[];
  /** The EdgeScript's (already unique) name. */
  name: string;
}

/** What one script adds to an export. */
export interface ScriptExport {
  /** The code's ConfigMap first, then the EdgeScript; empty when the script is left out. */
  objects: ExportedObject[];
  secrets: RequiredSecret[];
  notes: string[];
}

/** The export's shared name allocators (unique across every kind). */
export interface ExportNames {
  configMaps: NameAllocator;
  secrets: NameAllocator;
}

/** `spec.env` of the variables (undefined: none, or more than the CRD takes; with a note). */
function envOf(
  variables: readonly EdgeScriptVariable[],
  name: string,
  notes: string[],
): EdgeScriptEnvVar[] | undefined {
  if (variables.length === 0) return undefined;
  if (variables.length > ENV_MAX) {
    notes.push(
      `EdgeScript ${name}: variables left unmanaged (spec.env left out): the script has ${variables.length}, more than the ${ENV_MAX} spec.env takes`,
    );
    return undefined;
  }
  return [...variables]
    .sort((a, b) => (a.Id ?? 0) - (b.Id ?? 0))
    .map((v) => ({
      name: v.Name ?? '',
      value: v.DefaultValue ?? '',
      ...(v.Required === true ? { required: true } : {}),
    }));
}

/** A Secret data key for the secret `name`, unique among `taken`. */
function secretKeyOf(name: string, id: number | undefined, taken: Set<string>): string {
  let key = name.replace(SECRET_KEY_CHARS, '_').slice(0, SECRET_KEY_MAX);
  if (key === '' || key === '.' || key === '..' || taken.has(key))
    key = `secret-${id ?? taken.size}`;
  taken.add(key);
  return key;
}

/** `spec.secrets` naming keys of the Secret `secretName`, and those keys. */
function secretsOf(
  secrets: readonly EdgeScriptSecret[],
  secretName: string,
): { entries: Record<string, unknown>[]; keys: string[] } {
  const taken = new Set<string>();
  const entries = [...secrets]
    .sort((a, b) => (a.Id ?? 0) - (b.Id ?? 0))
    .map((s) => {
      const key = secretKeyOf(s.Name ?? '', s.Id, taken);
      return { name: s.Name ?? '', valueFrom: { secretKeyRef: { name: secretName, key } } };
    });
  return { entries, keys: [...taken] };
}

/** `spec.publish` (and `spec.release`) under which applying publishes nothing new. */
function publishPolicyOf(
  state: EdgeScriptState,
  code: string,
  name: string,
  notes: string[],
): { publish: PublishPolicy; release?: string } {
  const always = { spec: { publish: 'Always' } } as unknown as EdgeScript;
  if (!publishOf(always, state, codeHashOf(code))) return { publish: 'Always' };
  const live = state.active?.Uuid ?? undefined;
  notes.push(
    live
      ? `EdgeScript ${name}: publish: Held with release ${live} (the live release): the script's code is not the live release's, and publish: Always would publish it`
      : `EdgeScript ${name}: publish: Held: the script has no live release, and publish: Always would publish its code`,
  );
  return { publish: 'Held', ...(live ? { release: live } : {}) };
}

/** Why the script cannot be exported (undefined: it can). */
function refusalOf(state: EdgeScriptState): string | undefined {
  if (typeof state.code !== 'string') return 'it holds no code';
  const bytes = Buffer.byteLength(CODE_KEY) + Buffer.byteLength(state.code);
  if (bytes > CONFIG_MAP_MAX_BYTES)
    return `its code is ${bytes} bytes with the key, more than the ${CONFIG_MAP_MAX_BYTES} a ConfigMap holds`;
  return undefined;
}

/** The Secret the script's secrets need (none when it has none). */
function requiredSecretOf(name: string, secretName: string, keys: string[]): RequiredSecret[] {
  if (keys.length === 0) return [];
  return [
    {
      name: secretName,
      type: 'Opaque',
      keys,
      purpose: `EdgeScript ${name}: the script's secrets ${keys.join(', ')} (never exported: the platform does not return them)`,
      filledBy: 'user',
    },
  ];
}

/** See the module comment. */
export function exportEdgeScript(
  input: ScriptExportInput,
  opts: ExportOptions,
  names: ExportNames,
): ScriptExport {
  const { state, name } = input;
  const id = Number(state.Id);
  const refusal = refusalOf(state);
  if (refusal !== undefined) {
    const notes = [`EdgeScript: script ${id} (${JSON.stringify(state.Name)}) left out: ${refusal}`];
    return { objects: [], secrets: [], notes };
  }
  const code = state.code as string;
  const notes: string[] = [];
  const configMap = names.configMaps.allocate(`${name}-code`, id, 'script');
  // A Secret name is taken only for a script that has secrets.
  const secretName =
    input.secrets.length > 0 ? names.secrets.allocate(`${name}-secrets`, id, 'script') : '';
  const env = envOf(state.EdgeScriptVariables ?? [], name, notes);
  const secrets = secretsOf(input.secrets, secretName);
  const spec = {
    ...adoptionById(id),
    ...specOfRecord(EDGE_SCRIPT_FIELDS, state as Record<string, unknown>),
    code: { configMapKeyRef: { name: configMap, key: CODE_KEY } },
    ...publishPolicyOf(state, code, name, notes),
    ...(env ? { env } : {}),
    ...(secrets.entries.length > 0 ? { secrets: secrets.entries } : {}),
    ...opts.account,
    deletionPolicy: opts.deletionPolicy,
  };
  const script: ExportedObject = {
    kind: EDGE_SCRIPT_NAMES.kind,
    name,
    manifest: {
      ...typeMetaOf(EDGE_SCRIPT_NAMES),
      metadata: metadataOf(name, opts.namespace),
      spec,
    },
  };
  return {
    objects: [configMapObject(configMap, opts.namespace, { [CODE_KEY]: code }), script],
    secrets: requiredSecretOf(name, secretName, secrets.keys),
    notes,
  };
}
