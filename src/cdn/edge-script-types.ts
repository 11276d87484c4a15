/**
 * Wire types of edge scripts (the compute document: scripts, code, variables, secrets,
 * releases, statistics), aliased from src/cdn/generated/compute.ts so callers never reach into
 * the generated file.
 */
import type { components } from './generated/compute.js';

type Compute = components['schemas'];

/** Script type: 0 DNS, 1 standalone (CDN), 2 middleware. */
export type EdgeScriptType = Compute['EdgeScriptTypes'];

/**
 * A script as read. `DeploymentKey` is a credential (it deploys code to the script): the client
 * registers it as a secret, so no error text carries it; a caller must keep it out of logs,
 * events and status.
 */
export type EdgeScript = Compute['EdgeScriptModel'];
/** A pull zone a script is linked to: fronting a standalone script, or running a middleware. */
export type EdgeScriptLinkedPullZone = Compute['LinkedPullZone'];
/**
 * Body of `POST /compute/script`. `CreateLinkedPullZone` gives a standalone script a pull zone
 * of its own (named `LinkedPullZoneName`, else by the platform).
 */
export type EdgeScriptAddRequest = Compute['AddEdgeScriptModel'];
/** Body of `POST /compute/script/{id}`: name and type; members left out keep their value. */
export type EdgeScriptUpdate = Compute['UpdateEdgeScriptModel'];
/** A script's code as last set, and when. */
export type EdgeScriptCode = Compute['EdgeScriptCodeModel'];
/** Usage figures of a script over a range, with per-day (or per-hour) charts. */
export type EdgeScriptStatistics = Compute['EdgeScriptStatisticsModel'];

/** An environment variable of a script. */
export type EdgeScriptVariable = Compute['EdgeScriptVariableModel'];
/** Body of `POST .../variables/add`. */
export type EdgeScriptVariableAdd = Compute['AddEdgeScriptVariableModel'];
/** Body of `POST .../variables/{variableId}`: members left out keep their value. */
export type EdgeScriptVariableUpdate = Compute['UpdateEdgeScriptVariableModel'];
/** Body of `PUT .../variables` (by name: creates or updates). */
export type EdgeScriptVariableUpsert = Compute['UpsertEdgeScriptVariableModel'];

/** A secret of a script as read: id, name and when it last changed, never its value. */
export type EdgeScriptSecret = Compute['EdgeScriptSecretModel'];
/** A secret to write: its name and value (`Secret`, write-only, registered as a secret). */
export interface EdgeScriptSecretWrite {
  Name: string;
  Secret: string;
}

/** A published release: its code, `Uuid` (what a rollback names), `Status` 0 Archived / 1 Live. */
export type EdgeScriptRelease = Compute['EdgeScriptReleaseModel'];

/** What to publish: the current code as a new release, or an earlier release again. */
export interface EdgeScriptPublish {
  /** The `Uuid` of an earlier release to make live again (a rollback); absent: the current code. */
  releaseUuid?: string;
  /** A note stored with a new release. */
  note?: string;
}

/** The list's filters. */
export interface EdgeScriptListQuery {
  /** Only scripts of these types. */
  type?: readonly EdgeScriptType[];
  /** Only scripts whose name contains this. */
  search?: string;
  /** Fill each script's `LinkedPullZones` (the list leaves them out otherwise). */
  includeLinkedPullZones?: boolean;
}

/** Range of the statistics (default the last 30 days), by day or by hour. */
export interface EdgeScriptStatisticsQuery {
  dateFrom?: Date | string;
  dateTo?: Date | string;
  hourly?: boolean;
  loadLatest?: boolean;
}
