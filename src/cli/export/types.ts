/** Shared shapes of `cdnctl export` (see docs/export.md). */

/** Kinds `cdnctl export` can write. */
export const EXPORT_KINDS = [
  'PullZoneConfig',
  'ShieldPolicy',
  'ContainerApp',
  'StorageZone',
] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** The API version of every exported object. */
export const API_VERSION = 'cdn.operator.io/v1alpha1';

/** Which credentials the exported objects use. */
export type AccountChoice =
  | { accountRef: { name: string } }
  | { credentialsRef: { name: string; key: string } }
  | Record<string, never>;

/** Options of one export. */
export interface ExportOptions {
  namespace: string;
  kinds: ReadonlySet<ExportKind>;
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
  kind: ExportKind;
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

/** The metadata block of an exported object. */
export function metadataOf(name: string, namespace: string): Record<string, unknown> {
  return { name, namespace };
}
