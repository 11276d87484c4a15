/**
 * The OpenAPI v3 documents the apiserver serves per group-version: what kubectl fetches and
 * parses for every object it applies (bench/lib/kubectl-cpu.ts), so their size is what a
 * group's kinds cost each `kubectl apply`.
 */
import type { KubeClient } from '../../src/runtime/kube-client.js';
import { sleep } from './stats.js';

/** The OpenAPI v3 document of `group`/`version`, as JSON text (the same text for the same document). */
export async function openApiDocumentOf(
  kube: KubeClient,
  group: string,
  version: string,
): Promise<string> {
  const doc = await kube.request<unknown>({
    method: 'GET',
    path: `/openapi/v3/apis/${group}/${version}`,
  });
  return JSON.stringify(doc);
}

/** Bytes of the OpenAPI v3 document of `group`/`version`. */
export async function openApiBytes(
  kube: KubeClient,
  group: string,
  version: string,
): Promise<number> {
  return Buffer.byteLength(await openApiDocumentOf(kube, group, version));
}

/**
 * `/openapi/v3`: each served group-version (`apis/<group>/<version>`) and the URL kubectl
 * fetches its document from, which carries the document's content hash.
 */
export async function openApiIndexOf(kube: KubeClient): Promise<Record<string, string>> {
  const index = await kube.request<{ paths: Record<string, { serverRelativeURL: string }> }>({
    method: 'GET',
    path: '/openapi/v3',
  });
  return Object.fromEntries(
    Object.entries(index.paths).map(([path, v]) => [path, v.serverRelativeURL]),
  );
}

/** How long the apiserver may take to serve a new CRD's group in its OpenAPI v3 index. */
export const OPENAPI_WAIT_MS = 60_000;

/**
 * Waits until `holds(index)` (the apiserver rebuilds the aggregated OpenAPI in the background
 * after a CRD is Established); false when it still does not hold after `timeoutMs`.
 */
export async function waitForOpenApi(
  kube: KubeClient,
  holds: (index: Record<string, string>) => boolean,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (holds(await openApiIndexOf(kube))) return true;
    await sleep(500);
  }
  return false;
}
