/**
 * How edge scripts and pull zones meet (docs/simulator.md, "Edge scripts"):
 *
 * - a standalone script created with `CreateLinkedPullZone: true` gets a pull zone fronting it,
 *   as the live platform makes one: an ordinary pull zone (read, updated, adopted, deleted like
 *   any other) with origin type EdgeScript and `EdgeScriptId` naming the script, named
 *   `LinkedPullZoneName` when given, else after the script;
 * - a middleware script attaches to pull zones through their own `MiddlewareScriptId`;
 * - deleting a script deletes the zones linked to it with `deleteLinkedPullZones=true`; without,
 *   a zone fronting it gets the landing page as origin and a zone running it as middleware
 *   drops it, as the document describes.
 */
import type { SimState } from '../state.js';
import type { SimResponse } from '../types.js';
import { apiError } from '../errors.js';
import { linkedZones, SCRIPT_TYPE, type StoredScript } from './compute-model.js';
import {
  createPullZone,
  freePullZoneName,
  pullZoneNameProblem,
  removePullZone,
} from './pullzone-model.js';

/** PullZoneOriginType EdgeScript. */
const ORIGIN_EDGE_SCRIPT = 4;
/**
 * The origin URL a zone fronting a script shows; the vendor's Terraform provider writes this one
 * for its own script-fronted zones (the platform's value is not shown).
 */
const SCRIPT_ORIGIN_URL = 'https://bunnycdn.com';
/** Where a zone whose script is deleted points (the document's "landing page"; a guess). */
const LANDING_PAGE_URL = 'https://bunny.net';
/** PullZoneOriginType OriginUrl. */
const ORIGIN_URL = 0;

/** The script's name as a pull zone name: lower case, letters, digits and single dashes. */
function zoneNameFor(script: StoredScript): string {
  const base = script.Name.toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 50)
    .replace(/-$/, '');
  return base === '' ? `script-${script.Id}` : base;
}

/**
 * The name the pull zone of a new standalone script will get, or the 400 answer when the one
 * asked for (`LinkedPullZoneName`) is not allowed or taken. Checked before the script exists, so
 * a refused create leaves nothing behind.
 */
export function linkedZoneName(
  state: SimState,
  asked: string | undefined,
  script: StoredScript,
): string | SimResponse {
  if (asked === undefined) return freePullZoneName(state, zoneNameFor(script));
  const problem = pullZoneNameProblem(asked, 'LinkedPullZoneName');
  if (problem) return problem;
  if (!state.findPullZoneByName(asked)) return asked;
  return apiError(
    400,
    'pullzone.name_taken',
    'LinkedPullZoneName',
    `The pull zone name ${asked} is already taken`,
  );
}

/** Whether a create asks for a pull zone the script gets one for (standalone scripts only). */
export function wantsLinkedZone(scriptType: number, createLinkedPullZone: unknown): boolean {
  return createLinkedPullZone === true && scriptType === SCRIPT_TYPE.standalone;
}

/** Creates the pull zone fronting a standalone script. */
export function createLinkedZone(state: SimState, script: StoredScript, name: string): void {
  createPullZone(state, name, {
    OriginType: ORIGIN_EDGE_SCRIPT,
    OriginUrl: SCRIPT_ORIGIN_URL,
    EdgeScriptId: script.Id,
  });
}

/** What becomes of the pull zones linked to a deleted script (see the module comment). */
export function releaseLinkedZones(
  state: SimState,
  script: StoredScript,
  deleteZones: boolean,
): void {
  for (const zone of linkedZones(state, script.Id)) {
    if (deleteZones) {
      removePullZone(state, Number(zone.record.Id));
      continue;
    }
    if (zone.record.EdgeScriptId === script.Id) {
      Object.assign(zone.record, {
        EdgeScriptId: 0,
        OriginType: ORIGIN_URL,
        OriginUrl: LANDING_PAGE_URL,
      });
    }
    if (zone.record.MiddlewareScriptId === script.Id) zone.record.MiddlewareScriptId = null;
  }
  state.touch();
}
