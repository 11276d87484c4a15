/**
 * The contract between the kind-agnostic runtime and each kind's controller.
 *
 * A kind implements a {@link Connector} (credentials -> {@link ExternalClient}) and pure
 * mapping; the runtime does everything else: caching, queueing, finalizers, the
 * duplicate-create guard, conditions, events, dry-run and the single status write.
 *
 * This module must never import anything from `src/cdn/` or `src/controllers/`.
 */
import type { Logger } from 'pino';

/** A Kubernetes object as the runtime sees it: metadata plus an opaque spec and status. */
export interface ManagedObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec?: Record<string, unknown>;
  status?: ManagedStatus;
}

/** The subset of ObjectMeta the runtime reads and writes. */
export interface ObjectMeta {
  name: string;
  namespace: string;
  uid?: string;
  generation?: number;
  resourceVersion?: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  creationTimestamp?: string;
}

/** metav1.Condition. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** One API field whose live value differs from the desired one (a plan entry). */
export interface FieldDiff {
  /** Path in the platform's terms, e.g. `OriginShieldMaxConcurrentRequests` or `containerTemplates[web].image`. */
  field: string;
  /** Live value rendered as a short string (`<unset>` when absent); never a secret value. */
  live: string;
  /** Desired value rendered as a short string; never a secret value. */
  desired: string;
}

/** Status fields every managed kind shares; kinds add their own observed fields. */
export interface ManagedStatus {
  conditions?: Condition[];
  observedGeneration?: number;
  lastSyncTime?: string;
  plannedChanges?: FieldDiff[];
  [observed: string]: unknown;
}

/**
 * What `observe` learned. Observe is read-only: it never writes to the platform.
 *
 * `S` is the kind's private state of the observation (what it read and planned), handed to
 * `update` and `delete` of the same pass in {@link Observation.seen}: the runtime passes the
 * very observation on and never writes `seen` anywhere (status, events, logs).
 */
export interface Observation<S = unknown> {
  /** The external resource exists. */
  exists: boolean;
  /** The id found by observe (e.g. adopted by name); the runtime records it in status. */
  externalId?: string;
  /** Live state matches the desired state for every managed field. */
  upToDate: boolean;
  /** Differences, empty when upToDate. */
  diff: FieldDiff[];
  /** Observed fields merged into `.status` (ids, hostnames, metrics...). */
  status?: Record<string, unknown>;
  /** Set when the resource exists and is in sync but is not yet usable (e.g. certificate pending). */
  notReady?: { reason: string; message: string };
  /**
   * Conditions of the kind's own (not Ready or Synced), e.g. the outcome of a side effect that
   * must never block the reconcile; merged into `.status.conditions` by type.
   */
  conditions?: Omit<Condition, 'lastTransitionTime'>[];
  /**
   * Observe again within this many milliseconds (a request the kind deferred becomes due),
   * whatever the poll interval says.
   */
  requeueAfterMs?: number;
  /** Events about the object for the runtime to record (deduplicated like every event). */
  events?: KindEvent[];
  /**
   * Values to publish in the object's connection Secret ({@link ManagedKind.connectionSecret}),
   * e.g. the zone's hostname and password. The runtime writes them, never the kind.
   */
  connectionDetails?: ConnectionDetails;
  /**
   * The kind's private state of this observation (see the interface comment): what `update`
   * and `delete` of the same pass act on, typed, without a second read. Never written to
   * status, never logged.
   */
  seen?: S;
}

/** An event a kind asks the runtime to record about the object it observed. */
export interface KindEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/**
 * Values a kind publishes for other workloads (Crossplane's connection details): Secret keys
 * and their values. Secret-grade values must already be registered for redaction by the kind;
 * the runtime never logs, events or reports them.
 */
export type ConnectionDetails = Record<string, string>;

/**
 * Where a kind publishes its connection details: one Secret per object in the object's
 * namespace, created and controlled by the object (ownerReference `controller: true`). The
 * runtime writes it after the claim check and the leader fence, never for a refused object,
 * and reports the outcome in the condition `conditionType` (see connection-secret.ts).
 */
export interface ConnectionSecret<T extends ManagedObject = ManagedObject> {
  /** The Secret's name for this object; undefined when the object asks for none. */
  nameOf(obj: T): string | undefined;
  /** Condition reporting the Secret, e.g. `OutputsReady`. */
  conditionType: string;
  /** How messages call it, e.g. `outputs Secret`. */
  what: string;
  /** The spec field naming it, e.g. `spec.outputSecretRef.name`. */
  field: string;
  /**
   * Ready stays False with this reason while the Secret is not written: the object is of no
   * use without it (e.g. a storage zone without its password).
   */
  requiredForReady?: string;
}

