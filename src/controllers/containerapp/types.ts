/**
 * The ContainerApp custom resource as the controller reads it. Field names follow the
 * platform's application model (management-api.md, "Application"); list items are keyed by
 * name (`x-kubernetes-list-map-keys`), never by platform ids. Kept in step with
 * crd.ts (a unit test compares the two field by field).
 */
import type { ManagedObject } from '../../runtime/types.js';
import type { NamedResourceKind } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';
import type {
  ANYCAST_IP_VERSION_NAMES,
  LOG_FORMAT_NAMES,
  LOG_TYPE_NAMES,
  PROTOCOL_NAMES,
} from './wire-enums.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const CONTAINER_APP_NAMES: NamedResourceKind = {
  kind: 'ContainerApp',
  plural: 'containerapps',
  shortNames: ['capp'],
  scope: 'Namespaced',
  family: 'containers',
  platformNames: 'shared',
};

/** Selects one key of a Secret or ConfigMap in the same namespace. */
export interface KeySelector {
  name: string;
  key: string;
  /** When true, a missing object or key leaves the variable out instead of waiting. */
  optional?: boolean;
}

export interface EnvVarSpec {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: KeySelector; configMapKeyRef?: KeySelector };
}

export interface PortMappingSpec {
  containerPort: number;
  exposedPort?: number;
  protocols?: (keyof typeof PROTOCOL_NAMES)[];
}

export interface StickySessionsSpec {
  enabled?: boolean;
  sessionHeaders?: string[];
  cookieName?: string;
}

export interface CdnEndpointSpec {
  /** The platform's `isSslEnabled`. */
  sslEnabled?: boolean;
  /** A pull zone id given directly. */
  pullZoneId?: number;
  /** A PullZoneConfig in the same namespace whose `status.pullZoneId` is used. */
  pullZoneRef?: { name: string };
  portMappings?: PortMappingSpec[];
  stickySessions?: StickySessionsSpec;
}

/** An endpoint on an anycast IP address: clients connect to that address's exposed ports. */
export interface AnycastEndpointSpec {
  /** The address family (the platform's `anycast.type`); unset: IPv4, the only one offered. */
  ipVersion?: keyof typeof ANYCAST_IP_VERSION_NAMES;
  portMappings: PortMappingSpec[];
}

export interface EndpointSpec {
  /** The endpoint's name on the platform; identifies the endpoint in the list. */
  displayName: string;
  cdn?: CdnEndpointSpec;
  anycast?: AnycastEndpointSpec;
}

export interface ProbeSpec {
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  failureThreshold?: number;
  successThreshold?: number;
  httpGet?: {
    request?: { path?: string; portNumber?: number };
    /** `expectedStatusCode`: a code (`200`), sent as the platform's name for it (`ok`). */
    response?: { expectedStatusCode?: number };
  };
  tcpSocket?: { request?: { portNumber?: number } };
  grpc?: { request?: { portNumber?: number; serviceName?: string } };
}

export interface ContainerSpec {
  name: string;
  image?: string;
  imageName: string;
  imageNamespace: string;
  imageTag: string;
  /** Registry id as the platform identifies it (a raw id: checked like a registryRef). */
  imageRegistryId?: string;
  /** A ContainerRegistry in the same namespace (resolved to its status.registryId). */
  registryRef?: { name: string };
  imageDigest?: string;
  imagePullPolicy?: 'Always' | 'IfNotPresent';
  entryPoint?: {
    command?: string;
    commandArray?: string[];
    arguments?: string;
    argumentsArray?: string[];
    workingDirectory?: string;
  };
  probes?: { startup?: ProbeSpec; readiness?: ProbeSpec; liveness?: ProbeSpec };
  environmentVariables?: EnvVarSpec[];
  endpoints?: EndpointSpec[];
  volumeMounts?: { name: string; mountPath: string }[];
}

/** Syslog forwarding of the application's logs (`/mc/log/forwarding`, log-forwarding-crd.ts). */
export interface LogForwardingSpec {
  /** Unset: true (the CRD defaults it). */
  enabled?: boolean;
  type: keyof typeof LOG_TYPE_NAMES;
  endpoint: string;
  port: number;
  format: keyof typeof LOG_FORMAT_NAMES;
  /** The syslog token from a Secret in the same namespace; unset: the token is not managed. */
  tokenSecretRef?: { name: string; key: string };
}

/** `spec` of a ContainerApp (crd.ts describes every field). */
export interface ContainerAppSpec extends AccountSpec, AdoptionSpec<string> {
  name: string;
  autoScaling: { min: number; max: number };
  regionSettings?: {
    allowedRegionIds?: string[];
    requiredRegionIds?: string[];
    maxAllowedRegions?: number;
    nodeSelectors?: Record<string, string>;
  };
  terminationGracePeriodSeconds?: number;
  repositorySettings?: { templateRepository?: string; repositoryName?: string; owner?: string };
  containerTemplates: ContainerSpec[];
  volumes?: { name: string; sizeGigabytes: number }[];
  logForwarding?: LogForwardingSpec;
}

/** One endpoint as observed, in status. */
export interface EndpointStatus {
  displayName: string;
  id: string;
  /** `CDN`, `Anycast` or `InternalIP` (the platform's type in our spelling, wire-enums.ts). */
  type?: string;
  publicHost?: string;
  pullZoneId?: number;
  /** The port mappings as the platform reports them (the exposed port it chose, if any). */
  portMappings?: { containerPort: number; exposedPort?: number; protocols?: string[] }[];
  publicIpAddresses?: { address: string; region: string }[];
  internalIpAddresses?: { address: string; region: string }[];
}

/** One container template as observed, in status. */
export interface ContainerStatus {
  name: string;
  id: string;
  image?: string;
  endpoints: EndpointStatus[];
}

/** Settings the platform accepts but never returns; recorded when applied (see diff.ts). */
export interface WriteOnlyRecord {
  terminationGracePeriodSeconds?: number;
  nodeSelectors?: Record<string, string>;
}

/** The managed log forwarding configuration as last read, in status (never the token). */
export interface LogForwardingStatus {
  id?: string;
  enabled?: boolean;
  type?: string;
  endpoint?: string;
  port?: number;
  format?: string;
  /** Salted digest of the token last applied or found equal (log-forwarding.ts). */
  tokenFingerprint?: string;
}

/** `status` of a ContainerApp. */
export interface ContainerAppStatus extends KindStatus {
  appId?: string;
  /** The platform's own application status (`active`, `progressing`, ...). */
  appStatus?: string;
  containers?: ContainerStatus[];
  volumes?: { name: string; id?: string; sizeGigabytes?: number }[];
  /** Hash of the values read from referenced Secrets and ConfigMaps (never the values). */
  environmentHash?: string;
  /** Write-only settings last applied by the operator. */
  appliedWriteOnly?: WriteOnlyRecord;
  /** Present while this resource manages the application's log forwarding. */
  logForwarding?: LogForwardingStatus;
}

export interface ContainerApp extends ManagedObject {
  spec: ContainerAppSpec & Record<string, unknown>;
  status?: ContainerAppStatus;
}
