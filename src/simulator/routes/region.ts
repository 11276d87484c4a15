/**
 * `GET /region`: the platform's list of regions. It is static reference data (no account
 * state), so cdn-sim serves a fixed list shaped as the document's RegionModel rather than
 * answering 501; clients use it to look a region code up. Names, prices and coordinates are
 * plausible simulator values, not the platform's price list.
 */
import type { JsonObject, RouteDef, SimResponse } from '../types.js';

type RegionRow = [
  code: string,
  city: string,
  country: string,
  continent: string,
  lat: number,
  lon: number,
];

/** Price per GB by continent code (simulator values). */
const PRICE: Record<string, number> = {
  EU: 0.01,
  NA: 0.01,
  AS: 0.03,
  OC: 0.03,
  SA: 0.045,
  AF: 0.06,
};

const CONTINENT_NAME: Record<string, string> = {
  EU: 'Europe',
  NA: 'North America',
  AS: 'Asia',
  OC: 'Oceania',
  SA: 'South America',
  AF: 'Africa',
};

const ROWS: readonly RegionRow[] = [
  ['DE', 'Frankfurt', 'DE', 'EU', 50.11, 8.68],
  ['UK', 'London', 'GB', 'EU', 51.51, -0.13],
  ['FR', 'Paris', 'FR', 'EU', 48.86, 2.35],
  ['SE', 'Stockholm', 'SE', 'EU', 59.33, 18.07],
  ['NY', 'New York', 'US', 'NA', 40.71, -74.01],
  ['LA', 'Los Angeles', 'US', 'NA', 34.05, -118.24],
  ['MI', 'Miami', 'US', 'NA', 25.76, -80.19],
  ['DA', 'Dallas', 'US', 'NA', 32.78, -96.8],
  ['CH', 'Chicago', 'US', 'NA', 41.88, -87.63],
  ['SG', 'Singapore', 'SG', 'AS', 1.35, 103.82],
  ['HK', 'Hong Kong', 'HK', 'AS', 22.32, 114.17],
  ['JP', 'Tokyo', 'JP', 'AS', 35.68, 139.69],
  ['SYD', 'Sydney', 'AU', 'OC', -33.87, 151.21],
  ['BR', 'Sao Paulo', 'BR', 'SA', -23.55, -46.63],
  ['JH', 'Johannesburg', 'ZA', 'AF', -26.2, 28.05],
];

/** The static region list, in RegionModel shape. */
export const REGIONS: readonly JsonObject[] = ROWS.map(
  ([code, city, country, continent, lat, lon], i) => ({
    Id: i + 1,
    Name: `${CONTINENT_NAME[continent] ?? continent}: ${city}, ${country}`,
    PricePerGigabyte: PRICE[continent] ?? 0.01,
    RegionCode: code,
    ContinentCode: continent,
    CountryCode: country,
    Latitude: lat,
    Longitude: lon,
    AllowLatencyRouting: true,
  }),
);

function listRegions(): SimResponse {
  return { status: 200, body: REGIONS.map((r) => ({ ...r })) };
}

/** Static reference data routes. */
export const REGION_ROUTES: RouteDef[] = [
  { method: 'GET', template: '/region', area: 'core', handler: listRegions },
];