/** What an update may report besides the applied changes. */
export interface UpdateResult {
  /** Observed fields merged into `.status`. */
  status?: Record<string, unknown>;
  /** Kind conditions, merged by type like {@link Observation.conditions}. */
  conditions?: Omit<Condition, 'lastTransitionTime'>[];
  /** Fresher connection details than the observation's (e.g. after hostnames changed). */
  connectionDetails?: ConnectionDetails;
  /**
   * The update left the resource in sync but not yet usable (e.g. a certificate it requested
   * is not issued yet): Ready=False with this reason, re-observed like {@link Observation.notReady}.
   * The observation made before the update cannot know it.
   */
  notReady?: { reason: string; message: string };
}

/** Passed to every ExternalClient call. */
export interface ExternalContext {
  /** The id recorded in status (or given in spec for adoption); undefined before creation. */
  externalId?: string;
  /** A create was attempted earlier and its outcome was not recorded: look up by name before creating. */
  createPending: boolean;
  /**
   * A token only the operator can make for this object (an HMAC of its uid under the
   * account's marker key, see create-guard.ts), stable across passes: a kind whose platform
   * names are not unique creates under a provisional name built from it, so that a lost
   * create is recovered by a name nobody else could have chosen (controllers/kit/identity.ts).
   * Absent when the client offers no marker key.
   */
  createToken?: string;
  log: Logger;
  /** Cancelled on shutdown. */
  signal: AbortSignal;
  /**
   * True when another object already manages the platform resource `id` of claim type
   * `type` in this account (see claims.ts). Lookups by name (crash recovery, explicit
   * adoption by name) must skip such resources. Absent in tests without a claim index.
   */
  claimedByOther?(type: string, id: string): boolean;
  /**
   * Every other object that claims the platform resource `id` of claim type `type`, whoever
   * wins it and in whatever account (two API keys of one platform account have two
   * fingerprints): its kind, namespace and name, and whether its status records the claim.
   * For a kind that decides by who claims a resource, not by who wins it, and must miss no
   * claim (an `Exact` sweep leaves alone what any object of its namespace is about to create).
   * Absent in tests without a claim index.
   */
  claimantsOf?(type: string, id: string): readonly ClaimHolder[];
  /**
   * Records an event about the object at once (deduplicated like every event). For what a
   * write learns item by item (each rule an `Exact` sweep deleted), so that a failure later in
   * the same call loses none of them; observe returns its events in
   * {@link Observation.events} instead. Absent in tests without an event sink.
   */
  recordEvent?(event: KindEvent): void;
  /**
   * Records at once, in status fields, what a platform write just did that a later pass must
   * know (a record created, a purge sent, a certificate requested): the runtime merges it into
   * this pass's status write and, when that write is refused with 409 (the object changed
   * meanwhile) or the pass fails after it, writes it again without the resourceVersion
   * precondition (status has one writer, the leader), so no effect is ever lost. A later call
   * replaces a field an earlier one set (send whole lists). Absent in tests without a runtime.
   */
  recordEffect?(status: Record<string, unknown>): void;
  /**
   * Reads the object's own platform resource `id` (observe by pages, docs/scaling.md): on a
   * periodic pass the runtime may answer it from the latest list sweep of `source` (never older
   * than the object's last platform write), else it calls `readById`. Every other read, and
   * every observation that leads to a write, goes to `readById`. Absent when the runtime sweeps
   * nothing (tests, `--sweep-read-share 0`): call `readById`.
   */
  readOwn?<R>(
    source: SweepSource<R>,
    id: string,
    readById: () => Promise<R | undefined>,
  ): Promise<R | undefined>;
}

/**
 * A platform listing the runtime may sweep page by page to answer the periodic observes of a
 * kind (observe by pages): declared as data by the kind, bound to one account's client.
 */
export interface SweepSource<R = unknown> {
  /** Resource type, the cache's key beside the account (usually the claim type: `PullZone`). */
  readonly type: string;
  /** One page (1-based) of the whole listing and whether another follows. */
  listPage(page: number, signal: AbortSignal): Promise<{ items: readonly R[]; more: boolean }>;
  /** The platform id of a listed item (what the object records). */
  idOf(item: R): string;
  /**
   * What the by-id read answers for a listed item, or undefined when the listing cannot stand
   * for it (an item without members the read has): that id is then always read by id. Default:
   * the item itself (the listing answers the read's model).
   */
  toRecord?(item: R): R | undefined;
  /** The account's request rate now (requests per second): the sweep budget is a share of it. */
  accountRate(): Promise<number>;
}

