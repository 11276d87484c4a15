/**
 * Typed optimizer classes (`spec.settings.optimizerClasses`). On the wire a class is
 * `{Name, Properties}`, the properties a free `string -> string` map (the core document's
 * `OptimizerClassModel`); the document does not list the parameters a class may carry. The
 * table below does: the Bunny Optimizer parameters the platform documents for image classes
 * (its Dynamic Images pages), each with the type and range documented there, and the names
 * the platform vendor's Terraform provider types for an optimizer class. The CRD gives each
 * one a typed member (`quality: 80`, `cropGravity: North`), so `kubectl apply` refuses an
 * out-of-range or misspelt value; `properties` stays for parameters without a member here,
 * sent as written, and may not repeat a typed one (a CEL rule).
 *
 * Pure: the table, the item schema, and the mapping both ways (typed values become their
 * decimal / `true`/`false` / verbatim strings, an enum name its query value (`SouthWest` ->
 * `southwest`: names are UpperCamel in the spec, docs/api.md); a live string that does not parse is kept as
 * the string, so the export's schema check reports it instead of exporting a wrong value).
 */
import { fromWireName, toWireName } from '../kit/enum-spelling.js';
import type { Schema } from '../shared/crd-schema.js';
import { boundedStringSchema, objectSchema } from '../shared/schema-nodes.js';

/** How a parameter is typed in the spec. */
type ParameterType = 'integer' | 'boolean' | 'string';

/** One documented optimizer parameter. */
export interface OptimizerParameter {
  /** Spec member (`cropGravity`). */
  spec: string;
  /** Query-string name the platform stores in `Properties` (`crop_gravity`). */
  wire: string;
  type: ParameterType;
  minimum?: number;
  maximum?: number;
  /** Spec names of an enum parameter, each with the query value the platform stores. */
  enum?: Readonly<Record<string, string>>;
  pattern?: string;
  /** Our own description, shown by `kubectl explain`. */
  description: string;
}

function int(
  spec: string,
  wire: string,
  minimum: number,
  maximum: number | undefined,
  description: string,
): OptimizerParameter {
  return {
    spec,
    wire,
    type: 'integer',
    minimum,
    ...(maximum === undefined ? {} : { maximum }),
    description,
  };
}

function flag(spec: string, description: string): OptimizerParameter {
  return { spec, wire: spec, type: 'boolean', description };
}

/** `cropGravity`: spec name -> the query value the platform stores. */
export const GRAVITY = {
  Center: 'center',
  North: 'north',
  South: 'south',
  East: 'east',
  West: 'west',
  NorthEast: 'northeast',
  NorthWest: 'northwest',
  SouthEast: 'southeast',
  SouthWest: 'southwest',
};
/** `autoOptimize`: spec name -> query value. */
export const OPTIMIZATION_LEVEL = { Low: 'low', Medium: 'medium', High: 'high' };

/** Every typed parameter, in the order the CRD lists them. */
export const OPTIMIZER_PARAMETERS: readonly OptimizerParameter[] = [
  int('width', 'width', 0, undefined, 'Resize to this width in pixels, keeping the aspect ratio.'),
  int(
    'height',
    'height',
    0,
    undefined,
    'Resize to this height in pixels, keeping the aspect ratio.',
  ),
  {
    spec: 'aspectRatio',
    wire: 'aspect_ratio',
    type: 'string',
    pattern: '^[0-9]+(\\.[0-9]+)?:[0-9]+(\\.[0-9]+)?$',
    description: 'Crop to this aspect ratio around the center, as width:height (16:9).',
  },
  int('quality', 'quality', 0, 100, 'Output quality in percent (lower: smaller files).'),
  flag('sharpen', 'Sharpen the output image.'),
  int('blur', 'blur', 0, 100, 'Blur the image by this amount.'),
  {
    spec: 'crop',
    wire: 'crop',
    type: 'string',
    pattern: '^[0-9]+,[0-9]+(,[0-9]+,[0-9]+)?$',
    description:
      'Crop to width,height (positioned by cropGravity) or width,height,x,y (offsets from the top-left corner), in pixels.',
  },
  {
    spec: 'cropGravity',
    wire: 'crop_gravity',
    type: 'string',
    enum: GRAVITY,
    description: 'Anchor of a width,height crop.',
  },
  flag('flip', 'Flip the image vertically.'),
  flag('flop', 'Flip the image horizontally.'),
  int(
    'brightness',
    'brightness',
    -100,
    100,
    'Lighten (positive) or darken (negative) every pixel.',
  ),
  int('gamma', 'gamma', -100, 100, 'Adjust brightness by luminosity (bright pixels change most).'),
  int('saturation', 'saturation', -100, 100, 'Increase or decrease color saturation.'),
  int('contrast', 'contrast', -100, 100, 'Increase or decrease contrast.'),
  int('hue', 'hue', 0, 100, 'Shift the hue.'),
  int('sepia', 'sepia', 0, 100, 'Apply a sepia tone of this strength.'),
  {
    spec: 'autoOptimize',
    wire: 'auto_optimize',
    type: 'string',
    enum: OPTIMIZATION_LEVEL,
    description: 'Automatic optimization level.',
  },
];

