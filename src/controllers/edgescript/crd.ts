/**
 * The EdgeScript CRD schema: the field table's properties (fields.ts), the code's source, the
 * publish policy and the release; account, adoption and status fragments are shared with the
 * other kinds. Rendered by hack/generate-crds.ts.
 */
import { schemaOf } from '../kit/fields.js';
import {
  keyRefSchema,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { managedKindSchema } from '../shared/managed-spec.js';
import {
  booleanSchema,
  int64Schema,
  listSchema,
  objectSchema,
  statusColumn,
  stringSchema,
} from '../shared/schema-nodes.js';
import { EDGE_SCRIPT_FIELDS } from './fields.js';
import { RELEASES_SHOWN } from './releases.js';
import { outputSecretRefSchema, secretStatusSchema, secretsSchema } from './secrets-crd.js';
import type { KindPart } from '../kit/kind-parts.js';

/** The most characters of inline code; longer scripts come from a ConfigMap. */
export const INLINE_CODE_MAX = 32_768;
/** A release uuid as the platform writes it. */
const UUID_PATTERN =
  '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

function codeSchema(): Schema {
  return {
    ...objectSchema(
      {
        inline: {
          type: 'string',
          // A script without code has nothing to publish (cdn-sim answers 400, docs/simulator.md).
          minLength: 1,
          maxLength: INLINE_CODE_MAX,
          description: `The code itself, for short scripts (at most ${INLINE_CODE_MAX} characters).`,
        },
        configMapKeyRef: configMapKeyRefSchema(
          'The code is the value of this ConfigMap key. The operator reads it and watches the ConfigMap: an edit sets the code once (and publishes it under publish: Always).',
        ),
      },
      {
        description:
          'The script code (JavaScript or TypeScript): exactly one of inline and configMapKeyRef.',
      },
    ),
    'x-kubernetes-validations': [
      {
        rule: 'has(self.inline) != has(self.configMapKeyRef)',
        message: 'code needs exactly one of inline and configMapKeyRef',
      },
    ],
  };
}

/** The most variables `spec.env` lists. */
export const ENV_MAX = 64;

function configMapKeyRefSchema(description: string): Schema {
  return keyRefSchema('ConfigMap', description);
}

function envSchema(): Schema {
  const item: Schema = {
    ...objectSchema(
      {
        // Bounds: AddEdgeScriptVariableModel (Name 1..256, DefaultValue up to 4096).
        name: {
          type: 'string',
          minLength: 1,
          maxLength: 256,
          description: 'Name of the variable.',
        },
        value: { type: 'string', maxLength: 4096, description: 'The value itself.' },
        valueFrom: objectSchema(
          {
            configMapKeyRef: configMapKeyRefSchema(
              'The value is this ConfigMap key. The operator watches the ConfigMap: an edit updates the variable.',
            ),
          },
          { description: 'Take the value from a ConfigMap key.', required: ['configMapKeyRef'] },
        ),
        required: {
          type: 'boolean',
          description: 'The platform marks the variable required by the script (default false).',
        },
      },
      { required: ['name'] },
    ),
    'x-kubernetes-validations': [
      {
        rule: '!(has(self.value) && has(self.valueFrom))',
        message: 'set value or valueFrom, not both',
      },
    ],
  };
  return listSchema(
    `Environment variables of the script (at most ${ENV_MAX}). Absent: the script's variables are not managed. Set (even empty): the script holds exactly these; one it has and this list does not is deleted. Secrets do not belong here.`,
    item,
    { maxItems: ENV_MAX, key: 'name' },
  );
}

function ownSpec(docs: DocumentBounds): Schema {
  const { properties, required } = schemaOf(EDGE_SCRIPT_FIELDS, docs);
  return {
    type: 'object',
    description: 'Desired state of one edge script: its type, name, code and what is live.',
    required: [...required, 'code'],
    properties: {
      ...properties,
      code: codeSchema(),
      env: envSchema(),
      secrets: secretsSchema(),
      outputSecretRef: outputSecretRefSchema(),
      publish: {
        type: 'string',
        enum: ['Always', 'Held'],
        default: 'Always',
        description:
          'Always: every code change is set, then published as a new release. Held: code changes are set but nothing is published until release names the release to make live.',
      },
      release: {
        type: 'string',
        pattern: UUID_PATTERN,
        description:
          'With publish: Held, the uuid of the release to make live (status.releases lists them). Naming an earlier release publishes it again: the rollback.',
      },
    },
    'x-kubernetes-validations': [
      {
        rule: "!has(self.release) || self.publish == 'Held'",
        message: 'release applies only with publish: Held (Always publishes every code change)',
      },
    ],
  };
}

function releaseItem(): Schema {
  return objectSchema(
    {
      uuid: stringSchema('Uuid of the release (what spec.release names).'),
      live: booleanSchema('True for the live release.'),
      publishedAt: stringSchema('When it was published.'),
    },
    { required: ['uuid', 'live'] },
  );
}

/** The EdgeScript schema (edgescripts). */
export function edgeScriptSchema(docs: DocumentBounds): KindSchema {
  return managedKindSchema({
    description:
      'An edge script (standalone or middleware) managed by cdn-operator: its code, releases and rollback.',
    spec: ownSpec(docs),
    idDescription:
      'Adopt the existing script with this id (refused when another object manages it). The operator never creates a script when this is set. Immutable.',
    what: 'edge script',
    nameField: 'spec.name (or metadata.name)',
    status: {
      description:
        'Observed state of the script. The deployment key and secret values are never shown here.',
      conditions:
        'Ready (the script matches the spec), Synced (the last reconcile succeeded) and OutputsReady (the outputs Secret is written, when spec.outputSecretRef is set).',
      properties: {
        scriptId: int64Schema('Id of the managed script.'),
        name: stringSchema('Name of the script on the platform.'),
        scriptType: stringSchema('Type of the script on the platform.'),
        codeHash: stringSchema('sha256: digest of the code the script holds (the code last set).'),
        activeRelease: stringSchema('Uuid of the live release.'),
        releases: listSchema(`The last ${RELEASES_SHOWN} releases, newest first.`, releaseItem(), {
          maxItems: RELEASES_SHOWN,
          key: 'uuid',
        }),
        pullZoneId: int64Schema('Id of the pull zone fronting a standalone script, if it has one.'),
        hostname: stringSchema('Hostname the standalone script answers on, if it has one.'),
        secrets: secretStatusSchema(),
      },
    },
    columns: [
      statusColumn('ID', 'integer', 'Id of the script.', 'scriptId'),
      statusColumn('TYPE', 'string', 'Type of the script.', 'scriptType'),
      statusColumn('RELEASE', 'string', 'Live release.', 'activeRelease'),
    ],
  });
}

/** The kind's CRD schema, under its part's name (kit/kind-parts.ts). */
export const schema: KindPart<'schema'> = edgeScriptSchema;
