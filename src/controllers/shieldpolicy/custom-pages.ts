/**
 * Custom response pages (pure): the HTML of each page type comes from a ConfigMap key and is
 * compared with the zone's page by content. Plans, events and status carry a SHA-256 of the
 * HTML, never the HTML itself (it can be large, and a status is no place for a page).
 */
import { createHash } from 'node:crypto';
import { MAX_CUSTOM_PAGE_BYTES } from '../../cdn/shield-features.js';
import type { FieldDiff } from '../../runtime/types.js';

/** One entry of `spec.customPages`. */
export interface CustomPageSpec {
  /** The platform's page type (`block`, `challenge`, ...). */
  pageType: string;
  configMapRef: { name: string; key: string };
}

/** A page whose HTML was read from its ConfigMap. */
export interface ResolvedPage {
  pageType: string;
  html: string;
  /** SHA-256 of the HTML (hex). */
  sha256: string;
}

/** One page as `status.customPages` shows it. */
export interface CustomPageStatus {
  pageType: string;
  sha256: string;
}

/** Live HTML by page type; undefined when the zone has no page of that type. */
export type LivePages = Map<string, string | undefined>;

/** SHA-256 of a page's HTML, hex. */
export function hashPage(html: string): string {
  return createHash('sha256').update(html, 'utf8').digest('hex');
}

/** Why a policy cannot use a page's HTML: blank, or larger than the client sends. */
export type PageProblem = { kind: 'empty' } | { kind: 'tooLarge'; bytes: number; max: number };

/**
 * The problem of `html` as a page, or undefined when a policy can upload it. The controller
 * refuses such a page (InvalidSpec) and `cdnctl export` leaves it out, by the same rule.
 */
export function findPageProblem(html: string): PageProblem | undefined {
  if (html.trim() === '') return { kind: 'empty' };
  const bytes = Buffer.byteLength(html, 'utf8');
  return bytes > MAX_CUSTOM_PAGE_BYTES
    ? { kind: 'tooLarge', bytes, max: MAX_CUSTOM_PAGE_BYTES }
    : undefined;
}

/** Plan entry name of a page type (`customPages.block`). */
export function pageFieldName(pageType: string): string {
  return `customPages.${pageType}`;
}

function renderPage(html: string | undefined): string {
  return html === undefined ? '<absent>' : `sha256:${hashPage(html).slice(0, 16)}`;
}

/** The pages whose live HTML differs from the desired one (or is absent). */
export function diffPages(desired: readonly ResolvedPage[], live: LivePages): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  for (const page of desired) {
    const have = live.get(page.pageType);
    if (have !== undefined && hashPage(have) === page.sha256) continue;
    diffs.push({
      field: pageFieldName(page.pageType),
      live: renderPage(have),
      desired: `sha256:${page.sha256.slice(0, 16)}`,
    });
  }
  return diffs;
}

/** The reset of deletion: every managed page type that still has a page on the zone. */
export function diffPagesForReset(pageTypes: readonly string[], live: LivePages): FieldDiff[] {
  return pageTypes
    .filter((type) => live.get(type) !== undefined)
    .map((type) => ({
      field: pageFieldName(type),
      live: renderPage(live.get(type)),
      desired: '<absent>',
    }));
}

/** `status.customPages`: the hash of each managed page the zone has, in spec order. */
export function pagesStatus(pageTypes: readonly string[], live: LivePages): CustomPageStatus[] {
  const out: CustomPageStatus[] = [];
  for (const pageType of pageTypes) {
    const html = live.get(pageType);
    if (html !== undefined) out.push({ pageType, sha256: hashPage(html) });
  }
  return out;
}

/** True for a plan entry of a custom page. */
export function isPageField(field: string): boolean {
  return field.startsWith('customPages.');
}
