/**
 * Certificates for the local control plane, generated with openssl into a temp dir:
 * a CA, the apiserver serving certificate (127.0.0.1, localhost), an admin client
 * certificate in `system:masters`, and the service-account signing key pair.
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
}

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

/** Generates every certificate and key the control plane needs into `dir`. */
export async function generatePki(dir: string): Promise<Pki> {
  const caKey = join(dir, 'ca.key');
  const caCert = join(dir, 'ca.crt');
  await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', caKey]);
  await openssl([
    'req',
    '-x509',
    '-new',
    '-key',
    caKey,
    '-subj',
    '/CN=cdn-operator-local-ca',
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
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n' +
      'extendedKeyUsage=clientAuth\n',
    ca,
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
  };
}
