/**
 * Certificates for the local control plane, generated with openssl into a temp dir:
 * a CA, the apiserver serving certificate (127.0.0.1, localhost), an admin client
 * certificate in `system:masters`, the service-account signing key pair, and the aggregation
 * layer's front proxy: a CA of its own (as kubeadm makes it, so no client certificate of the main
 * CA can pass for the proxy) and the `front-proxy-client` certificate the apiserver presents to
 * aggregated API servers.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Paths of the generated PKI files. */
export interface Pki {
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
  saKey: string;
  saPub: string;
  frontProxyCaCert: string;
  frontProxyCaKey: string;
  frontProxyClientCert: string;
  frontProxyClientKey: string;
}

/** The CN the front-proxy client certificate has (`--requestheader-allowed-names`). */
export const frontProxyClientName = 'front-proxy-client';

async function openssl(args: string[]): Promise<void> {
  try {
    await run('openssl', args);
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? String(err);
    throw new Error(`cannot run openssl ${args[0]}: ${stderr.trim()}`, { cause: err });
  }
}

async function signCert(
  dir: string,
  name: string,
  subject: string,
  extensions: string,
  pki: Pick<Pki, 'caCert' | 'caKey'>,
): Promise<{ cert: string; key: string }> {
  const key = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  const cert = join(dir, `${name}.crt`);
  const ext = join(dir, `${name}.ext`);
  await writeFile(ext, extensions);
  await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', key]);
  await openssl(['req', '-new', '-key', key, '-subj', subject, '-out', csr]);
  await openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    pki.caCert,
    '-CAkey',
    pki.caKey,
    '-CAcreateserial',
    '-days',
    '2',
    '-sha256',
    '-extfile',
    ext,
    '-out',
    cert,
  ]);
  return { cert, key };
}

/** Creates a self-signed CA (`<name>.crt`, `<name>.key`) in `dir`. */
export async function createCa(
  dir: string,
  name: string,
  cn: string,
): Promise<CertificateAuthority> {
  const caKey = join(dir, `${name}.key`);
  const caCert = join(dir, `${name}.crt`);
  await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', caKey]);
  await openssl([
    'req',
    '-x509',
    '-new',
    '-key',
    caKey,
    '-subj',
    `/CN=${cn}`,
    '-days',
    '2',
    '-sha256',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-out',
    caCert,
  ]);
  return { caCert, caKey };
}

/** A CA's certificate and key paths. */
export type CertificateAuthority = Pick<Pki, 'caCert' | 'caKey'>;

/**
 * Issues a serving certificate for `dnsNames` from `ca` into `dir` (`<name>.crt`, `<name>.key`),
 * e.g. for an aggregated API server the apiserver reaches as `<service>.<namespace>.svc`.
 */
export function signServingCert(
  dir: string,
  name: string,
  dnsNames: string[],
  ca: CertificateAuthority,
): Promise<{ cert: string; key: string }> {
  const sans = dnsNames.map((n) => `DNS:${n}`).join(',');
  return signCert(
    dir,
    name,
    `/CN=${dnsNames[0] ?? name}`,
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n' +
      `extendedKeyUsage=serverAuth\nsubjectAltName=${sans}\n`,
    ca,
  );
}

const clientExtensions =
  'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n' +
  'extendedKeyUsage=clientAuth\n';

/** Generates every certificate and key the control plane needs into `dir`. */
export async function generatePki(dir: string): Promise<Pki> {
  const { caCert, caKey } = await createCa(dir, 'ca', 'cdn-operator-local-ca');
  const ca = { caCert, caKey };
  const serving = await signCert(
    dir,
    'apiserver',
    '/CN=kube-apiserver',
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n' +
      'extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,' +
      'DNS:kubernetes.default,DNS:kubernetes.default.svc,IP:10.0.0.1\n',
    ca,
  );
  const admin = await signCert(
    dir,
    'admin',
    '/O=system:masters/CN=cdn-operator-admin',
    clientExtensions,
    ca,
  );
  const frontProxyCa = await createCa(dir, 'front-proxy-ca', 'cdn-operator-front-proxy-ca');
  const frontProxyClient = await signCert(
    dir,
    'front-proxy-client',
    `/CN=${frontProxyClientName}`,
    clientExtensions,
    frontProxyCa,
  );
  const saKey = join(dir, 'sa.key');
  const saPub = join(dir, 'sa.pub');
  await openssl([
    'genpkey',
    '-algorithm',
    'RSA',
    '-pkeyopt',
    'rsa_keygen_bits:2048',
    '-out',
    saKey,
  ]);
  await openssl(['pkey', '-in', saKey, '-pubout', '-out', saPub]);
  return {
    caCert,
    caKey,
    servingCert: serving.cert,
    servingKey: serving.key,
    adminCert: admin.cert,
    adminKey: admin.key,
    saKey,
    saPub,
    frontProxyCaCert: frontProxyCa.caCert,
    frontProxyCaKey: frontProxyCa.caKey,
    frontProxyClientCert: frontProxyClient.cert,
    frontProxyClientKey: frontProxyClient.key,
  };
}
