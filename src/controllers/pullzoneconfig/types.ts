/** The PullZoneConfig custom resource as the controller reads it. */
import type { ManagedObject } from '../../runtime/types.js';
import type { NamedResourceKind } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';
import type { EdgeRuleSpec } from './edge-rules-mapping.js';
import type { EdgeRuleStatus } from './edge-rules.js';
import type { PurgeSpec, PurgeStatus } from './purge.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const PULL_ZONE_CONFIG_NAMES: NamedResourceKind = {
  kind: 'PullZoneConfig',
  plural: 'pullzoneconfigs',
  shortNames: ['pzc'],
  scope: 'Namespaced',
  family: 'pullzones',
  platformNames: 'unique',
};

/** A key of a Secret in the resource's namespace. */
export interface SecretKeyRef {
  name: string;
  key: string;
}

/**
 * The object whose platform-made zone a PullZoneConfig manages (`spec.pullZoneFrom`, as the
 * owner table of pull-zone-from.ts allows), and the owner `status.linkedFrom` names.
 */
export interface PullZoneFrom {
  kind: 'DnsRecord' | 'ContainerApp' | 'EdgeScript' | 'VideoLibrary';
  name: string;
  /** ContainerApp: the container template of the endpoint. */
  container?: string;
  /** ContainerApp: the endpoint's displayName. */
  endpoint?: string;
}

/** Certificate of one custom hostname. */
export interface HostnameCertificateSpec {
  type: 'Free' | 'Custom';
  /** A `kubernetes.io/tls` Secret (`tls.crt`, `tls.key`); required for `Custom`. */
  secretRef?: { name: string };
}

/** One custom hostname of the zone. */
export interface HostnameSpec {
  hostname: string;
  forceSSL?: boolean;
  certificate?: HostnameCertificateSpec;
  privateKeyType?: 'ECDSA' | 'RSA';
}

/** `spec` of a PullZoneConfig (crd.ts describes every field). */
export interface PullZoneConfigSpec extends AccountSpec, AdoptionSpec {
  name?: string;
  hostnamePolicy?: 'Additive' | 'Exact';
  /** Spec-form settings: lowerCamelCase names, enum names, `<name>Ref` for secret values. */
  settings?: Record<string, unknown>;
  hostnames?: HostnameSpec[];
  /** Name of a Secret (same namespace) that receives the zone's outputs. */
  outputSecretRef?: { name: string };
  /** Edge rules in priority order, keyed by name (edge-rules-mapping.ts). */
  edgeRules?: EdgeRuleSpec[];
  edgeRulePolicy?: 'Additive' | 'Exact';
  /** What a purge request purges (purge.ts). */
  purge?: PurgeSpec;
  /** A StorageZone (same namespace) used as the origin (storage-origin.ts). */
  storageZoneRef?: { name: string };
  /** A Standalone EdgeScript (same namespace) used as the origin (script-refs.ts). */
  edgeScriptRef?: { name: string };
  /** A Middleware EdgeScript (same namespace) run in front of the origin (script-refs.ts). */
  middlewareScriptRef?: { name: string };
  /** The object (same namespace) whose platform-made zone is managed (pull-zone-from.ts). */
  pullZoneFrom?: PullZoneFrom;
}

/** Certificate state of one hostname as recorded in status. */
export interface HostnameCertificateStatus {
  type: 'Free' | 'Custom' | 'None';
  /** `Issued`, `Pending` (free certificate requested, not issued yet) or `None`. */
  state: 'Issued' | 'Pending' | 'None';
  /** sha256 of the uploaded custom certificate and key (never the content). */
  secretHash?: string;
  /** When a free certificate was last requested (RFC 3339). */
  lastRequestTime?: string;
  /**
   * Consecutive free certificate requests the platform refused because the hostname's DNS does
   * not point at the zone yet (the retry backs off from 30 s to 5 min); absent once accepted.
   */
  dnsRefusals?: number;
}

/** One hostname as recorded in status. */
export interface HostnameStatus {
  hostname: string;
  /** True when this resource added the hostname (only those are removed in `Additive` mode). */
  addedByOperator: boolean;
  forceSSL: boolean;
  certificate: HostnameCertificateStatus;
}

/** `status` of a PullZoneConfig. */
export interface PullZoneConfigStatus extends KindStatus {
  /** Platform id (an integer in the CRD; the runtime records it as the platform returned it). */
  pullZoneId?: number;
  /** The owner `spec.pullZoneFrom` names, with the members matched (pull-zone-from.ts). */
  linkedFrom?: Omit<PullZoneFrom, 'kind'> & { kind: string };
  cdnHostname?: string;
  hostnames?: HostnameStatus[];
  /** Hashes of write-only settings as last sent (the platform does not return them). */
  writeOnlySettings?: Record<string, string>;
  /** sha256 of the last outputs Secret content written. */
  outputsHash?: string;
  /** Platform GUID of each spec edge rule. */
  edgeRules?: EdgeRuleStatus[];
  /** The last purge request handled. */
  purge?: PurgeStatus;
}

export interface PullZoneConfig extends ManagedObject {
  spec?: PullZoneConfigSpec & Record<string, unknown>;
  status?: PullZoneConfigStatus;
}
