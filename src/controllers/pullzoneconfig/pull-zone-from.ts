/**
 * `spec.pullZoneFrom`: a PullZoneConfig that manages the pull zone the platform made for another
 * object of its namespace (issue 48). The mechanism is the kit's (kit/linked-resource.ts: the id
 * comes from the owner only, never a create, never a delete); this file is the PullZoneConfig's
 * opt-in: the owner table (one row per kind that brings a zone: where its status reports the
 * id) and the settings the owner fixes.
 */
import { CONTAINER_APP_NAMES } from '../containerapp/types.js';
import { DNS_RECORD_NAMES } from '../dnsrecord/types.js';
import { EDGE_SCRIPT_NAMES } from '../edgescript/types.js';
import type { LinkOwner, LinkRules } from '../kit/linked-resource.js';
import { VIDEO_LIBRARY_NAMES } from '../videolibrary/types.js';
import { PULL_ZONE_CLAIM } from '../shared/claim-types.js';

/** Synced reason once the owner no longer reports its zone, or the zone is gone. */
export const LinkedZoneGone = 'LinkedZoneGone';

/** The kinds whose objects bring a pull zone, and where their status reports its id. */
export const PULL_ZONE_OWNERS: readonly LinkOwner[] = [
  {
    kind: DNS_RECORD_NAMES,
    idPath: 'acceleratedPullZoneId',
    when: 'an accelerated record: spec.accelerated true',
  },
  {
    kind: CONTAINER_APP_NAMES,
    idPath: 'containers[name=container?].endpoints[displayName=endpoint].pullZoneId',
    when: 'a CDN endpoint, named by endpoint (and container)',
    members: {
      endpoint: 'the displayName of the CDN endpoint whose pull zone is managed',
      container:
        'the container template (spec.containerTemplates[].name) of the endpoint; may be left out when one container has an endpoint of that name',
    },
  },
  {
    kind: EDGE_SCRIPT_NAMES,
    idPath: 'pullZoneId',
    when: 'a Standalone script',
  },
  {
    kind: VIDEO_LIBRARY_NAMES,
    idPath: 'pullZoneId',
    when: 'every library (the platform makes its pull zone with it)',
  },
];

/** How a PullZoneConfig links (kit/linked-resource.ts). */
export const PULL_ZONE_LINK: LinkRules = {
  field: 'pullZoneFrom',
  idStatusField: 'pullZoneId',
  statusField: 'linkedFrom',
  claimType: PULL_ZONE_CLAIM,
  what: 'pull zone',
  goneReason: LinkedZoneGone,
  owners: PULL_ZONE_OWNERS,
};

/**
 * The spec fields that set a zone's origin, which the owner of a linked zone fixes (the DNS
 * record's value, the container endpoint, the script, the library's storage zone): the CRD refuses them beside
 * `pullZoneFrom` rather than have the operator and the owner write it in turn.
 */
export const OWNER_FIXED_SETTINGS = [
  'originType',
  'originUrl',
  'storageZoneId',
  'edgeScriptId',
  'magicContainersAppId',
  'magicContainersEndpointId',
];
/** The references that set the origin, refused beside `pullZoneFrom` for the same reason. */
export const OWNER_FIXED_REFS = ['storageZoneRef', 'edgeScriptRef'];
