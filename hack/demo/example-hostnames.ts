/**
 * The hostnames of examples/ that ask for a free certificate. cdn-sim issues one only when the
 * hostname's DNS points at its pull zone, as the platform does; the examples' hostnames live
 * in DNS outside cdn-sim (each example says to point a CNAME there), so the demo and the tests
 * that apply examples/ declare them with `--external-dns` / `externalDns`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface ExampleObject {
  kind?: string;
  spec?: { hostnames?: Array<{ hostname?: string; certificate?: { type?: string } }> };
}

function freeHostnamesOf(o: ExampleObject | null): string[] {
  if (o?.kind !== 'PullZoneConfig') return [];
  return (o.spec?.hostnames ?? [])
    .filter((h) => h.certificate?.type === 'Free' && h.hostname)
    .map((h) => h.hostname!);
}

/** Hostnames of PullZoneConfig examples in `<root>/examples` with `certificate.type: Free`. */
export function freeCertificateHostnames(root = REPO_ROOT): string[] {
  const dir = join(root, 'examples');
  const hosts = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => parseAllDocuments(readFileSync(join(dir, f), 'utf8')))
    .flatMap((doc) => freeHostnamesOf(doc.toJS() as ExampleObject | null));
  return [...new Set(hosts)].sort();
}
