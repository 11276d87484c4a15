/**
 * Magic Containers endpoints (`/mc/apps`). Writes send `application/json`: the official
 * document lists application/json, text/json and application/*+json for PATCH as well, so
 * merge-patch semantics come from the endpoint, not from a special media type.
 */
import { pathOf, type HttpMethod, type HttpTransport } from './http.js';
import type { CallOptions, PagedCallOptions } from './options.js';
import { expectObject } from './response.js';
import type {
  App,
  AppIdResponse,
  AppListItem,
  AppPatch,
  AppRequest,
  ContainerTemplateRead,
  VolumeListItem,
} from './types.js';
import { checkNonEmpty } from './validate.js';

const PAGE_LIMIT = 1000;
const MAX_PAGES_FOLLOWED = 10000;

interface AppPage {
  items?: AppListItem[];
  cursor?: string | null;
}

/** Follows `cursor` (sent back as `nextCursor`) until the API stops returning one. */
export async function listApps(
  http: HttpTransport,
  opts?: PagedCallOptions,
): Promise<AppListItem[]> {
  const limit = opts?.pageSize ?? PAGE_LIMIT;
  const all: AppListItem[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES_FOLLOWED; i++) {
    const res = await http.request(
      {
        operation: 'listApps',
        method: 'GET',
        path: '/mc/apps',
        query: { limit, nextCursor: cursor },
      },
      opts,
    );
    const page = expectObject<AppPage>(http, 'listApps', res.body);
    const items = page.items ?? [];
    all.push(...items);
    if (!page.cursor || page.cursor === cursor || items.length === 0) break;
    cursor = page.cursor;
  }
  return all;
}

export async function getApp(http: HttpTransport, appId: string, opts?: CallOptions): Promise<App> {
  checkNonEmpty(http, 'getApp', 'appId', appId);
  const res = await http.request(
    { operation: 'getApp', method: 'GET', path: pathOf`/mc/apps/${appId}` },
    opts,
  );
  return expectObject<App>(http, 'getApp', res.body);
}

/**
 * Create (POST, no id), replace (PUT) and patch (PATCH); all answer `{id}`. Retried only after a
 * 429.
 */
export async function writeApp(
  http: HttpTransport,
  operation: 'createApp' | 'replaceApp' | 'patchApp',
  method: HttpMethod,
  appId: string | undefined,
  body: AppRequest | AppPatch,
  opts?: CallOptions,
): Promise<AppIdResponse> {
  if (appId !== undefined) checkNonEmpty(http, operation, 'appId', appId);
  const path = appId === undefined ? '/mc/apps' : pathOf`/mc/apps/${appId}`;
  const res = await http.request(
    { operation, method, path, body, contentType: 'application/json' },
    opts,
  );
  const answer = expectObject<AppIdResponse>(http, operation, res.body);
  if (typeof answer.id !== 'string' || answer.id === '') {
    throw http.failure(operation, 'server', 'unexpected answer: no application id');
  }
  return answer;
}

export async function deleteApp(
  http: HttpTransport,
  appId: string,
  opts?: CallOptions,
): Promise<void> {
  checkNonEmpty(http, 'deleteApp', 'appId', appId);
  await http.request(
    { operation: 'deleteApp', method: 'DELETE', path: pathOf`/mc/apps/${appId}` },
    opts,
  );
}

export async function getContainer(
  http: HttpTransport,
  appId: string,
  containerId: string,
  opts?: CallOptions,
): Promise<ContainerTemplateRead> {
  checkNonEmpty(http, 'getContainer', 'appId', appId);
  checkNonEmpty(http, 'getContainer', 'containerId', containerId);
  const res = await http.request(
    {
      operation: 'getContainer',
      method: 'GET',
      path: pathOf`/mc/apps/${appId}/containers/${containerId}`,
    },
    opts,
  );
  return expectObject<ContainerTemplateRead>(http, 'getContainer', res.body);
}

interface VolumePage {
  items?: VolumeListItem[];
}

/**
 * `GET /mc/apps/{appId}/volumes`: the volume templates with their ids. The documented app read
 * model has no volume ids; this list is where the documents guarantee them.
 */
export async function listVolumes(
  http: HttpTransport,
  appId: string,
  opts?: CallOptions,
): Promise<VolumeListItem[]> {
  checkNonEmpty(http, 'listVolumes', 'appId', appId);
  const res = await http.request(
    { operation: 'listVolumes', method: 'GET', path: pathOf`/mc/apps/${appId}/volumes` },
    opts,
  );
  return expectObject<VolumePage>(http, 'listVolumes', res.body).items ?? [];
}
