/**
 * JSON schemas of the application write bodies (create/replace and merge patch), written from
 * the official Magic Containers document plus the contract's ids on PATCH volume and endpoint
 * items (see contract-exceptions.ts). They apply also with `--no-strict`. Compiled once with ajv; errors become `{ field, message }`.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { HTTP_STATUS_NAMES } from '../../cdn/http-status-names.js';
import type { FieldError } from '../errors.js';

const nullable = (type: string): { type: string[] } => ({ type: [type, 'null'] });
const port = { type: 'integer', minimum: 1, maximum: 65535 };
const seconds = { type: ['integer', 'null'], minimum: 1, maximum: 3600 };
const threshold = { type: ['integer', 'null'], minimum: 1, maximum: 1000 };
const IMAGE_PART = '^[a-zA-Z0-9]+(?:[./_-]{1,2}[a-zA-Z0-9]+)*$';
const TAG = '^[a-zA-Z0-9]+(?:[._-]{1,2}[a-zA-Z0-9]+)*$';

function obj(
  properties: Record<string, unknown>,
  required: string[] = [],
): Record<string, unknown> {
  return { type: 'object', additionalProperties: false, properties, required };
}

const portMapping = obj(
  {
    containerPort: port,
    exposedPort: { ...port, type: ['integer', 'null'] },
    protocols: { type: 'array', items: { enum: ['tcp', 'udp', 'sctp'] } },
  },
  ['containerPort'],
);

const stickySessions = obj(
  {
    enabled: { type: 'boolean' },
    sessionHeaders: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'string' } },
    cookieName: { type: 'string' },
  },
  ['sessionHeaders'],
);

const cdn = obj({
  isSslEnabled: { type: 'boolean' },
  stickySessions,
  pullZoneId: nullable('integer'),
  portMappings: { type: 'array', minItems: 1, maxItems: 1, items: portMapping },
});

const anycast = obj(
  {
    type: { enum: ['iPv4'] },
    portMappings: { type: 'array', minItems: 1, items: portMapping },
  },
  ['type', 'portMappings'],
);

/** Only PATCH items may carry an id (the contract's PATCH rule); the document has none. */
function endpoint(patch: boolean): Record<string, unknown> {
  return obj(
    {
      ...(patch ? { id: nullable('string') } : {}),
      displayName: { type: 'string', minLength: 1, maxLength: 50 },
      cdn,
      anycast,
    },
    ['displayName'],
  );
}

const probe = obj({
  initialDelaySeconds: seconds,
  periodSeconds: seconds,
  timeoutSeconds: seconds,
  failureThreshold: threshold,
  successThreshold: threshold,
  httpGet: obj({
    request: obj({ path: { type: 'string' }, portNumber: port }),
    response: obj({ expectedStatusCode: { enum: HTTP_STATUS_NAMES } }),
  }),
  tcpSocket: obj({ request: obj({ portNumber: port }) }),
  grpc: obj({ request: obj({ portNumber: port, serviceName: nullable('string') }) }),
});

const stringArray = { type: ['array', 'null'], items: { type: 'string' } };

const entryPoint = obj({
  command: nullable('string'),
  commandArray: stringArray,
  arguments: nullable('string'),
  argumentsArray: stringArray,
  workingDirectory: nullable('string'),
});