/** An object that claims a platform resource, as {@link ExternalContext.claimantsOf} shows it. */
/** An object that claims a platform resource, as {@link ExternalContext.claimantsOf} shows it. */
export interface ClaimHolder {
  kind: string;
  namespace: string;
  name: string;
  /** The object's status records the claim (see {@link ClaimRef.recorded}). */
  recorded: boolean;
}

/** The result of a create: the id to record at once. */
export interface CreateResult {
  externalId: string;
  status?: Record<string, unknown>;
  /**
   * The platform's answer to the create already shows the resource usable and matching every
   * managed field. The runtime then reports Ready=True in the same status write and observes
   * again at the poll interval, instead of confirming with another pass right away (saving one
   * status write and one read per create).
   */
  available?: boolean;
  /**
   * The id must be in status before any further write to the resource: the create carried the
   * proof that the resource is this object's (a provisional name, kit/identity.ts) and the
   * update that follows in the same pass replaces it. The runtime then writes the id first
   * (one more status write), so a crash after that update cannot lose the resource.
   */
  recordFirst?: boolean;
  /** Connection details known from the create's answer (see {@link Observation.connectionDetails}). */
  connectionDetails?: ConnectionDetails;
}

/**
 * Crossplane-style external client for one kind, bound to credentials. `S` is the private
 * state its observe hands to update and delete ({@link Observation.seen}).
 */
export interface ExternalClient<T extends ManagedObject = ManagedObject, S = unknown> {
  /** Read-only. Must not write to the platform. */
  observe(obj: T, ctx: ExternalContext): Promise<Observation<S>>;
  /** Idempotent where the platform allows; the runtime guards it against duplicates. */
  create(obj: T, ctx: ExternalContext): Promise<CreateResult>;
  /** Idempotent: applies only what `observation.diff` says differs. */
  update(obj: T, observation: Observation<S>, ctx: ExternalContext): Promise<UpdateResult | void>;
  /**
   * Idempotent: a resource that is already gone is success. `observation` is the pass's
   * observe of the resource (it exists).
   */
  delete(obj: T, ctx: ExternalContext, observation?: Observation<S>): Promise<void>;
  /**
   * Non-secret identity of the account the client is bound to (e.g. a truncated SHA-256 of
   * the API key). Claims of two objects conflict only within one account; without it the
   * runtime treats the account as unknown, which conflicts with every account.
   */
  readonly account?: string;
  /**
   * Claims known only once connected (e.g. a target resolved through a reference); checked
   * like {@link ManagedKind.claimsOf} before anything is read or written.
   */
  readonly claims?: readonly ClaimRef[];
  /**
   * Secret key that signs the create-pending marker (create-guard.ts), derived from the
   * account's API key so that only the operator (and whoever holds that key anyway) can make a
   * valid marker. Without it the runtime keeps the marker in status (one more write per create).
   * Must not be enumerable (never logged); see `withMarkerKey`.
   */
  readonly markerKey?: Uint8Array;
}

/** One platform resource an object claims (see claims.ts). */
export interface ClaimRef {
  /** Id space, e.g. `PullZone`; claims of different types never conflict. */
  type: string;
  /** The platform id. */
  id: string;
  /** True when the object's status records this id (an established claim, e.g. after a create). */
  recorded: boolean;
  /**
   * A claim several objects may hold at once: it never refuses anyone, it only tells other
   * kinds (through {@link ExternalContext.claimantsOf}) what the object is about, e.g. the name
   * of a shield rule it is about to create (rule names are not unique on the platform).
   */
  shared?: boolean;
  /**
   * The claim holds against other namespaces only: an object of the same namespace may manage
   * the resource too (the pull zone the platform made for a DNS record or an app endpoint:
   * no other namespace may adopt it, while a PullZoneConfig beside its owner may).
   */
  scope?: 'namespace';
}

/**
 * A platform id of a resource of another kind that a spec names directly (a reference by id,
 * e.g. a storage zone id as a pull zone's origin). It passes the same claim check as a `*Ref`:
 * allowed only when no object claims the resource or its owner lives in the same namespace.
 */
export interface IdReference {
  /** Spec path, e.g. `spec.settings.storageZoneId`. */
  field: string;
  /** Claim type of the resource (the kind that would manage it, e.g. `StorageZone`). */
  type: string;
  /** The platform id. */
  id: string;
}

