/**
 * Stable condition types, condition reasons, event reasons, annotations and the finalizer
 * name shared by every managed kind. Dashboards, alerts and `kubectl wait` depend on these
 * strings: never rename one, only add. Annotation keys, the finalizer and the event reporter
 * live in the operator's API group (src/api-group.ts).
 */
import { groupKey } from '../api-group.js';

/** Condition types. */
export const ConditionType = {
  Ready: 'Ready',
  Synced: 'Synced',
} as const;

/** Reasons of the `Ready` condition. */
export const ReadyReason = {
  Available: 'Available',
  Creating: 'Creating',
  Deleting: 'Deleting',
  Unavailable: 'Unavailable',
  NotFound: 'NotFound',
  ReferenceNotReady: 'ReferenceNotReady',
  /**
   * A create whose answer was lost may have made the resource: the runtime looks it up (and
   * adopts it) instead of creating again until the pending-create window has passed.
   */
  CreatePending: 'CreatePending',
} as const;

/** Reasons of the `Synced` condition. */
export const SyncedReason = {
  ReconcileSuccess: 'ReconcileSuccess',
  ReconcileError: 'ReconcileError',
  InvalidSpec: 'InvalidSpec',
  Unauthorized: 'Unauthorized',
  DryRun: 'DryRun',
  ReconcilePaused: 'ReconcilePaused',
  Waiting: 'Waiting',
  /** Another object already manages the platform resource (see claims.ts). */
  AlreadyManaged: 'AlreadyManaged',
  /**
   * The spec names by id a platform resource that an object in another namespace manages
   * (see claims-policy.ts, findForeignReference).
   */
  ReferenceNotAllowed: 'ReferenceNotAllowed',
  /**
   * The object carries a create-pending marker signed for another account key that no record
   * resolves: a create may have happened, so neither a lookup nor a new create is safe.
   */
  CreatePendingUnverifiable: 'CreatePendingUnverifiable',
  /**
   * Several platform resources could be the one the object stands for (adoption by name, or
   * the recovery of a lost create): none is picked; the message names the candidates.
   */
  AmbiguousName: 'AmbiguousName',
  /**
   * A create whose answer was lost cannot be told apart from a resource someone else made
   * (names are not unique and the create carried no proof): neither adopted nor created again.
   */
  CreateOutcomeUnknown: 'CreateOutcomeUnknown',
  /** The object only observes its resource (`spec.managementPolicy: Observe`). */
  ObserveOnly: 'ObserveOnly',
} as const;

/** Event reasons (PascalCase, stable). Kinds may add their own through a classified error. */
export const EventReason = {
  CreatedExternalResource: 'CreatedExternalResource',
  UpdatedExternalResource: 'UpdatedExternalResource',
  DeletedExternalResource: 'DeletedExternalResource',
  AdoptedExternalResource: 'AdoptedExternalResource',
  /** An observe-only object found its resource by name. */
  ObservingExternalResource: 'ObservingExternalResource',
  OrphanedExternalResource: 'OrphanedExternalResource',
  /**
   * A deleted object the operator never accepted (nothing recorded in its status, e.g. a
   * finalizer written by a tenant on a refused object) let go without any platform call.
   */
  ReleasedUnacceptedObject: 'ReleasedUnacceptedObject',
  CannotConnectToProvider: 'CannotConnectToProvider',
  CannotObserveExternalResource: 'CannotObserveExternalResource',
  CannotCreateExternalResource: 'CannotCreateExternalResource',
  CannotUpdateExternalResource: 'CannotUpdateExternalResource',
  CannotDeleteExternalResource: 'CannotDeleteExternalResource',
  ReconcilePaused: 'ReconcilePaused',
  DryRunPlanned: 'DryRunPlanned',
  /** The poll-interval annotation is invalid or out of range (clamped or ignored). */
  InvalidPollInterval: 'InvalidPollInterval',
  /** The object was refused because another object manages the resource. */
  CannotClaimExternalResource: 'CannotClaimExternalResource',
  /** The connection Secret could not be published (e.g. the replica lost its lease). */
  CannotPublishConnectionDetails: 'CannotPublishConnectionDetails',
} as const;

/** Annotation keys the runtime understands. */
export const Annotation = {
  /** `"true"` stops all reconciliation (including deletion) of the object. */
  Paused: groupKey('paused'),
  /** `"true"`: observe only and write `status.plannedChanges`; never call create/update/delete. */
  DryRun: groupKey('dry-run'),
  /** Go duration-like (`30s`, `5m`, `1h`) per-object drift-check interval. */
  PollInterval: groupKey('poll-interval'),
  /** Any new value forces a reconcile pass (e.g. `date -Is`). */
  ReconcileRequestedAt: groupKey('reconcile-requested-at'),
  /**
   * No longer read (the create-pending record lives in `status.ownership.createPendingTime`,
   * which tenants cannot write); kept so that old objects' markers do not trigger passes.
   */
  CreatePending: groupKey('external-create-pending'),
  /**
   * Written by the runtime only, in the metadata write that adds the finalizer before a
   * create: a create-pending marker signed with a key derived from the account's API key and
   * bound to the object's uid (see create-guard.ts); a value that does not verify is ignored.
   */
  CreatePendingSigned: groupKey('create-pending'),
} as const;

/** Finalizer the runtime adds before the first create. */
export const FINALIZER = groupKey('finalizer');

/** `reportingController` of the operator's Events. */
export const REPORTING_CONTROLLER = groupKey('cdn-operator');
