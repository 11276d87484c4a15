/**
 * Custom response pages on the platform: reads the zone's page of each managed type, uploads
 * the pages that differ (a plan refusal becomes PlanNotSufficient) and removes them on Reset.
 */
import type { CallOptions } from '../../cdn/options.js';
import type { FieldDiff } from '../../runtime/types.js';
import { pageFieldName, type LivePages, type ResolvedPage } from './custom-pages.js';
import { withPlanCheck } from './plan-limits.js';

/** The client methods of the custom page routes (satisfied by `CdnClient`). */
export interface CustomPageApi {
  getCustomPage(
    shieldZoneId: number,
    pageType: string,
    opts?: CallOptions,
  ): Promise<string | undefined>;
  putCustomPage(
    shieldZoneId: number,
    pageType: string,
    html: string,
    opts?: CallOptions,
  ): Promise<void>;
  deleteCustomPage(shieldZoneId: number, pageType: string, opts?: CallOptions): Promise<void>;
}

/** The zone's HTML of each page type (one GET each). */
export async function readLivePages(
  api: CustomPageApi,
  shieldZoneId: number,
  pageTypes: readonly string[],
  opts: CallOptions,
): Promise<LivePages> {
  const live: LivePages = new Map();
  for (const type of pageTypes) live.set(type, await api.getCustomPage(shieldZoneId, type, opts));
  return live;
}

function differing(diff: readonly FieldDiff[]): Set<string> {
  return new Set(diff.map((d) => d.field));
}

/** Uploads each page with an entry in `diff`; returns the page types written. */
export async function uploadPages(
  api: CustomPageApi,
  pages: readonly ResolvedPage[],
  diff: readonly FieldDiff[],
  shieldZoneId: number,
  plan: { planType?: string; retryAfterMs?: number },
  opts: CallOptions,
): Promise<string[]> {
  const fields = differing(diff);
  const written: string[] = [];
  for (const page of pages) {
    if (!fields.has(pageFieldName(page.pageType))) continue;
    await withPlanCheck('customPages', plan.planType, plan.retryAfterMs, () =>
      api.putCustomPage(shieldZoneId, page.pageType, page.html, opts),
    );
    written.push(page.pageType);
  }
  return written;
}

/** Deletes each managed page type with an entry in `diff` (the Reset of deletion). */
export async function removePages(
  api: CustomPageApi,
  pageTypes: readonly string[],
  diff: readonly FieldDiff[],
  shieldZoneId: number,
  opts: CallOptions,
): Promise<void> {
  const fields = differing(diff);
  for (const type of pageTypes) {
    if (fields.has(pageFieldName(type))) await api.deleteCustomPage(shieldZoneId, type, opts);
  }
}
