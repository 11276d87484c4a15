/**
 * The storage endpoint's host names. On the platform a storage zone's files are served from the
 * host of its main region: `storage.bunnycdn.com` for DE, `<region>.storage.bunnycdn.com` for
 * the others (`ny.`, `la.`, `sg.`, `uk.`, `se.`, `br.`, `jh.`, `syd.`), which the zone record
 * shows as `StorageHostname`; a request to another region's host is refused (401).
 *
 * cdn-sim keeps the platform's names by default (clients reach its storage listener through an
 * HTTPS proxy or a hosts entry) and takes another base (`--storage-hostname`): a DNS name gets
 * the same region labels, an IP address or `localhost` (which cannot carry them) serves every
 * region from the one host.
 */

/** The platform's storage host of the DE region. */
export const LIVE_STORAGE_HOSTNAME = 'storage.bunnycdn.com';

/** Region codes whose storage host is `<code>.<base>` (every region but DE). */
const REGION_LABELS = new Set(['ny', 'la', 'sg', 'uk', 'se', 'br', 'jh', 'syd']);

/** Host name without a port (`[::1]:8080` -> `::1`, `a.b:8080` -> `a.b`), lower case. */
export function hostOf(hostPort: string): string {
  const trimmed = hostPort.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(1, trimmed.indexOf(']'));
  const colon = trimmed.lastIndexOf(':');
  return colon > 0 && !trimmed.slice(0, colon).includes(':') ? trimmed.slice(0, colon) : trimmed;
}

/** The port part of `host:port`, with its colon, or ''. */
function portOf(hostPort: string): string {
  const host = hostOf(hostPort);
  const rest = hostPort.trim().toLowerCase();
  const after = rest.startsWith('[') ? rest.slice(rest.indexOf(']') + 1) : rest.slice(host.length);
  return after.startsWith(':') ? after : '';
}

/** True when a host can carry region labels: a DNS name other than `localhost`. */
function isRegionalName(host: string): boolean {
  return /[a-z]/.test(host) && !host.includes(':') && host !== 'localhost';
}

/** `StorageHostname` of a zone in `region`, for storage hosts based on `base` (`host[:port]`). */
export function storageHostnameOf(base: string, region: string): string {
  const code = region.toLowerCase();
  if (code === 'de' || !isRegionalName(hostOf(base))) return base;
  return `${code}.${hostOf(base)}${portOf(base)}`;
}

/**
 * The region a request's `Host` names, for storage hosts based on `base`: `DE` for the base
 * itself, the region of a `<code>.<base>` host; undefined for any other host (an address the
 * client used directly), which is not checked against the zone's region.
 */
export function regionOfHost(base: string, hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  const root = hostOf(base);
  const host = hostOf(hostHeader);
  if (!isRegionalName(root)) return undefined;
  if (host === root) return 'DE';
  const label = host.endsWith(`.${root}`) ? host.slice(0, -root.length - 1) : '';
  return REGION_LABELS.has(label) ? label.toUpperCase() : undefined;
}
