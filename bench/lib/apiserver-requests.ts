/**
 * Requests the apiserver served, by verb and resource (`apiserver_request_total` of its
 * /metrics): the bench reads it before and after a phase to say what each object cost the
 * apiserver in requests (kubectl's own, the operator's, the watchers'), whatever their client.
 */
import { kubectlRaw } from '../../test/e2e/support/kube.js';
import { parseProm, type PromSample } from './prom.js';

/** Request counts by `VERB resource[/subresource]`. */
export type RequestCounts = Record<string, number>;

/** `apiserver_request_total` summed by verb, resource and subresource. */
export function requestCountsOf(samples: PromSample[]): RequestCounts {
  const out: RequestCounts = {};
  for (const s of samples) {
    if (s.name !== 'apiserver_request_total') continue;
    const { verb = '', resource = '', subresource = '' } = s.labels;
    if (resource === '') continue;
    const key = `${verb} ${resource}${subresource ? `/${subresource}` : ''}`;
    out[key] = (out[key] ?? 0) + s.value;
  }
  return out;
}

/** `after - before` per key, keeping the keys that grew. */
export function diffRequestCounts(before: RequestCounts, after: RequestCounts): RequestCounts {
  const out: RequestCounts = {};
  for (const [key, value] of Object.entries(after)) {
    const grown = value - (before[key] ?? 0);
    if (grown > 0) out[key] = grown;
  }
  return out;
}

/**
 * The keys with at least `min` requests per object (`n` objects), largest first, as
 * `VERB resource 1.00` text; leases and the like stay out by the threshold.
 */
export function perObjectText(counts: RequestCounts, n: number, min = 0.5): string {
  return Object.entries(counts)
    .map(([key, value]) => [key, value / n] as const)
    .filter(([, perObject]) => perObject >= min)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, perObject]) => `${key} ${perObject.toFixed(2)}`)
    .join(', ');
}

/** Reads the apiserver's request counts (kubectl get --raw /metrics). */
export async function readRequestCounts(kubeconfig: string): Promise<RequestCounts> {
  const r = await kubectlRaw(['get', '--raw', '/metrics'], undefined, { kubeconfig });
  if (r.code !== 0) throw new Error(`cannot read the apiserver's metrics: ${r.stderr.trim()}`);
  return requestCountsOf(parseProm(r.stdout));
}
