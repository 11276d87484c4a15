/**
 * hack/api-model/strip.ts: the committed API model keeps the documents' structure and drops
 * their prose. Runs without the official documents (small inline documents).
 */
import test from 'ava';
import { toApiModel } from '../../../hack/api-model/strip.js';
import { API_MODEL } from '../../../src/simulator/documents/load.js';

type Json = Record<string, unknown>;

const document: Json = {
  openapi: '3.0.0',
  info: { title: 'bunny.net API', description: 'Long text', version: '1.0.0', contact: {} },
  servers: [{ url: 'https://api.bunny.net', description: 'Server' }],
  tags: [{ name: 'PullZone', description: 'Zones' }],
  paths: {
    '/pullzone/{id}': {
      get: {
        tags: ['PullZone'],
        summary: 'Get Pull Zone',
        description: 'Returns the zone',
        operationId: 'PullZonePublic_Index2',
        'x-position': 1,
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            description: 'The id',
            schema: { type: 'integer', format: 'int64', minimum: 1 },
          },
        ],
        responses: {
          '200': {
            description: 'OK',
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/Zone' },
                example: { Id: 1 },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Zone: {
        type: 'object',
        description: 'A zone',
        additionalProperties: false,
        required: ['description', 'Region'],
        properties: {
          description: {
            type: 'string',
            nullable: true,
            maxLength: 10,
            description: 'A member named description',
          },
          title: { type: 'string', title: 'Title', example: 'x' },
          Region: {
            type: 'string',
            description: 'The region code (Possible values: DE, NY)',
            minLength: 1,
          },
          Tier: { type: 'integer', enum: [0, 1], 'x-enumNames': ['Standard', 'Edge'], default: 0 },
          Mode: {
            type: 'integer',
            enum: [0, 1],
            'x-enum-varnames': ['Log', 'Block'],
            'x-deprecatedMessage': 'Use X',
          },
        },
      },
    },
    securitySchemes: {
      AccessKey: { type: 'apiKey', name: 'AccessKey', in: 'header', description: 'Key' },
    },
  },
};

test('the model keeps the structure, member names and order, and drops the prose', (t) => {
  t.deepEqual(toApiModel(document), {
    openapi: '3.0.0',
    info: { title: 'bunny.net API', version: '1.0.0' },
    servers: [{ url: 'https://api.bunny.net' }],
    paths: {
      '/pullzone/{id}': {
        get: {
          operationId: 'PullZonePublic_Index2',
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              schema: { type: 'integer', format: 'int64', minimum: 1 },
            },
          ],
          responses: {
            '200': {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Zone' } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Zone: {
          type: 'object',
          additionalProperties: false,
          required: ['description', 'Region'],
          properties: {
            description: { type: 'string', nullable: true, maxLength: 10 },
            title: { type: 'string' },
            Region: { type: 'string', description: '(Possible values: DE, NY)', minLength: 1 },
            Tier: {
              type: 'integer',
              enum: [0, 1],
              'x-enumNames': ['Standard', 'Edge'],
              default: 0,
            },
            Mode: { type: 'integer', enum: [0, 1], 'x-enum-varnames': ['Log', 'Block'] },
          },
        },
      },
      securitySchemes: { AccessKey: { type: 'apiKey', name: 'AccessKey', in: 'header' } },
    },
  });
  const props = (toApiModel(document).components as Json).schemas as Record<string, Json>;
  t.deepEqual(Object.keys(props.Zone!.properties as Json), [
    'description',
    'title',
    'Region',
    'Tier',
    'Mode',
  ]);
});

test('the model does not change the document it was made from', (t) => {
  const before = structuredClone(document);
  toApiModel(document);
  t.deepEqual(document, before);
});

test('a member named __proto__ is refused, not turned into a prototype', (t) => {
  const hostile = JSON.parse('{"components":{"schemas":{"__proto__":{"type":"string"}}}}') as Json;
  t.throws(() => toApiModel(hostile), { message: /cannot model the document: .*__proto__/ });
});

const NAME_MAPS = ['properties', 'paths', 'schemas', 'responses', 'content', 'securitySchemes'];
const DATA = ['enum', 'default', 'required', 'x-enumNames', 'x-enum-varnames'];

/** Whether keyword `key` (at `pointer`) is prose the model must not carry. */
function isProse(key: string, value: unknown, pointer: string): boolean {
  if (key === 'description') return !/^\(Possible values: [^)]*\)$/.test(String(value));
  if (key === 'title') return !/^\/\w+\/info$/.test(pointer);
  if (key.startsWith('x-')) return !['x-enumNames', 'x-enum-varnames'].includes(key);
  return ['summary', 'example', 'examples', 'tags'].includes(key);
}

/** Pointers of prose keywords under `node`; `names` when its keys are names, not keywords. */
function proseIn(node: unknown, pointer: string, names: boolean, found: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => proseIn(item, `${pointer}/${i}`, false, found));
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    if (!names && isProse(key, value, pointer)) found.push(`${pointer}/${key}`);
    if (!names && DATA.includes(key)) continue;
    proseIn(value, `${pointer}/${key}`, !names && NAME_MAPS.includes(key), found);
  }
}

test('the committed model carries no prose keywords', (t) => {
  const found: string[] = [];
  for (const [area, model] of Object.entries(API_MODEL)) proseIn(model, `/${area}`, false, found);
  t.deepEqual(found, []);
  // The walk finds prose where there is some: the inline document above.
  const sample: string[] = [];
  proseIn(document, '', false, sample);
  t.true(sample.includes('/paths//pullzone/{id}/get/summary'), sample.join(' '));
  t.true(sample.includes('/components/schemas/Zone/properties/Mode/x-deprecatedMessage'));
  t.false(sample.includes('/components/schemas/Zone/properties/description'));
});
