/**
 * Access lists of a shield zone (`/shield/shield-zone/{shieldZoneId}/access-lists...`): the
 * overview of curated and custom lists with the zone's configuration of each, custom list
 * create/read/update/delete, and the configuration (`isEnabled`, `action`) of any list, set
 * through its `configurationId`. A custom list's entries travel as one newline-separated
 * `content` string ({@link accessListContent}, {@link accessListEntries}). Answers are
 * `{data, error}` envelopes; writes are retried only after a 429.
 */
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import { expectObject, isRecord } from './response.js';
import type {
  AccessListConfiguration,
  AccessListsOverview,
  CustomAccessList,
  CustomAccessListCreate,
  CustomAccessListUpdate,
} from './security-types.js';
import {
  checkGenericResult,
  checkShieldZoneId,
  throwErrorMember,
  unwrapData,
} from './shield-answers.js';
import { checkId, checkNonEmpty } from './validate.js';

/** The `content` of a custom list: one entry per line. */
export function accessListContent(entries: readonly string[]): string {
  return entries.join('\n');
}

/** The entries of a list's `content`: lines trimmed, blank lines dropped. */
export function accessListEntries(content: string | null | undefined): string[] {
  return (content ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function base(shieldZoneId: number): string {
  return pathOf`/shield/shield-zone/${shieldZoneId}/access-lists`;
}

/** Curated and custom lists of a zone, each with its configuration, and the plan's limits. */
export async function listAccessLists(
  http: HttpTransport,
  shieldZoneId: number,
  opts?: CallOptions,
): Promise<AccessListsOverview> {
  const operation = 'listAccessLists';
  checkShieldZoneId(http, operation, shieldZoneId);
  const res = await http.request({ operation, method: 'GET', path: base(shieldZoneId) }, opts);
  const body = expectObject<Record<string, unknown>>(http, operation, res.body);
  if (isRecord(body.error)) throwErrorMember(http, operation, body.error);
  const { error: _checked, ...overview } = body;
  return overview;
}

/** A call on one list of a zone: `{base}/{id}`, or `{base}/configurations/{id}`. */
interface ListCall {
  operation: string;
  method: 'GET' | 'PATCH' | 'DELETE';
  idName: 'id' | 'configurationId';
  body?: unknown;
}

/** Checks the ids, sends the call and returns the answer's body. */
async function requestOnList(
  http: HttpTransport,
  call: ListCall,
  shieldZoneId: number,
  id: number,
  opts?: CallOptions,
): Promise<unknown> {
  const { operation, method, idName, body } = call;
  checkShieldZoneId(http, operation, shieldZoneId);
  checkId(http, operation, idName, id);
  const tail = idName === 'id' ? pathOf`/${id}` : pathOf`/configurations/${id}`;
  const path = `${base(shieldZoneId)}${tail}`;
  const res = await http.request(
    { operation, method, path, ...(body === undefined ? {} : { body }) },
    opts,
  );
  return res.body;
}

/** One custom list with its entries (`notFound` when it does not exist on the zone). */
export async function getCustomAccessList(
  http: HttpTransport,
  shieldZoneId: number,
  id: number,
  opts?: CallOptions,
): Promise<CustomAccessList> {
  const call = { operation: 'getCustomAccessList', method: 'GET', idName: 'id' } as const;
  const body = await requestOnList(http, call, shieldZoneId, id, opts);
  return unwrapData(http, call.operation, body) as CustomAccessList;
}

/** Creates a custom list; its configuration starts disabled (set it with the configuration call). */
export async function createCustomAccessList(
  http: HttpTransport,
  shieldZoneId: number,
  body: CustomAccessListCreate,
  opts?: CallOptions,
): Promise<CustomAccessList> {
  const operation = 'createCustomAccessList';
  checkShieldZoneId(http, operation, shieldZoneId);
  checkNonEmpty(http, operation, 'name', body.name ?? '');
  const res = await http.request(
    { operation, method: 'POST', path: base(shieldZoneId), body },
    opts,
  );
  return unwrapData(http, operation, res.body) as CustomAccessList;
}

/** `PATCH`: renames a custom list and/or replaces its entries (only the members given). */
export async function updateCustomAccessList(
  http: HttpTransport,
  shieldZoneId: number,
  id: number,
  patch: CustomAccessListUpdate,
  opts?: CallOptions,
): Promise<CustomAccessList> {
  const operation = 'updateCustomAccessList';
  const call = { operation, method: 'PATCH', idName: 'id', body: patch } as const;
  const body = await requestOnList(http, call, shieldZoneId, id, opts);
  return unwrapData(http, operation, body) as CustomAccessList;
}

/** Deletes a custom list and its configuration. */
export async function deleteCustomAccessList(
  http: HttpTransport,
  shieldZoneId: number,
  id: number,
  opts?: CallOptions,
): Promise<void> {
  const call = { operation: 'deleteCustomAccessList', method: 'DELETE', idName: 'id' } as const;
  const body = await requestOnList(http, call, shieldZoneId, id, opts);
  checkGenericResult(http, call.operation, body);
}

/**
 * `PATCH .../configurations/{configurationId}`: turns a list (curated or custom) on or off and
 * sets its action; only the members given change. A curated list above the zone's plan
 * cannot be enabled (403).
 */
export async function updateAccessListConfiguration(
  http: HttpTransport,
  shieldZoneId: number,
  configurationId: number,
  patch: AccessListConfiguration,
  opts?: CallOptions,
): Promise<AccessListConfiguration> {
  const operation = 'updateAccessListConfiguration';
  const call = { operation, method: 'PATCH', idName: 'configurationId', body: patch } as const;
  const body = await requestOnList(http, call, shieldZoneId, configurationId, opts);
  return unwrapData(http, operation, body) as AccessListConfiguration;
}
