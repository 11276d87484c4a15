/**
 * The custom response pages of an exported shield zone (`cdnctl export`): one ConfigMap per
 * page the zone has, its HTML under key `page.html` exactly as the platform returns it (the
 * policy compares pages by SHA-256, so one changed byte would be an upload), and the policy's
 * `spec.customPages[]` entry naming it. Pages are not secret, so ConfigMaps are right. A page
 * the policy would refuse (blank, or over the 1 MiB a policy uploads — also what a ConfigMap
 * holds) is left out with a note, and so stays unmanaged.
 */
import { isCdnApiError } from '../../cdn/errors.js';
import { CUSTOM_PAGE_TYPES } from '../../cdn/shield-features.js';
import type { NameAllocator } from '../shared/export-names.js';
import { configMapObject, type ExportedObject } from '../shared/manifest-export.js';
import type { CustomPageApi } from './custom-page-sync.js';
import {
  findPageProblem,
  type CustomPageSpec,
  type LivePages,
  type PageProblem,
} from './custom-pages.js';

/** The ConfigMap key holding an exported page's HTML. */
export const PAGE_KEY = 'page.html';

/** What the pages of one zone add to an export. */
export interface ExportedPages {
  /** The policy's `spec.customPages` (empty: the zone has no page, nothing managed). */
  customPages: CustomPageSpec[];
  /** One ConfigMap per entry, to be applied before the policy. */
  configMaps: ExportedObject[];
  notes: string[];
}

/** The policy being exported, as the page notes and names need it. */
export interface PagePolicy {
  name: string;
  namespace: string;
  shieldZoneId: number;
}

/**
 * The zone's page of every known type (one GET each). A type the platform refuses (400: the
 * document leaves the types open) is noted and read as absent, so the export goes on.
 */
export async function readExportPages(
  api: Pick<CustomPageApi, 'getCustomPage'>,
  policy: PagePolicy,
  notes: string[],
): Promise<LivePages> {
  const live: LivePages = new Map();
  for (const type of CUSTOM_PAGE_TYPES) {
    try {
      live.set(type, await api.getCustomPage(policy.shieldZoneId, type));
    } catch (e) {
      if (!isCdnApiError(e) || e.kind !== 'invalid') throw e;
      notes.push(
        `ShieldPolicy ${policy.name}: custom ${type} page not exported: the platform refused the page type (${e.detail})`,
      );
    }
  }
  return live;
}

function problemText(problem: PageProblem): string {
  return problem.kind === 'empty'
    ? 'it is blank, and a policy refuses a blank page'
    : `it is ${problem.bytes} bytes, more than the ${problem.max} a policy uploads and a ConfigMap holds`;
}

/**
 * The ConfigMaps and `spec.customPages` of the pages in `live` (in its order), named
 * `<policy>-<type>-page` through `names`, which is shared by the whole export.
 */
export function exportPages(
  live: LivePages,
  policy: PagePolicy,
  names: NameAllocator,
): ExportedPages {
  const out: ExportedPages = { customPages: [], configMaps: [], notes: [] };
  for (const [pageType, html] of live) {
    if (html === undefined) continue;
    const problem = findPageProblem(html);
    if (problem) {
      out.notes.push(
        `ShieldPolicy ${policy.name}: custom ${pageType} page left out (unmanaged): ${problemText(problem)}`,
      );
      continue;
    }
    const name = names.allocate(`${policy.name}-${pageType}-page`, policy.shieldZoneId, 'page');
    out.configMaps.push(configMapObject(name, policy.namespace, { [PAGE_KEY]: html }));
    out.customPages.push({ pageType, configMapRef: { name, key: PAGE_KEY } });
  }
  return out;
}
