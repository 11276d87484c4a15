/**
 * Releases and the publish policy. `Always`: the live release must hold the spec's code, so a
 * code change is set, then published once. `Held`: code is set, nothing is published until
 * `spec.release` names a release uuid; naming an earlier one makes it live again (the rollback).
 * The decision compares digests only: observe reads, never writes.
 */
import type { EdgeScriptPublish, EdgeScriptRelease } from '../../cdn/edge-script-types.js';
import type { FieldDiff } from '../../runtime/types.js';
import { codeHashOf } from './code.js';
import type { EdgeScript, ReleaseSummary } from './types.js';

/** How many releases status lists, newest first. */
export const RELEASES_SHOWN = 10;
/** `Status` of the live release (`EdgeScriptReleaseStatus`: 0 Archived, 1 Live). */
const LIVE = 1;
/** How a plan shows no live release. */
const NONE = '(none)';

/** What observe knows of a script's code and releases. */
export interface ReleaseState {
  /** The code the script holds (null: none set). */
  code?: string | null;
  /** The live release, if any was published. */
  active?: EdgeScriptRelease | undefined;
}

/** Held: publish the release `spec.release` names, unless it is live. */
function heldPublish(
  named: string | undefined,
  live: string | undefined,
): { publish: EdgeScriptPublish; diff: FieldDiff } | undefined {
  if (named === undefined || named.toLowerCase() === live?.toLowerCase()) return undefined;
  return {
    publish: { releaseUuid: named },
    diff: { field: 'release', live: live ?? NONE, desired: named },
  };
}

/** The publish call the spec asks for, with its plan entry; undefined: nothing to publish. */
export function publishOf(
  obj: EdgeScript,
  state: ReleaseState,
  wantedHash: string,
): { publish: EdgeScriptPublish; diff: FieldDiff } | undefined {
  const live = state.active?.Uuid ?? undefined;
  if (obj.spec?.publish === 'Held') return heldPublish(obj.spec.release, live);
  const activeHash = state.active ? codeHashOf(state.active.Code ?? '') : undefined;
  if (activeHash === wantedHash) return undefined;
  return {
    publish: {},
    diff: { field: 'release', live: live ?? NONE, desired: 'a new release of the code' },
  };
}

/** The newest releases first, as status lists them. */
export function releaseSummaries(releases: readonly EdgeScriptRelease[]): ReleaseSummary[] {
  return [...releases]
    .filter((r) => r.Deleted !== true && typeof r.Uuid === 'string')
    .sort((a, b) => (b.Id ?? 0) - (a.Id ?? 0))
    .slice(0, RELEASES_SHOWN)
    .map((r) => ({
      uuid: r.Uuid as string,
      live: r.Status === LIVE,
      ...(r.DatePublished ? { publishedAt: r.DatePublished } : {}),
    }));
}
