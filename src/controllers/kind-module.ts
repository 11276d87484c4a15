/**
 * A kind of the operator, described once. Each kind folder (`src/controllers/<kind>/`) exports
 * one {@link KindModule} from its `kind.ts`, and src/controllers/kinds.ts lists them: the
 * operator, CRD generation, the chart's RBAC (through crds/), cdnctl, the bench, chaos, the demo
 * and the tests all read that list, so adding a kind is its folder and one line there.
 *
 * The module itself is light (names and lazy loaders): cdnctl reads the list to print its help
 * without loading any controller, and each tool loads only the parts it uses. A kind.ts declares
 * its parts in one line by convention (kit/kind-parts.ts).
 */
import type { ClusterKind, ManagedKind } from '../runtime/types.js';
import type { KindNames } from './kind-names.js';
import type { DocumentBounds, KindSchema } from './shared/crd-schema.js';
import type { ControllerDeps } from './shared/deps.js';
import type { KindExporter } from './shared/manifest-export.js';
import type { KindPlanner } from './shared/manifest-plan.js';

/** A part of a kind loaded on first use (`() => import('./x.js').then((m) => m.part)`). */
export type Lazy<T> = () => Promise<T>;

/** Builds the kind's CRD schema; `docs` reads bounds from the official API documents. */
export type SchemaBuilder = (docs: DocumentBounds) => KindSchema;

/** Builds the kind's controller (the runtime's {@link ManagedKind}). */
export type ControllerFactory = (deps: ControllerDeps) => ManagedKind;

/**
 * Builds the cluster-scoped kinds the runtime watches for a kind it does not reconcile
 * (CdnAccount: the accounts, whose Ready condition it keeps, and the Namespaces their
 * selectors read).
 */
export type ClusterKindsFactory = (
  deps: Pick<ControllerDeps, 'operatorNamespace'>,
) => ClusterKind[];

/** A minimal valid object of the kind, for bulk creation (bench, chaos, write counts). */
export interface KindSample {
  /**
   * Kinds whose sample this one refers to: the bench creates their objects first, and
   * `spec(name, refs)` names them through `refs(kind)` (e.g. a ShieldPolicy protects a
   * PullZoneConfig).
   */
  refersTo?: readonly string[];
  /** The spec of the object `name`. */
  spec(name: string, refs: (kind: string) => string): Record<string, unknown>;
}

/**
 * One field the kind renamed since the single group `cdn.operator.io/v1alpha1` (docs/api.md):
 * `cdnctl migrate` applies each move to manifests and live objects. Paths are dotted from the
 * object's root, `[]` standing for every item of a list (`spec.conditions[].operator`).
 */
export interface LegacyFieldMove {
  /** The v1alpha1 path. */
  readonly from: string;
  /** The v1beta1 path (the same as `from` when only values changed). */
  readonly to: string;
  /**
   * Values respelled on the way (`{ BEGINSWITH: 'BeginsWith' }`, or a name to a number:
   * `{ ok: 200 }`); others are kept.
   */
  readonly values?: Readonly<Record<string, string | number>>;
  /** A string of decimal digits becomes that integer (a field that was a string or int-or-string). */
  readonly toInteger?: boolean;
  /**
   * Constants set beside the moved value, keyed relative to the mapping that receives `to`:
   * `{ from: 'spec.pullZoneId', to: 'spec.adoption.id', also: { policy: 'ById' } }` writes
   * `spec.adoption: {policy: ById, id: <the old value>}`. Set only when the move happens (the
   * source is present); a key already holding another value refuses the move.
   */
  readonly also?: Readonly<Record<string, string | number | boolean>>;
}

/**
 * A status digest of a Secret-sourced value salted with the object's uid: the kind never reads
 * the value back from the platform, so it compares the digest of the value it last applied to
 * tell a rotation apart. `cdnctl migrate --live` computes it again for the new object's uid.
 */
export interface UidSaltedDigest {
  /** Where `status` keeps the digest. */
  readonly statusPath: readonly string[];
  /** Where `spec` names the Secret key (`{name, key}`) whose value is digested. */
  readonly secretRefPath: readonly string[];
  /** The digest of `value` for the object `uid`. */
  digest(uid: string | undefined, value: string): string;
}

/**
 * Everything the tools need to know about one kind: its names (kept in the kind's types.ts, so
 * the kind's own code reads them without importing this module) and lazy loaders of its parts.
 */
export interface KindModule extends KindNames {
  /** The CRD schema (spec, status, printer columns); used by CRD generation only. */
  readonly schema: Lazy<SchemaBuilder>;
  /** The controller the operator runs (absent: the operator runs none for this kind). */
  readonly controller?: Lazy<ControllerFactory>;
  /** The cluster-scoped kinds the operator watches for this kind (CdnAccount), if any. */
  readonly clusterKinds?: Lazy<ClusterKindsFactory>;
  /** `cdnctl diff`: what applying a manifest would change (absent: not compared). */
  readonly planner?: Lazy<KindPlanner>;
  /** `cdnctl export`: manifests for the account's resources (absent: not exported). */
  readonly exporter?: Lazy<KindExporter>;
  /**
   * Kinds whose platform resources `cdnctl export` must read before this one's, even when only
   * this kind is exported (ShieldPolicy names its objects after the pull zones). They come
   * earlier in the list of kinds.
   */
  readonly exportNeeds?: readonly string[];
  /**
   * The kind's example, relative to examples/. Files at the top level work with the chart's
   * defaults (the demo, the quick start and the Helm e2e apply them); a kind that needs more
   * (StorageZone writes a Secret: `outputs.enabled=true`) keeps it in a subfolder.
   */
  readonly example?: string;
  /** A minimal object for bulk creation (absent: the bench does not create this kind). */
  readonly sample?: KindSample;
  /** Fields renamed since v1alpha1, in the order `cdnctl migrate` applies them (absent: none). */
  readonly legacyMoves?: readonly LegacyFieldMove[];
  /** The kind's uid-salted status digests (absent: none). */
  readonly uidDigests?: Lazy<readonly UidSaltedDigest[]>;
}