/** A reference from a managed object to another object it depends on (watched by the runtime). */
export interface ObjectReference {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/** What a kind's connector may use to build its ExternalClient and to resolve references. */
export interface ConnectContext {
  /** Reads a Secret's data (decoded to UTF-8 strings) from the cache/API; undefined when absent. */
  readSecret(namespace: string, name: string): Promise<Record<string, string> | undefined>;
  /** Reads a ConfigMap's data; undefined when absent. */
  readConfigMap(namespace: string, name: string): Promise<Record<string, string> | undefined>;
  /**
   * Reads every key of a Secret or ConfigMap as bytes (a ConfigMap's `binaryData` too), from
   * the same cache as the two above, never decoded to text; undefined when absent. Optional:
   * a context without it (a test's, cdnctl's) cannot read binary data.
   */
  readBytes?(
    kind: 'Secret' | 'ConfigMap',
    namespace: string,
    name: string,
  ): Promise<Record<string, Uint8Array> | undefined>;
  /** Reads another managed object (e.g. a referenced PullZoneConfig) from the informer cache. */
  getObject(ref: ObjectReference): ManagedObject | undefined;
  /**
   * Reads a cluster-scoped object (e.g. a Namespace or an account object); undefined when
   * absent. Served from the watch cache when its type is a {@link ClusterKind} of the operator
   * (a change is seen by the next pass: the watch delivers it), else one GET.
   */
  readClusterObject?(
    type: { group: string; version: string; plural: string },
    name: string,
  ): Promise<ClusterObject | undefined>;
  log: Logger;
}

/** A cluster-scoped object as read by {@link ConnectContext.readClusterObject}. */
export interface ClusterObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; labels?: Record<string, string>; [key: string]: unknown };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/**
 * A cluster-scoped kind the runtime watches beside the managed kinds (e.g. Namespaces for
 * their labels, CdnAccounts). Its objects are served to `ConnectContext.readClusterObject`
 * from the cache. A managed object depends on one by naming it in `ManagedKind.references`
 * (namespace `''`): when the object's labels or spec change, such dependents are re-enqueued.
 * With `conditionsOf`, the runtime also keeps the object's status (leader only, through the
 * shared status writer).
 */
export interface ClusterKind<T extends ClusterObject = ClusterObject> {
  /** Controller name used in logs and metrics (e.g. `cdnaccount`). */
  name: string;
  group: string;
  version: string;
  kind: string;
  plural: string;
  /**
   * Namespaced objects this one depends on (e.g. its Secret): they are cached with their data,
   * and a change to one re-enqueues this object.
   */
  references?(obj: T): ObjectReference[];
  /**
   * The kind conditions the object's status should hold, computed from the object and what it
   * references (read through `ctx`, from the caches); undefined leaves its status alone (e.g.
   * an object another operator serves). Without it the kind is only watched.
   */
  conditionsOf?(
    obj: T,
    ctx: ConnectContext,
  ): Promise<Omit<Condition, 'lastTransitionTime'>[] | undefined>;
}

/** Everything the runtime needs to run a controller for one kind. */
export interface ManagedKind<T extends ManagedObject = ManagedObject> {
  /** Controller name used in logs, metrics and events (e.g. `pullzoneconfig`). */
  name: string;
  group: string;
  version: string;
  kind: string;
  plural: string;
  /**
   * Status field that records the external id (e.g. `pullZoneId`). The runtime writes it for
   * every resource that exists: created, adopted by name or adopted by a spec id (as a number
   * when observe reports it as one, else as a string).
   */
  idStatusField: string;
  /** An id given in the spec (adoption); takes precedence over the status field. */
  specExternalId?(obj: T): string | undefined;
  /** Builds an ExternalClient bound to the object's credentials. Throws a classified error. */
  connect(obj: T, ctx: ConnectContext): Promise<ExternalClient<T>>;
  /** Objects this one depends on; a change to any of them re-enqueues this object. */
  references?(obj: T): ObjectReference[];
  /**
   * Platform resources the object claims, from the object alone (spec ids and ids recorded
   * in status). Default: the recorded external id under claim type `kind`.
   */
  claimsOf?(obj: T): ClaimRef[];
  /**
   * Ids of other kinds' platform resources the spec names directly (see {@link IdReference}).
   * The runtime refuses the pass (`ReferenceNotAllowed`, nothing sent to the platform) when
   * one is managed from another namespace.
   */
  idReferences?(obj: T): IdReference[];
  /** Maps any error thrown by connect/observe/create/update/delete to a runtime class. */
  classifyError(err: unknown): import('./errors.js').ClassifiedError;
  /** Where the object's connection details are published (declared once per kind). */
  connectionSecret?: ConnectionSecret<T>;
}
