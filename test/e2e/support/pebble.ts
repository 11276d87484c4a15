/**
 * Pebble, Let's Encrypt's ACME test server (hack/build-binaries.sh pebble), for the certificates
 * e2e: it validates DNS-01 challenges by asking `dnsServer` (cdn-sim's DNS listener) for the TXT
 * record, answers at once (no validation sleep, no nonce rejections, no reused authorizations,
 * so each order is a fresh challenge), and serves HTTPS with its module's test certificate.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildBinaries } from '../../cluster/binaries.js';
import { httpsStatus } from '../../cluster/https-status.js';
import { findFreePorts } from '../../cluster/ports.js';
import {
  readLogTail,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../../cluster/process.js';
import { waitFor } from './kube.js';

/** A running Pebble. */
export interface Pebble {
  /** The ACME directory URL, https://127.0.0.1:PORT/dir. */
  directoryUrl: string;
  /** PEM of the CA of Pebble's HTTPS certificate (an Issuer's `caBundle`). */
  tlsCa: string;
  logFile: string;
  stop(): Promise<void>;
}

function directoryStatus(url: string, ca: string): Promise<number> {
  // Pebble answers 400 to a request without a User-Agent, as RFC 8555 has it.
  const { hostname: host, port, pathname: path } = new URL(url);
  return httpsStatus({ host, port, path, ca, headers: { 'user-agent': 'cdn-operator-e2e' } });
}

function pebbleConfig(home: string, ports: number[]): unknown {
  const [acme, management, http, tls] = ports;
  return {
    pebble: {
      listenAddress: `127.0.0.1:${acme}`,
      managementListenAddress: `127.0.0.1:${management}`,
      certificate: join(home, 'certs', 'cert.pem'),
      privateKey: join(home, 'certs', 'key.pem'),
      httpPort: http,
      tlsPort: tls,
      ocspResponderURL: '',
      externalAccountBindingRequired: false,
    },
  };
}

/** Starts Pebble with its config and log in `dir`; waits until its directory answers. */
export async function startPebble(dir: string, dnsServer: string): Promise<Pebble> {
  const [home] = (await buildBinaries(['pebble'])) as [string];
  await mkdir(dir, { recursive: true });
  const ports = await findFreePorts(4);
  const config = join(dir, 'pebble-config.json');
  await writeFile(config, JSON.stringify(pebbleConfig(home, ports)));
  const proc: ServerProcess = startServerProcess(
    'pebble',
    join(home, 'pebble'),
    ['-config', config, '-dnsserver', dnsServer],
    join(dir, 'pebble.log'),
    false,
    { PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
  );
  const directoryUrl = `https://127.0.0.1:${ports[0]}/dir`;
  const tlsCa = await readFile(join(home, 'certs', 'pebble.minica.pem'), 'utf8');
  try {
    await waitFor(
      async () => {
        if (proc.child.exitCode !== null)
          throw new Error(`pebble exited: ${await readLogTail(proc.logFile, 5)}`);
        return (await directoryStatus(directoryUrl, tlsCa)) === 200;
      },
      30_000,
      'Pebble’s ACME directory',
      100,
    );
  } catch (err) {
    await stopServerProcess(proc);
    throw err;
  }
  return { directoryUrl, tlsCa, logFile: proc.logFile, stop: () => stopServerProcess(proc) };
}
