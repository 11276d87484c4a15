/**
 * Access lists of cdn-sim: the curated (managed) list catalogue, per-plan limits of custom
 * lists, and the entry check per list type. Pure, apart from the catalogue constants.
 *
 * The shield document gives the shapes and enums (`AccessListType` 0 IP, 1 CIDR, 2 ASN,
 * 3 Country, 4 Organization, 5 JA4; `AccessListAction` 0 None .. 5 Bypass; a managed list's
 * `requiredPlan`; the zone's `customListLimit`/`customEntryLimit`) but not the catalogue nor
 * the limit values: those below are the simulator's, stated in docs/simulator.md.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { JsonObject } from '../types.js';

/** `AccessListType` values. */
export const ACCESS_LIST_TYPES = [0, 1, 2, 3, 4, 5];
/** `AccessListAction` values: 0 None, 1 Allow, 2 Block, 3 Challenge, 4 Log, 5 Bypass. */
export const ACCESS_LIST_ACTIONS = [0, 1, 2, 3, 4, 5];

const TYPE_NAMES = ['IP', 'CIDR', 'ASN', 'Country', 'Organization', 'JA4'];
const ACTION_NAMES = ['None', 'Allow', 'Block', 'Challenge', 'Log', 'Bypass'];
const CATEGORY_NAMES: Record<number, string> = {
  0: 'None',
  1: 'VPNs',
  2: 'Datacenters',
  4: 'Proxies',
  8: 'TorExitNodes',
  16: 'Botnets',
  32: 'VulnerabilityScanners',
  64: 'WebScrapers',
  128: 'SearchEngines',
  256: 'SearchEngineCrawlers',
  512: 'AiSearch',
  1024: 'AiCrawlers',
  2048: 'AiAgents',
  4096: 'PagePreview',
  8192: 'InternetTools',
};

/** One curated list of the simulated catalogue (the same for every zone). */
export interface ManagedList {
  listId: number;
  name: string;
  description: string;
  type: number;
  category: number;
  requiredPlan: number;
  entryCount: number;
}

/** The simulator's curated lists: a mix of plans so plan refusals can be exercised. */
export const MANAGED_LISTS: readonly ManagedList[] = [
  {
    listId: 1,
    name: 'Tor Exit Nodes',
    description: 'Tor exit relays',
    type: 0,
    category: 8,
    requiredPlan: 0,
    entryCount: 1200,
  },
  {
    listId: 2,
    name: 'VPN Providers',
    description: 'Address ranges of commercial VPNs',
    type: 1,
    category: 1,
    requiredPlan: 1,
    entryCount: 5400,
  },
  {
    listId: 3,
    name: 'Datacenters',
    description: 'Hosting and cloud provider ranges',
    type: 1,
    category: 2,
    requiredPlan: 1,
    entryCount: 9800,
  },
  {
    listId: 4,
    name: 'Botnets',
    description: 'Known botnet members',
    type: 0,
    category: 16,
    requiredPlan: 2,
    entryCount: 31000,
  },
  {
    listId: 5,
    name: 'AI Crawlers',
    description: 'Crawlers that collect AI training data',
    type: 1,
    category: 1024,
    requiredPlan: 0,
    entryCount: 300,
  },
];

/** Custom list limits per plan (simulator defaults). */
export const CUSTOM_LIST_LIMITS: Record<number, { lists: number; entries: number }> = {
  0: { lists: 5, entries: 1000 },
  1: { lists: 25, entries: 10000 },
  2: { lists: 50, entries: 50000 },
  3: { lists: 100, entries: 250000 },
};

/** `updateFrequency` of the curated lists (a .NET time span: one day). */
export const MANAGED_UPDATE_FREQUENCY = '1.00:00:00';

/** The entries of a list's `content`: one per line, blank lines and surrounding space dropped. */
export function entriesOf(content: string | null | undefined): string[] {
  return (content ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function isCidr(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || address === undefined || prefix === undefined) return false;
  const family = isIP(address);
  if (family === 0 || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

const ENTRY_CHECKS: Record<number, (entry: string) => boolean> = {
  0: (e) => isIP(e) !== 0,
  1: isCidr,
  2: (e) => /^(AS)?\d{1,10}$/i.test(e),
  3: (e) => /^[A-Z]{2}$/i.test(e),
  4: (e) => e.length > 0,
  // JA4: protocol, version, SNI, cipher and extension counts, ALPN; two 12-hex hashes.
  5: (e) => /^[tqd][0-9a-z]{2}[di]\d{4}[0-9a-z]{2}_[0-9a-f]{12}_[0-9a-f]{12}$/i.test(e),
};

/** The first entry that is not valid for the list type, with its line, or undefined. */
export function entryProblem(type: number, content: string | null | undefined): string | undefined {
  const check = ENTRY_CHECKS[type];
  if (!check) return `type must be one of ${ACCESS_LIST_TYPES.join(', ')}`;
  const bad = entriesOf(content).find((entry) => !check(entry));
  return bad === undefined
    ? undefined
    : `content: ${JSON.stringify(bad.slice(0, 100))} is not a valid ${TYPE_NAMES[type]} entry`;
}

/** Checksum of a list's content as the simulator reports it (SHA-256, hex). */
export function checksumOf(content: string | null | undefined): string {
  return createHash('sha256')
    .update(content ?? '')
    .digest('hex');
}

function namesOf(names: Record<number, string> | string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(names).map(([value, name]) => [value, name]));
}

/** `GET .../access-lists/enums`: enum name -> value -> name. */
export function accessListEnums(): Record<string, Record<string, string>> {
  return {
    AccessListType: namesOf(TYPE_NAMES),
    AccessListAction: namesOf(ACTION_NAMES),
    AccessListCategory: namesOf(CATEGORY_NAMES),
  };
}

/** A curated list as `AccessListDetails`, with the zone's configuration applied. */
export function managedDetails(list: ManagedList, config: JsonObject, updated: string): JsonObject {
  return {
    listId: list.listId,
    configurationId: config.configurationId,
    name: list.name,
    description: list.description,
    isEnabled: config.isEnabled,
    type: list.type,
    category: list.category,
    action: config.action,
    requiredPlan: list.requiredPlan,
    entryCount: list.entryCount,
    updateFrequency: MANAGED_UPDATE_FREQUENCY,
    lastUpdated: updated,
  };
}
