/**
 * The test control plane's aggregation layer, with a trivial aggregated API server (no operator):
 * the apiserver publishes the request-header configuration, reaches an APIService through its
 * Service's endpoints on this host's non-loopback address, verifies the server against the
 * APIService's caBundle, and proxies a request with the front-proxy client certificate and the
 * caller's identity in the request headers. The certificates e2e's solver depends on each step.
 */
import test from 'ava';
import { createServer, type Server } from 'node:https';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { TLSSocket } from 'node:tls';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCa, signServingCert } from '../../cluster/certs.js';
import { registerAggregatedApi } from '../support/aggregated-api.js';
import { pickHostAddress } from '../support/host-address.js';
import { getObject, kubectl, kubectlRaw } from '../support/kube.js';

const GROUP = 'echo.e2e.cdn.operator.io';
const VERSION = 'v1alpha1';
const NAMESPACE = 'e2e-aggregation';
const SERVICE = 'echo';

interface Seen {
  path: string;
  peer?: string;
  user?: string;
  groups?: string;
}

let dir: string;
let server: Server;
const seen: Seen[] = [];

function answer(req: IncomingMessage, res: ServerResponse): void {
  const cn = (req.socket as TLSSocket).getPeerCertificate().subject?.CN;
  const peer = Array.isArray(cn) ? cn.join(',') : cn;
  const authorized = (req.socket as TLSSocket).authorized;
  seen.push({
    path: req.url ?? '',
    ...(authorized && peer ? { peer } : {}),
    ...(typeof req.headers['x-remote-user'] === 'string'
      ? { user: req.headers['x-remote-user'] }
      : {}),
    ...(req.headers['x-remote-group'] ? { groups: String(req.headers['x-remote-group']) } : {}),
  });
  res.setHeader('content-type', 'application/json');
  if (!authorized) {
    res.statusCode = 401;
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 401 }));
    return;
  }
  const list = {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: `${GROUP}/${VERSION}`,
    resources: [
      { name: 'echoes', singularName: 'echo', namespaced: false, kind: 'Echo', verbs: ['create'] },
    ],
  };
  const echo = {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'Echo',
    user: req.headers['x-remote-user'] ?? '',
  };
  res.end(JSON.stringify(req.method === 'POST' ? echo : list));
}

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdn-e2e-aggregation-'));
  const ca = await createCa(dir, 'echo-ca', 'echo-ca');
  const serving = await signServingCert(dir, 'echo', [`${SERVICE}.${NAMESPACE}.svc`], ca);
  const auth = await getObject('configmap', 'kube-system', 'extension-apiserver-authentication');
  const data = (auth?.['data'] ?? {}) as Record<string, string>;
  const address = pickHostAddress();
  server = createServer(
    {
      cert: await readFile(serving.cert),
      key: await readFile(serving.key),
      ca: data['requestheader-client-ca-file'],
      requestCert: true,
      rejectUnauthorized: false,
    },
    answer,
  );
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const port = (server.address() as { port: number }).port;
  await registerAggregatedApi({
    group: GROUP,
    version: VERSION,
    namespace: NAMESPACE,
    service: SERVICE,
    address,
    port,
    caBundle: await readFile(ca.caCert, 'utf8'),
  });
});

test.after.always(async () => {
  await kubectlRaw(['delete', 'apiservice', `${VERSION}.${GROUP}`, '--ignore-not-found']);
  await kubectlRaw(['delete', 'namespace', NAMESPACE, '--wait=false', '--ignore-not-found']);
  await new Promise((resolve) => server?.close(resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the apiserver publishes the request-header configuration aggregated servers read', async (t) => {
  const auth = await getObject('configmap', 'kube-system', 'extension-apiserver-authentication');
  const data = (auth?.['data'] ?? {}) as Record<string, string>;
  t.regex(data['requestheader-client-ca-file'] ?? '', /BEGIN CERTIFICATE/);
  t.is(data['requestheader-allowed-names'], '["front-proxy-client"]');
  t.is(data['requestheader-username-headers'], '["X-Remote-User"]');
  t.is(data['requestheader-group-headers'], '["X-Remote-Group"]');
  t.is(data['requestheader-extra-headers-prefix'], '["X-Remote-Extra-"]');
});

test('a request to the aggregated API reaches the server through the front proxy, with the caller in the headers', async (t) => {
  const out = await kubectl(
    ['create', '--raw', `/apis/${GROUP}/${VERSION}/echoes`, '-f', '-'],
    '{}',
  );
  t.is(
    (JSON.parse(out) as { user: string }).user,
    'cdn-operator-admin',
    'the admin kubeconfig user',
  );
  const post = seen.filter((s) => s.path === `/apis/${GROUP}/${VERSION}/echoes`).at(-1);
  t.is(
    post?.peer,
    'front-proxy-client',
    'the apiserver presented the front-proxy client certificate',
  );
  t.regex(post?.groups ?? '', /system:masters/, 'the caller’s groups travel in X-Remote-Group');
});

test('discovery of the aggregated group goes through the apiserver', async (t) => {
  const out = await kubectl(['get', '--raw', `/apis/${GROUP}/${VERSION}`]);
  t.deepEqual(
    (JSON.parse(out) as { resources: Array<{ name: string }> }).resources.map((r) => r.name),
    ['echoes'],
  );
});
