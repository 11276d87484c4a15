/**
 * The EdgeScript's fields, written once (kit/fields.ts): the name and the type go to the
 * script's create and update bodies and to status. The code, the publish policy and the release
 * are the hooks' (code.ts, releases.ts, index.ts): they take their own calls.
 */
import { enumByNumber, numberedNames, text } from '../kit/codecs.js';
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
] as const;
