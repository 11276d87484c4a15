/**
 * What `cdnctl export` asks of a kind ({@link KindExporter}): read the account's resources of
 * the kind and add one manifest per resource, with the Secrets they need (see docs/export.md).
 */
import type { CdnClient } from '../../cdn/client.js';
import type { NameAllocator } from './export-names.js';

/** Which credentials the exported objects use. */
export type AccountChoice =
  | { accountRef: { name: string } }
  | { credentialsRef: { name: string; key: string } }
  | Record<string, never>;

/** Options of one export. */
export interface ExportOptions {
  namespace: string;
  /** The kinds asked for (`PullZoneConfig`, ...). */
  kinds: ReadonlySet<string>;
  /** Orphan (default) or Delete; ShieldPolicy maps Delete to its Reset. */
  deletionPolicy: 'Orphan' | 'Delete';
  account: AccountChoice;
  /** Container environment variables whose name matches hold secrets. */
  secretEnvPattern: RegExp;
  /** Custom TLS certificates: left unmanaged (omit) or managed through a TLS Secret. */
  customCertificates: 'omit' | 'secret';
}

/** A Secret the exported objects refer to (never its values). */
export interface RequiredSecret {
  name: string;
  type: 'Opaque' | 'kubernetes.io/tls';
  keys: string[];
  /** What the Secret is for (object and field). */
  purpose: string;
  /** `operator`: the operator writes it; the user creates nothing. */
  filledBy: 'user' | 'operator';
}

/** One exported object. */
export interface ExportedObject {
  kind: string;
  name: string;
  manifest: Record<string, unknown>;
}

/** What an export produced. */
export interface ExportResult {
  objects: ExportedObject[];
  secrets: RequiredSecret[];
  /** Things the user should know (settings left out and why). */
  notes: string[];
}

/** One export in progress, shared by the exporters of every kind. */
export interface ExportContext {
  client: CdnClient;
  opts: ExportOptions;
  /** Secret names, unique across every kind. */
  secretNames: NameAllocator;
  /** ConfigMap names (custom pages' HTML), unique across every kind. */
  configMapNames: NameAllocator;
  result: ExportResult;
  /** True when the user asked for `kind`: its objects go into the result. */
  wants(kind: string): boolean;
  /**
   * Names given to resources of `kind` by platform id (pull zone id -> PullZoneConfig name),
   * filled by that kind's exporter, which runs first when another kind needs it.
   */
  names(kind: string): Map<string, string>;
  /**
   * Runs `step` once every kind's exporter has run (in the order asked): for what needs objects
   * of kinds exported later (a pull zone linking its owner). Absent: nothing runs after.
   */
  afterAll?(step: () => void | Promise<void>): void;
}

/** A kind's exporter. */
export type KindExporter = (c: ExportContext) => Promise<void>;

/** The metadata block of an exported object. */
export function metadataOf(name: string, namespace: string): Record<string, unknown> {
  return { name, namespace };
}

/**
 * The most bytes a ConfigMap's data holds, its keys and values together (the apiserver
 * refuses a larger one).
 */
export const CONFIG_MAP_MAX_BYTES = 1024 * 1024;

/** An exported ConfigMap `name` holding `data` (text the platform keeps outside Secrets). */
export function configMapObject(
  name: string,
  namespace: string,
  data: Record<string, string>,
): ExportedObject {
  return {
    kind: 'ConfigMap',
    name,
    manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: metadataOf(name, namespace), data },
  };
}
