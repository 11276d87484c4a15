/**
 * The EdgeScript's fields, written once (kit/fields.ts): the name and the type go to the
 * script's create and update bodies and to status. The code, the publish policy and the release
 * are the hooks' (code.ts, releases.ts, index.ts): they take their own calls.
 */
import { enumByNumber, flag, numberedNames, text } from '../kit/codecs.js';
import { immutable } from '../shared/crd-schema.js';
import { field } from '../kit/fields.js';

/** The type names of the spec and their numbers in `EdgeScriptTypes` (0 is DNS, not managed). */
export const SCRIPT_TYPES = numberedNames(['Standalone', 'Middleware'] as const, [1, 2]);

export const EDGE_SCRIPT_FIELDS = [
  field('name', text({ minLength: 1, maxLength: 100 }), {
    api: 'Name',
    status: 'name',
    defaultOf: (obj) => obj.metadata.name,
    // maxLength: AddEdgeScriptModel.Name and UpdateEdgeScriptModel.Name of the compute document.
    description:
      'Name of the script on the platform (defaults to metadata.name). Script names are not unique on the platform; adoption by name matches the exact name.',
  }),
  field('scriptType', enumByNumber(SCRIPT_TYPES), {
    api: 'ScriptType',
    status: 'scriptType',
    required: true,
    write: 'create',
    description:
      'Standalone: the script answers requests itself (CDN script). Middleware: the script runs in front of the origin of the pull zones that attach it. Fixed at creation. Immutable.',
  }),
  field('createPullZone', flag(), {
    api: 'CreateLinkedPullZone',
    write: 'create',
    compare: false,
    appliesTo: { field: 'scriptType', values: ['Standalone'] },
    schema: { 'x-kubernetes-validations': immutable('createPullZone') },
    description:
      'Standalone scripts: create the script with a pull zone of its own, as the dashboard does (named pullZoneName). status.pullZoneId and pullZoneHostname show it; a PullZoneConfig manages its settings, hostnames and edge rules with spec.pullZoneFrom {kind: EdgeScript, name}. Deleting the script leaves that pull zone in place, as the platform does. Read at creation only. Immutable.',
  }),
  field('pullZoneName', text({ minLength: 1, maxLength: 100 }), {
    api: 'LinkedPullZoneName',
    write: 'create',
    compare: false,
    appliesTo: { field: 'createPullZone', values: [true] },
    defaultOf: (obj) => {
      if (obj.spec?.createPullZone !== true) return undefined;
      return typeof obj.spec.name === 'string' ? obj.spec.name : obj.metadata.name;
    },
    schema: { 'x-kubernetes-validations': immutable('pullZoneName') },
    description:
      "With createPullZone: the name of the script's pull zone (pull zone names are unique on the platform; a taken name fails the create). Defaults to the script's name. Read at creation only. Immutable.",
  }),
] as const;
