/** Reads the official update model (tests compare the field table against it). */
import { loadOpenApiDocument } from '../../../support/openapi-docs.js';

export interface OfficialProperty {
  minimum?: number;
  maximum?: number;
  enumNames?: string[];
}

interface Doc {
  components: {
    schemas: Record<
      string,
      { properties?: Record<string, Record<string, unknown>>; 'x-enumNames'?: string[] }
    >;
  };
}

/** `PullZoneSettingsModel` properties with limits and enum names resolved. */
export function readOfficialSettingsModel(): Record<string, OfficialProperty> {
  const doc = loadOpenApiDocument('core') as unknown as Doc;
  const props = doc.components.schemas.PullZoneSettingsModel?.properties ?? {};
  const out: Record<string, OfficialProperty> = {};
  for (const [name, p] of Object.entries(props)) {
    const ref = (p.oneOf as { $ref: string }[] | undefined)?.[0]?.$ref.split('/').pop();
    const prop: OfficialProperty = {};
    if (typeof p.minimum === 'number' && !ref) prop.minimum = p.minimum;
    if (typeof p.maximum === 'number' && !ref) prop.maximum = p.maximum;
    if (ref) prop.enumNames = doc.components.schemas[ref]?.['x-enumNames'];
    out[name] = prop;
  }
  return out;
}
