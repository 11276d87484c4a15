/**
 * `GET /region`: the platform's list of edge regions. It is static reference data (no account
 * state), so cdn-sim serves it rather than answering 501; clients use it to look a region code
 * or name up. Codes and names are the platform's (region-table.ts); the continent follows the
 * name's prefix, and the price per GB is a simulator value per continent, not the platform's
 * price list.
 */
import type { JsonObject, RouteDef, SimResponse } from '../types.js';
import { REGION_ROWS } from './region-table.js';

/** Continent code of a name prefix (`EU: ...`); the Middle East and Latin America count as AS and SA. */
const CONTINENT: Record<string, string> = {
  AF: 'AF',
  ASIA: 'AS',
  EU: 'EU',
  LATAM: 'SA',
  ME: 'AS',
  NA: 'NA',
  OC: 'OC',
  SA: 'SA',
};

/** Price per GB by continent code (simulator values). */
const PRICE: Record<string, number> = {
  EU: 0.01,
  NA: 0.01,
  AS: 0.03,
  OC: 0.03,
  SA: 0.045,
  AF: 0.06,
};

function continentOf(name: string): string {
  const prefix = name.slice(0, name.indexOf(':')).toUpperCase();
  const code = CONTINENT[prefix];
  if (!code) throw new Error(`cannot place region ${name}: unknown prefix ${prefix}`);
  return code;
}

/** The region list, in RegionModel shape. */
export const REGIONS: readonly JsonObject[] = REGION_ROWS.map(
  ([code, name, country, lat, lon], i) => {
    const continent = continentOf(name);
    return {
      Id: i + 1,
      Name: name,
      PricePerGigabyte: PRICE[continent] ?? 0.01,
      RegionCode: code,
      ContinentCode: continent,
      CountryCode: country,
      Latitude: lat,
      Longitude: lon,
      AllowLatencyRouting: true,
    };
  },
);

function listRegions(): SimResponse {
  return { status: 200, body: REGIONS.map((r) => ({ ...r })) };
}

/** Static reference data routes. */
export const REGION_ROUTES: RouteDef[] = [
  { method: 'GET', template: '/region', area: 'core', handler: listRegions },
];
