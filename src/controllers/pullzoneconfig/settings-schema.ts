/**
 * The OpenAPI v3 (structural) schema of `spec.settings`, derived from the field table:
 * one property per setting, limits as `minimum`/`maximum`, enum names as `enum`, secret
 * settings as Secret key references named `<setting>Ref`.
 */
import { objectNameSchema, type Schema } from '../shared/crd-schema.js';
import { boundedStringSchema, objectSchema } from '../shared/schema-nodes.js';
import type { SettingField } from './field-types.js';
import { SETTING_FIELDS, secretRefName } from './fields.js';
import { MAX_OPTIMIZER_CLASSES, optimizerClassSchema } from './optimizer-classes.js';

export type { Schema } from '../shared/crd-schema.js';

function rangeText(f: SettingField): string {
  const tiers = f.roundUpTo
    ? ` The platform keeps the tiers ${f.roundUpTo.join(', ')}: a value between two is rounded up to the next.`
    : '';
  if (f.minimum !== undefined && f.maximum !== undefined) {
    return ` Range: ${f.minimum} to ${f.maximum}.${tiers}`;
  }
  return tiers;
}

function describe(f: SettingField): string {
  const enumText = f.enumNames ? ` One of: ${f.enumNames.join(', ')}.` : '';
  return `${f.description}${enumText}${rangeText(f)} API field: ${f.api}.`;
}

/** Schema of a `{name, key}` Secret key reference. */
export function secretKeyRefSchema(description: string): Schema {
  return objectSchema(
    {
      name: objectNameSchema('Name of a Secret in the same namespace.'),
      key: { type: 'string', minLength: 1, description: 'Key inside the Secret data.' },
    },
    { description, required: ['name', 'key'] },
  );
}

/**
 * Size bounds, so oversized input is refused by the apiserver at apply time instead of costing
 * a platform call: URLs, hostnames and keys fit easily; custom error page markup gets more room.
 */
export const MAX_STRING_LENGTH = 2048;
const MAX_MARKUP_LENGTH = 65536;
const MAX_LIST_ITEMS = 10000;
const MAX_LIST_ITEM_LENGTH = 255;

const CLASS_ITEM: Schema = objectSchema(
  {
    name: boundedStringSchema('Name of the preset, used in the query string.', 255),
    properties: {
      type: 'object',
      description: 'Parameter names and values applied by the preset.',
      additionalProperties: { type: 'string', maxLength: MAX_STRING_LENGTH },
    },
  },
  { required: ['name'] },
);

/**
 * The platform keys optimizer classes and image blueprints by name: a map list, so a name
 * appears once and server-side apply merges items by name.
 */
function keyedByName(): Schema {
  return { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] };
}

function integerSchema(f: SettingField): Schema {
  const s: Schema = { type: 'integer', format: f.kind };
  if (f.minimum !== undefined) s.minimum = f.minimum;
  if (f.maximum !== undefined) s.maximum = f.maximum;
  return s;
}

function stringSchema(f: SettingField): Schema {
  const markup = f.api === 'ErrorPageCustomCode';
  const s: Schema = { type: 'string', maxLength: markup ? MAX_MARKUP_LENGTH : MAX_STRING_LENGTH };
  if (f.pattern) s.pattern = f.pattern;
  return s;
}

const SCALAR: Partial<Record<SettingField['kind'], Schema>> = {
  boolean: { type: 'boolean' },
  double: { type: 'number' },
};

function typeSchema(f: SettingField): Schema {
  const scalar = SCALAR[f.kind];
  if (scalar) return { ...scalar };
  switch (f.kind) {
    case 'int32':
    case 'int64':
      return integerSchema(f);
    case 'string':
      return stringSchema(f);
    case 'enum':
      return { type: 'string', enum: [...(f.enumNames ?? [])] };
    case 'stringList': {
      const item: Schema = { type: 'string', maxLength: MAX_LIST_ITEM_LENGTH };
      if (f.itemPattern) item.pattern = f.itemPattern;
      return { type: 'array', maxItems: MAX_LIST_ITEMS, items: item };
    }
    case 'optimizerClassList':
      return {
        type: 'array',
        maxItems: MAX_OPTIMIZER_CLASSES,
        ...keyedByName(),
        items: optimizerClassSchema(),
      };
    default:
      return { type: 'array', ...keyedByName(), items: CLASS_ITEM };
  }
}

/** The schema of one setting, keyed by its spec property name. */
export function settingSchema(f: SettingField): [string, Schema] {
  if (f.secret) {
    return [
      secretRefName(f),
      secretKeyRefSchema(
        `${f.description} Read from this Secret key, never written in the spec. API field: ${f.api}.`,
      ),
    ];
  }
  return [f.spec, { ...typeSchema(f), description: describe(f) }];
}

/** The schema of `spec.settings`. */
export function settingsSchema(): Schema {
  return {
    type: 'object',
    description:
      'Pull zone settings. Only the settings listed here are managed: a setting left out is never changed on the platform. Names are the API names in lowerCamelCase; enumerations use their names.',
    properties: Object.fromEntries(SETTING_FIELDS.map(settingSchema)),
  };
}
