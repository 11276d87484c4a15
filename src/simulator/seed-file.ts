/**
 * `--seed FILE`: what the simulated account holds before the tests run, so a user's CI starts
 * from a known account without API calls (issue 49). YAML or JSON, one list per kind; every
 * item is the documented create body of its route, applied through cdn-sim's own request
 * pipeline (seed-apply.ts), so a seeded resource obeys every rule a created one does. The few
 * members that are cdn-sim's own tie items together by name:
 *
 * ```yaml
 * storageZones:            # POST /storagezone, plus `files: {path: text content}`
 *   - {Name: site-files, Region: DE, files: {index.html: "<p>hi</p>"}}
 * pullZones:               # POST /pullzone
 *   - {Name: site, OriginUrl: https://origin.example}
 * dnsZones:                # POST /dnszone, plus `records` (PUT /dnszone/{zoneId}/records)
 *   - Domain: example.test
 *     records:
 *       - {Type: 0, Name: www, Value: 192.0.2.10, Ttl: 300}
 *       - {Type: 7, Name: cdn, pullZone: site}    # PullZoneId of the pull zone named site
 * shieldZones:             # POST /shield/shield-zone; `pullZone` names the pull zone
 *   - {pullZone: site, shieldZone: {planType: 1}}
 * apps:                    # POST /mc/apps
 *   - {name: echo, runtimeType: shared, ...}
 * ```
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { JsonObject } from './json.js';

/** The kinds a seed file may hold, in the order they are created. */
export const SEED_SECTIONS = [
  'storageZones',
  'pullZones',
  'dnsZones',
  'shieldZones',
  'apps',
] as const;

/** One kind of a seed file. */
export type SeedSection = (typeof SEED_SECTIONS)[number];

/** A parsed seed file: every section present (empty when the file has none). */
export type SeedFile = Record<SeedSection, JsonObject[]>;

/** The seed file cannot be read or has the wrong shape. */
export class SeedFileError extends Error {
  constructor(file: string, reason: string) {
    super(`cannot read seed file ${file}: ${reason}`);
    this.name = 'SeedFileError';
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isRecordList = (v: unknown): boolean => Array.isArray(v) && v.every(isObject);
const isFileMap = (v: unknown): boolean =>
  isObject(v) && Object.values(v).every((c) => typeof c === 'string');

/** The members cdn-sim reads itself, per kind: [member, is it well formed, what it must be]. */
const OWN_MEMBERS: Partial<Record<SeedSection, [string, (v: unknown) => boolean, string]>> = {
  dnsZones: ['records', (v) => v === undefined || isRecordList(v), 'a list of records'],
  storageZones: [
    'files',
    (v) => v === undefined || isFileMap(v),
    'a map of paths to text contents',
  ],
  shieldZones: ['pullZone', (v) => typeof v === 'string', 'the name of a pull zone of the seed'],
};

/** Problem of a member cdn-sim reads itself, or undefined. */
function nestedProblem(section: SeedSection, item: JsonObject, at: string): string | undefined {
  const own = OWN_MEMBERS[section];
  if (!own) return undefined;
  const [member, wellFormed, what] = own;
  return wellFormed(item[member]) ? undefined : `${at}.${member} must be ${what}`;
}

function sectionProblem(section: SeedSection, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return `${section} must be a list`;
  for (const [i, item] of value.entries()) {
    const at = `${section}[${i}]`;
    if (!isObject(item)) return `${at} must be an object`;
    const problem = nestedProblem(section, item, at);
    if (problem) return problem;
  }
  return undefined;
}

/** Checks a parsed seed document; returns it with every section present. */
export function checkSeed(data: unknown, file: string): SeedFile {
  const doc = data ?? {};
  if (!isObject(doc)) throw new SeedFileError(file, 'the top level must be a mapping of kinds');
  const unknown = Object.keys(doc).find((k) => !(SEED_SECTIONS as readonly string[]).includes(k));
  if (unknown !== undefined) {
    throw new SeedFileError(file, `${unknown} is not one of ${SEED_SECTIONS.join(', ')}`);
  }
  for (const section of SEED_SECTIONS) {
    const problem = sectionProblem(section, doc[section]);
    if (problem) throw new SeedFileError(file, problem);
  }
  const seed = {} as SeedFile;
  for (const section of SEED_SECTIONS) seed[section] = (doc[section] as JsonObject[]) ?? [];
  return seed;
}

/** Reads and checks a YAML or JSON seed file. */
export function readSeedFile(file: string): SeedFile {
  let data: unknown;
  try {
    data = parseYaml(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new SeedFileError(file, (err as Error).message);
  }
  return checkSeed(data, file);
}
