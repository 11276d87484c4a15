/** The EdgeScript custom resource as the controller reads it (its fields: fields.ts). */
import type { ManagedObject } from '../../runtime/types.js';
import type { SpecOf } from '../kit/fields.js';
import type { NamedResourceKind } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';
import type { EDGE_SCRIPT_FIELDS } from './fields.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const EDGE_SCRIPT_NAMES: NamedResourceKind = {
  kind: 'EdgeScript',
  plural: 'edgescripts',
  shortNames: ['es'],
  scope: 'Namespaced',
  family: 'compute',
  platformNames: 'shared',
};

/** When code changes are published (releases.ts). */
export type PublishPolicy = 'Always' | 'Held';

/** Where the code comes from: exactly one of the two (the CRD says so). */
export interface EdgeScriptCodeSource {
  /** The code itself (short scripts). */
  inline?: string;
  /** A key of a ConfigMap in the object's namespace. */
  configMapKeyRef?: { name: string; key: string };
}

/** One environment variable: a literal value or one ConfigMap key (the CRD: at most one). */
export interface EdgeScriptEnvVar {
  name: string;
  value?: string;
  valueFrom?: { configMapKeyRef?: { name: string; key: string } };
  /** The platform's `Required`: the script needs the variable set. */
  required?: boolean;
}

/** One secret: the value of one Secret key (secrets.ts). */
export interface EdgeScriptSecretRef {
  name: string;
  valueFrom: { secretKeyRef: { name: string; key: string } };
}

/** One secret as status records it: never its value (secrets.ts). */
export interface SecretStatus {
  name: string;
  /** `sha256:` digest of the object's uid, the name and the value last written. */
  fingerprint: string;
  /** The platform's `LastModified` after the write. */
  lastModified?: string;
}

/** `spec` of an EdgeScript: the field table's members and the shared parts. */
export type EdgeScriptSpec = SpecOf<typeof EDGE_SCRIPT_FIELDS> &
  AccountSpec &
  AdoptionSpec & {
    code: EdgeScriptCodeSource;
    /** Default Always. */
    publish?: PublishPolicy;
    /** The script's variables; absent: not managed (env.ts). */
    env?: EdgeScriptEnvVar[];
    /** The script's secrets; absent: not managed (secrets.ts). */
    secrets?: EdgeScriptSecretRef[];
    /** The Secret this object creates and owns, with the deployment key (deployment-key.ts). */
    outputSecretRef?: { name: string };
    /** With `publish: Held`: the uuid of the release to make live. */
    release?: string;
  };

/** One release as status shows it. */
export interface ReleaseSummary {
  uuid: string;
  live: boolean;
  publishedAt?: string;
}

/** `status` of an EdgeScript. */
export interface EdgeScriptStatus extends KindStatus {
  scriptId?: number | string;
  name?: string;
  scriptType?: string;
  /** sha256 of the code the script holds (the code last set). */
  codeHash?: string;
  activeRelease?: string;
  releases?: ReleaseSummary[];
  pullZoneId?: number;
  hostname?: string;
  secrets?: SecretStatus[];
}

export interface EdgeScript extends ManagedObject {
  spec?: EdgeScriptSpec & Record<string, unknown>;
  status?: EdgeScriptStatus;
}
