/**
 * JSON schemas of the core write bodies for edge rules, cache purge and storage zones, written
 * from the official core document (EdgeRuleV2Model, Trigger, EdgeRuleV2ActionModel,
 * ToggleRequestModel, PullZonePurgeModel, StorageZoneModelAdd, StorageZoneSettingsModel).
 * test/unit/simulator/core-schema.test.ts checks them against the document so they cannot
 * drift. The first problem becomes an ApiErrorData 400, as for the other core models.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { SettingsProblem } from './pullzone-settings.js';
import { pointerToField } from './apps-schema.js';

/** Action type values of EdgeRuleActionType (the document skips 35 and 36). */
export const EDGE_RULE_ACTION_TYPES = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
  27, 28, 29, 30, 31, 32, 33, 34, 37,
] as const;
/** Trigger type values of TriggerTypes. */
export const TRIGGER_TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] as const;
/** Values of TriggerMatchingTypes and PatternMatchingTypes. */
export const MATCHING_TYPES = [0, 1, 2] as const;
/** Values of StorageZoneTier and StorageZoneS3Type. */
export const ZONE_TIERS = [0, 1] as const;

const nullableString = { type: ['string', 'null'] };
const nullableStrings = { type: ['array', 'null'], items: { type: 'string' } };
const int32 = { type: 'integer', minimum: -2147483648, maximum: 2147483647 };

function obj(properties: Record<string, unknown>, required: string[] = []): object {
  return { type: 'object', additionalProperties: false, properties, required };
}

const trigger = obj({
  Type: { enum: TRIGGER_TYPES },
  PatternMatches: nullableStrings,
  PatternMatchingType: { enum: MATCHING_TYPES },
  Parameter1: nullableString,
});

const extraAction = obj({
  ActionType: { enum: EDGE_RULE_ACTION_TYPES },
  ActionParameter1: nullableString,
  ActionParameter2: nullableString,
  ActionParameter3: nullableString,
});

const edgeRule = obj({
  Guid: nullableString,
  ActionType: { enum: EDGE_RULE_ACTION_TYPES },
  ActionParameter1: nullableString,
  ActionParameter2: nullableString,
  ActionParameter3: nullableString,
  Triggers: { type: ['array', 'null'], items: trigger },
  ExtraActions: { type: ['array', 'null'], items: extraAction },
  TriggerMatchingType: { enum: MATCHING_TYPES },
  Description: nullableString,
  Enabled: { type: 'boolean' },
  OrderIndex: int32,
  ReadOnly: { type: 'boolean' },
});

const toggle = obj({
  Id: { type: 'integer' },
  Value: { type: 'boolean' },
});

/** The body itself is nullable; the route lets `null` through before this check. */
const purge = obj({ CacheTag: nullableString });

const storageZoneAdd = obj(
  {
    Name: { type: 'string', minLength: 1 },
    Region: { type: 'string', minLength: 1 },
    ReplicationRegions: nullableStrings,
    ZoneTier: { enum: ZONE_TIERS },
    StorageZoneType: { enum: ZONE_TIERS },
  },
  ['Name', 'Region'],
);

const storageZoneSettings = obj({
  ReplicationZones: nullableStrings,
  OriginUrl: nullableString,
  Custom404FilePath: nullableString,
  Rewrite404To200: { type: ['boolean', 'null'] },
});

const availability = obj({ Name: nullableString });

/** The schemas by document name, exported for the drift test. */
export const CORE_SCHEMAS = {
  EdgeRuleV2Model: edgeRule,
  ToggleRequestModel: toggle,
  PullZonePurgeModel: purge,
  StorageZoneModelAdd: storageZoneAdd,
  StorageZoneSettingsModel: storageZoneSettings,
  ZoneAvailabilityRequestModel: availability,
} as const;

/** Name of one of the checked models. */
export type CoreModel = keyof typeof CORE_SCHEMAS;

const ajv = new Ajv({ allErrors: false, strict: false });
const validators = new Map<CoreModel, ValidateFunction>(
  Object.entries(CORE_SCHEMAS).map(([name, schema]) => [name as CoreModel, ajv.compile(schema)]),
);

function toProblem(e: ErrorObject): SettingsProblem {
  const base = pointerToField(e.instancePath);
  const params = e.params as { missingProperty?: string; additionalProperty?: string };
  const child = params.missingProperty ?? params.additionalProperty;
  const field = child ? (base ? `${base}.${child}` : child) : base;
  if (e.keyword === 'required')
    return { errorKey: 'validation.required', field, message: `${field} is required` };
  if (e.keyword === 'additionalProperties') {
    return {
      errorKey: 'validation.unknown_property',
      field,
      message: `${field} is not a property of this model`,
    };
  }
  return {
    errorKey: 'validation.invalid_value',
    field,
    message: `${field || 'body'} ${e.message ?? 'is invalid'}`,
  };
}

/** First problem of `body` against the named model, or undefined. */
export function checkCoreModel(model: CoreModel, body: unknown): SettingsProblem | undefined {
  const validate = validators.get(model) as ValidateFunction;
  if (validate(body)) return undefined;
  const first = validate.errors?.[0];
  return first
    ? toProblem(first)
    : { errorKey: 'validation.invalid_body', field: '', message: 'body is invalid' };
}
