/**
 * Cluster DNS for the local node (hack/node/cluster.sh), in place of CoreDNS, which no registry
 * here can provide: answers `<service>.<namespace>.svc.<domain>` with the Service's ClusterIP,
 * from a Service list refreshed every few seconds. Every other name gets NXDOMAIN; nothing is
 * forwarded, so no query leaves the machine.
 *
 * Usage: node --import tsx hack/node/dns.ts --listen <ip> --kubeconfig <path> [--domain cluster.local]
 */
import { createSocket, type Socket } from 'node:dgram';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { buildAnswer, parseQuery, RCODE, TYPE_A, type DnsQuestion } from './dns-message.js';

const REFRESH_MS = 2_000;
const TTL_SECONDS = 5;

/** Resolves a name to ClusterIPs; `undefined` means the name does not exist. */
export function lookupName(
  name: string,
  domain: string,
  services: ReadonlyMap<string, string[]>,
): string[] | undefined {
  const suffix = `.svc.${domain}`;
  if (!name.endsWith(suffix)) return undefined;
  const parts = name.slice(0, -suffix.length).split('.');
  if (parts.length !== 2) return undefined;
  return services.get(`${parts[0]}.${parts[1]}`);
}

function answerFor(q: DnsQuestion, domain: string, services: Map<string, string[]>): Buffer {
  const ips = lookupName(q.name, domain, services);
  if (ips === undefined) return buildAnswer(q, RCODE.nxDomain, [], TTL_SECONDS);
  // The name exists: other types (AAAA) get an empty NOERROR answer.
  return buildAnswer(q, RCODE.noError, q.type === TYPE_A ? ips : [], TTL_SECONDS);
}

async function refresh(api: CoreV1Api, services: Map<string, string[]>): Promise<void> {
  const list = await api.listServiceForAllNamespaces();
  services.clear();
  for (const svc of list.items) {
    const ips = (svc.spec?.clusterIPs ?? []).filter((ip) => /^\d+\.\d+\.\d+\.\d+$/.test(ip));
    services.set(`${svc.metadata?.name ?? ''}.${svc.metadata?.namespace ?? ''}`, ips);
  }
}

/** Serves `services` (`name.namespace` -> IPs) on UDP `host:port`; resolves once bound. */
export function startDnsServer(opts: {
  host: string;
  port: number;
  domain: string;
  services: Map<string, string[]>;
}): Promise<Socket> {
  const socket = createSocket('udp4');
  socket.on('message', (msg, peer) => {
    const q = parseQuery(msg);
    if (!q) return;
    socket.send(answerFor(q, opts.domain, opts.services), peer.port, peer.address);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(opts.port, opts.host, () => resolve(socket));
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      listen: { type: 'string' },
      kubeconfig: { type: 'string' },
      domain: { type: 'string', default: 'cluster.local' },
    },
  });
  if (!values.listen || !values.kubeconfig) {
    throw new Error('cannot start: --listen and --kubeconfig are required');
  }
  const kc = new KubeConfig();
  kc.loadFromFile(values.kubeconfig);
  const api = kc.makeApiClient(CoreV1Api);
  const services = new Map<string, string[]>();
  const tick = (): void => {
    refresh(api, services).catch((err: unknown) => {
      const reason = err instanceof Error ? err.message : String(err);
      process.stderr.write(`cannot list services: ${reason}\n`);
    });
  };
  tick();
  setInterval(tick, REFRESH_MS);
  await startDnsServer({ host: values.listen, port: 53, domain: values.domain, services });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