function container(patch: boolean): Record<string, unknown> {
  return obj(
    {
      id: nullable('string'),
      name: { type: 'string', minLength: 1, maxLength: 50 },
      image: nullable('string'),
      imageName: { type: 'string', minLength: 1, pattern: IMAGE_PART },
      imageNamespace: { type: 'string', minLength: 1, pattern: IMAGE_PART },
      imageTag: { type: 'string', minLength: 1, pattern: TAG },
      imageDigest: { type: ['string', 'null'], pattern: '^sha256:[a-z0-9]{64}$' },
      imageRegistryId: { type: 'string', minLength: 1 },
      imagePullPolicy: { enum: ['always', 'ifNotPresent'] },
      entryPoint,
      probes: obj({ startup: probe, readiness: probe, liveness: probe }),
      environmentVariables: {
        type: 'array',
        items: obj({ name: { type: 'string', minLength: 1 }, value: { type: 'string' } }, ['name']),
      },
      endpoints: { type: 'array', items: endpoint(patch) },
      volumeMounts: {
        type: 'array',
        items: obj(
          {
            name: { type: 'string', minLength: 1, maxLength: 50 },
            mountPath: {
              type: 'string',
              minLength: 1,
              pattern: '^/(?!.*//)(?!.*\\.\\.)(?!.*\\s)([a-zA-Z0-9._-]+/?)+$',
            },
          },
          ['name', 'mountPath'],
        ),
      },
    },
    ['name', 'imageName', 'imageNamespace', 'imageTag', 'imageRegistryId'],
  );
}

function volume(patch: boolean): Record<string, unknown> {
  return obj(
    {
      ...(patch ? { id: nullable('string') } : {}),
      name: { type: 'string', minLength: 1, maxLength: 50 },
      size: { type: 'integer', minimum: 1, maximum: 100 },
    },
    ['name', 'size'],
  );
}

const autoScaling = obj(
  {
    min: { type: 'integer', minimum: 1, maximum: 1000 },
    max: { type: 'integer', minimum: 1, maximum: 1000 },
  },
  ['min', 'max'],
);

const regionSettings = obj({
  allowedRegionIds: stringArray,
  requiredRegionIds: stringArray,
  maxAllowedRegions: nullable('integer'),
  nodeSelectors: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
});

const appName = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9-\\s]+$' };
const runtimeType = { enum: ['shared', 'reserved'] };

const createSchema = obj(
  {
    name: appName,
    runtimeType,
    terminationGracePeriodSeconds: { type: 'integer', minimum: 1, maximum: 300 },
    repositorySettings: obj({
      templateRepository: nullable('string'),
      repositoryName: nullable('string'),
      owner: nullable('string'),
    }),
    autoScaling,
    regionSettings,
    containerTemplates: { type: 'array', minItems: 1, items: container(false) },
    volumes: { type: 'array', items: volume(false) },
  },
  ['name', 'runtimeType', 'autoScaling', 'regionSettings'],
);

const patchSchema = obj({
  name: { ...appName, type: ['string', 'null'] },
  runtimeType,
  autoScaling,
  regionSettings,
  containerTemplates: { type: ['array', 'null'], items: container(true) },
  volumes: { type: ['array', 'null'], items: volume(true) },
});

const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
const validateCreate: ValidateFunction = ajv.compile(createSchema);
const validatePatch: ValidateFunction = ajv.compile(patchSchema);

/** `/containerTemplates/0/name` -> `containerTemplates[0].name`. */
export function pointerToField(pointer: string): string {
  return pointer
    .split('/')
    .filter((s) => s.length > 0)
    .map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
}

function toFieldError(e: ErrorObject): FieldError {
  const base = pointerToField(e.instancePath);
  const params = e.params as { missingProperty?: string; additionalProperty?: string };
  const child = params.missingProperty ?? params.additionalProperty;
  const field = child ? (base ? `${base}.${child}` : child) : base || 'body';
  const message =
    e.keyword === 'additionalProperties' ? 'is not a known property' : (e.message ?? e.keyword);
  return { field, message };
}

function collect(validate: ValidateFunction, body: unknown): FieldError[] {
  if (validate(body)) return [];
  const seen = new Set<string>();
  return (validate.errors ?? []).map(toFieldError).filter((e) => {
    const key = `${e.field}:${e.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** Schema problems of a create or replace body. */
export function checkCreateBody(body: unknown): FieldError[] {
  return collect(validateCreate, body);
}

/** Schema problems of a merge-patch body. */
export function checkPatchBody(body: unknown): FieldError[] {
  return collect(validatePatch, body);
}
