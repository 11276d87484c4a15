/**
 * A separate client identity for the operator process, so that the audit log tells its
 * requests apart from the bench's own: a client certificate signed by the control plane's
 * CA (`O=system:masters`, `CN=<user>`) and a kubeconfig using it.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ControlPlane } from '../../test/cluster/control-plane.js';

const run = promisify(execFile);

/** Issues a certificate for `user` and writes a kubeconfig for it into `dir`. */
export async function writeUserKubeconfig(
  cp: ControlPlane,
  dir: string,
  user: string,
): Promise<string> {
  const key = join(dir, `${user}.key`);
  const csr = join(dir, `${user}.csr`);
  const crt = join(dir, `${user}.crt`);
  const ext = join(dir, `${user}.ext`);
  await writeFile(ext, 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n');
  await run('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', key]);
  await run('openssl', [
    'req',
    '-new',
    '-key',
    key,
    '-subj',
    `/O=system:masters/CN=${user}`,
    '-out',
    csr,
  ]);
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    cp.pki.caCert,
    '-CAkey',
    cp.pki.caKey,
    '-CAcreateserial',
    '-days',
    '2',
    '-sha256',
    '-extfile',
    ext,
    '-out',
    crt,
  ]);
  const b64 = async (p: string): Promise<string> => (await readFile(p)).toString('base64');
  const path = join(dir, `${user}.kubeconfig`);
  await writeFile(
    path,
    `apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: ${cp.server}
    certificate-authority-data: ${await b64(cp.pki.caCert)}
users:
- name: ${user}
  user:
    client-certificate-data: ${await b64(crt)}
    client-key-data: ${await b64(key)}
contexts:
- name: local
  context: {cluster: local, user: ${user}, namespace: default}
current-context: local
`,
    { mode: 0o600 },
  );
  return path;
}