/** Most classes a zone's spec lists, and most free properties one class carries (our bounds). */
export const MAX_OPTIMIZER_CLASSES = 100;
const MAX_FREE_PROPERTIES = 50;
const MAX_VALUE_LENGTH = 2048;

const BY_WIRE = new Map(OPTIMIZER_PARAMETERS.map((p) => [p.wire, p]));

function parameterSchema(p: OptimizerParameter): Schema {
  const s: Schema = { type: p.type, description: `${p.description} Query parameter: ${p.wire}.` };
  if (p.minimum !== undefined) s.minimum = p.minimum;
  if (p.maximum !== undefined) s.maximum = p.maximum;
  if (p.enum) s.enum = Object.keys(p.enum);
  if (p.pattern) {
    s.pattern = p.pattern;
    s.maxLength = 64;
  }
  return s;
}

/** The CRD schema of one optimizer class. */
export function optimizerClassSchema(): Schema {
  const typed = OPTIMIZER_PARAMETERS.map((p) => `'${p.wire}'`).join(', ');
  const properties = {
    name: boundedStringSchema('Name of the class, selected with the class query parameter.', 255),
    ...Object.fromEntries(OPTIMIZER_PARAMETERS.map((p) => [p.spec, parameterSchema(p)])),
    properties: {
      type: 'object',
      description:
        'Other optimizer parameters of the class (query parameter name to value), sent as written. A parameter with a typed member above is set there, not here.',
      maxProperties: MAX_FREE_PROPERTIES,
      additionalProperties: { type: 'string', maxLength: MAX_VALUE_LENGTH },
    },
  };
  return {
    ...objectSchema(properties, { required: ['name'] }),
    'x-kubernetes-validations': [
      {
        rule: `!has(self.properties) || self.properties.all(k, !(k in [${typed}]))`,
        message:
          'a parameter with a typed member (width, quality, crop_gravity, ...) is set there, not in properties',
      },
    ],
  };
}

/** Spec form of one class: `name`, typed members, free `properties`. */
export type SpecOptimizerClass = Record<string, unknown> & {
  name?: string;
  properties?: Record<string, string>;
};

/** Wire form of one class. */
export interface WireOptimizerClass {
  Name?: string | null;
  Properties?: Record<string, string> | null;
}

function wireString(p: OptimizerParameter, v: unknown): string {
  if (typeof v !== 'string') return String(v);
  return p.enum && Object.hasOwn(p.enum, v) ? toWireName(p.enum, v) : v;
}

/** One spec class as the platform stores it: typed members become their query strings. */
export function optimizerClassToWire(c: SpecOptimizerClass): WireOptimizerClass {
  const properties: Record<string, string> = { ...(c.properties ?? {}) };
  for (const p of OPTIMIZER_PARAMETERS) {
    const v = c[p.spec];
    if (v !== undefined && v !== null) properties[p.wire] = wireString(p, v);
  }
  return { Name: c.name ?? null, Properties: properties };
}

/** A live query string as its typed value; the string itself when it does not parse. */
function typedValue(p: OptimizerParameter, raw: string): unknown {
  if (p.type === 'integer' && /^-?[0-9]+$/.test(raw)) return Number(raw);
  if (p.type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return (p.enum && fromWireName(p.enum, raw)) ?? raw;
}

/** One live class in spec form: documented parameters as typed members, the rest in `properties`. */
export function optimizerClassFromWire(c: WireOptimizerClass): SpecOptimizerClass {
  const out: SpecOptimizerClass = { ...(c.Name == null ? {} : { name: c.Name }) };
  const free: Record<string, string> = {};
  for (const [key, raw] of Object.entries(c.Properties ?? {})) {
    const p = BY_WIRE.get(key);
    if (p) out[p.spec] = typedValue(p, raw);
    else free[key] = raw;
  }
  if (Object.keys(free).length > 0) out.properties = free;
  return out;
}
