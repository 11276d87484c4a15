/**
 * The ConfigMaps of `spec.customPages`: their references (so a change re-enqueues the policy)
 * and, at connect time, the HTML of each page read from its key. Messages name the ConfigMap,
 * the key and the page type, never the content.
 */
import { TerminalError, WaitingError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import { ReadyReason, SyncedReason } from '../../runtime/reasons.js';
import type { ConnectContext, ObjectReference } from '../../runtime/types.js';
import {
  findPageProblem,
  hashPage,
  type CustomPageSpec,
  type ResolvedPage,
} from './custom-pages.js';
import type { ShieldPolicy } from './types.js';

/** Re-read of a missing ConfigMap (the watch also re-enqueues when it appears). */
const WAIT_REQUEUE_MS = 15_000;

function pagesOf(obj: ShieldPolicy): CustomPageSpec[] {
  return obj.spec?.customPages ?? [];
}

/** The ConfigMaps the policy's pages come from (deduplicated). */
export function customPageReferences(obj: ShieldPolicy): ObjectReference[] {
  const names = new Set(pagesOf(obj).map((p) => p.configMapRef.name));
  return [...names].map((name) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    namespace: obj.metadata.namespace,
    name,
  }));
}

function checkSize(index: number, page: CustomPageSpec, html: string): void {
  const problem = findPageProblem(html);
  if (!problem) return;
  const where = `spec.customPages[${index}] (${page.pageType})`;
  const why =
    problem.kind === 'empty'
      ? `ConfigMap key ${JSON.stringify(page.configMapRef.key)} is empty`
      : `the page is ${problem.bytes} bytes, more than ${problem.max}`;
  throw new TerminalError(SyncedReason.InvalidSpec, `cannot use ${where}: ${why}`);
}

async function readPage(
  obj: ShieldPolicy,
  index: number,
  page: CustomPageSpec,
  ctx: Pick<ConnectContext, 'readConfigMap'>,
): Promise<ResolvedPage> {
  const { name, key } = page.configMapRef;
  const where = `ConfigMap ${obj.metadata.namespace}/${name}`;
  const data = await ctx.readConfigMap(obj.metadata.namespace, name);
  const html = data?.[key];
  if (html === undefined) {
    throw new WaitingError(
      ReadyReason.ReferenceNotReady,
      data
        ? `waiting for ${where} to have key ${JSON.stringify(key)} (spec.customPages[${index}], ${page.pageType})`
        : `waiting for ${where} (spec.customPages[${index}], ${page.pageType}): not found`,
      WAIT_REQUEUE_MS,
    );
  }
  checkSize(index, page, html);
  return { pageType: page.pageType, html, sha256: hashPage(html) };
}

/**
 * The HTML of every page of the spec. While deleting nothing is read (a Reset removes the
 * pages, it needs no content), so a deleted ConfigMap never blocks the deletion.
 */
export async function resolveCustomPages(
  obj: ShieldPolicy,
  ctx: Pick<ConnectContext, 'readConfigMap'>,
): Promise<ResolvedPage[]> {
  if (isDeleting(obj)) return [];
  const pages = pagesOf(obj);
  const out: ResolvedPage[] = [];
  for (const [i, page] of pages.entries()) out.push(await readPage(obj, i, page, ctx));
  return out;
}
