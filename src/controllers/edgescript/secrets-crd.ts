/**
 * The CRD schema of the script's secrets (`spec.secrets`, secrets.ts), their status (never a
 * value) and the outputs Secret with the deployment key (`spec.outputSecretRef`,
 * deployment-key.ts).
 */
import { nameRefSchema, secretKeyRefSchema, type Schema } from '../shared/crd-schema.js';
import { listSchema, objectSchema, stringSchema } from '../shared/schema-nodes.js';

/** The most secrets `spec.secrets` lists (as many as `spec.env`). */
const SECRETS_MAX = 64;

/** `spec.secrets`: names and the Secret keys their values come from. */
export function secretsSchema(): Schema {
  const item = objectSchema(
    {
      // Bounds: EdgeScriptAddSecretModel.Name of the compute document (1..256).
      name: { type: 'string', minLength: 1, maxLength: 256, description: 'Name of the secret.' },
      valueFrom: objectSchema(
        {
          secretKeyRef: secretKeyRefSchema(
            'The value is this key of a Secret in the same namespace (at most 4096 characters, the platform limit). The operator watches the Secret: a new value (a rotation) is sent once.',
            'Key inside the Secret data.',
          ),
        },
        { description: 'Where the value comes from.', required: ['secretKeyRef'] },
      ),
    },
    { required: ['name', 'valueFrom'] },
  );
  return listSchema(
    `Secrets of the script (at most ${SECRETS_MAX}), each from a Secret key; the platform never returns a value, and the operator never shows one (status keeps a salted digest). Absent: the script's secrets are not managed. Set (even empty): the script holds exactly these; one it has and this list does not is deleted.`,
    item,
    { maxItems: SECRETS_MAX, key: 'name' },
  );
}

/** `spec.outputSecretRef`. */
export function outputSecretRefSchema(): Schema {
  return nameRefSchema(
    'A Secret (same namespace, created and owned by this resource) that receives the deployment key (deploymentKey), scriptId and, for a standalone script, hostname: for CI that deploys code. Written only when set. An existing Secret not owned by this resource is never touched (status condition OutputsReady=False SecretNotOwned).',
    'Name of the Secret.',
  );
}

/** `status.secrets`. */
export function secretStatusSchema(): Schema {
  return listSchema(
    'The secrets as last written or accepted, one per spec.secrets entry: never a value.',
    objectSchema(
      {
        name: stringSchema('Name of the secret.'),
        fingerprint: stringSchema(
          'sha256: digest of the object uid, the name and the value last written (tells a rotated Secret; reveals nothing of the value).',
        ),
        lastModified: stringSchema(
          'When the platform says the secret last changed, after that write (another time means it was changed outside the operator: it is written again).',
        ),
      },
      { required: ['name', 'fingerprint'] },
    ),
    { maxItems: SECRETS_MAX, key: 'name' },
  );
}
