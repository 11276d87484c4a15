/**
 * PullZoneConfig hostnames end to end: hostname with free certificate and force SSL, custom
 * certificate from a kubernetes.io/tls Secret re-uploaded when the Secret changes (as when
 * cert-manager renews it), and removal of a hostname the resource added. The examples: the
 * quick start's zone needs no hostname of the user's; the custom-hostname example of
 * examples/dns/ is Ready, with CertificatesReady=False, while its hostname's DNS points nowhere.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/openapi-docs.js';
import { evaluateWithGopherLua } from '../../unit/packaging/argocd-lua.js';
import { apply, conditionOf, getObject, kubectl, waitFor } from '../support/kube.js';
import {
  pzcYaml,
  RESOURCE,
  secretYaml,
  startEnv,
  waitCondition,
  zoneWrites,
  type Env,
} from './setup.js';

let env: Env;

/** A hostname whose DNS points at the CDN from outside cdn-sim (declared in the simulator). */
const POINTING = 'cdn.shop.example.com';

test.before(async () => {
  env = await startEnv('e2e-pzc-host');
  env.sim.state.externalDns.add(POINTING);
});

test.after.always(async () => {
  await env?.stop();
});

interface HostStatus {
  hostname: string;
  addedByOperator: boolean;
  forceSSL: boolean;
  certificate: { type: string; state: string; secretHash?: string };
}

async function hostStatus(name: string, hostname: string): Promise<HostStatus | undefined> {
  const obj = await getObject(RESOURCE, env.ns, name);
  return (obj?.status?.hostnames as HostStatus[] | undefined)?.find((h) => h.hostname === hostname);
}

function liveHost(id: number, hostname: string): Record<string, unknown> | undefined {
  const hosts = env.sim.state.pullZones.get(id)?.record.Hostnames as Record<string, unknown>[];
  return hosts.find((h) => h.Value === hostname);
}

test.serial('hostname with free certificate and force SSL, then removed', async (t) => {
  const spec = {
    hostnames: [{ hostname: POINTING, forceSSL: true, certificate: { type: 'Free' } }],
  };
  await apply(pzcYaml(env.ns, 'shop', spec));
  const obj = await waitCondition(env.ns, 'shop', 'Ready', 'True');
  const id = Number(obj.status?.pullZoneId);
  const status = await waitFor(
    async () => {
      const s = await hostStatus('shop', POINTING);
      return s?.certificate.state === 'Issued' ? s : undefined;
    },
    30_000,
    'certificate issued',
  );
  t.like(status, {
    addedByOperator: true,
    forceSSL: true,
    certificate: { type: 'Free', state: 'Issued' },
  });
  t.like(liveHost(id, POINTING), { ForceSSL: true, HasCertificate: true });
  t.deepEqual(await zoneWrites(env.sim, id), [
    'POST /pullzone/{id}/addHostname',
    'GET /pullzone/loadFreeCertificate',
    'POST /pullzone/{id}/setForceSSL',
  ]);

  await apply(pzcYaml(env.ns, 'shop', { hostnames: [] }));
  await waitFor(() => liveHost(id, POINTING) === undefined, 30_000, 'hostname removed');
  t.true((await zoneWrites(env.sim, id)).includes('DELETE /pullzone/{id}/removeHostname'));
});

test.serial(
  'custom certificate from a TLS Secret, re-uploaded when the Secret changes',
  async (t) => {
    const host = 'static.example.com';
    const tls = (n: number): string =>
      secretYaml(
        env.ns,
        'static-tls',
        {
          'tls.crt': `-----BEGIN CERTIFICATE-----\nCERT${n}\n-----END CERTIFICATE-----\n`,
          'tls.key': `-----BEGIN PRIVATE KEY-----\nKEY${n}\n-----END PRIVATE KEY-----\n`,
        },
        'kubernetes.io/tls',
      );
    await apply(tls(1));
    await apply(
      pzcYaml(env.ns, 'static', {
        hostnames: [
          { hostname: host, certificate: { type: 'Custom', secretRef: { name: 'static-tls' } } },
        ],
      }),
    );
    const obj = await waitCondition(env.ns, 'static', 'Ready', 'True');
    const id = Number(obj.status?.pullZoneId);
    const first = await waitFor(
      async () => (await hostStatus('static', host))?.certificate.secretHash,
      30_000,
      'hash recorded',
    );
    t.regex(first, /^[0-9a-f]{64}$/);
    t.like(liveHost(id, host), { HasCertificate: true, CertificateProvisionType: 3 });
    const uploads = async (): Promise<number> =>
      (await zoneWrites(env.sim, id)).filter((r) => r.endsWith('addCertificate')).length;
    t.is(await uploads(), 1);
    const firstCert = liveHost(id, host)?.Certificate;

    await apply(tls(2)); // renewed (e.g. by cert-manager)
    const second = await waitFor(
      async () => {
        const h = (await hostStatus('static', host))?.certificate.secretHash;
        return h && h !== first ? h : undefined;
      },
      30_000,
      'hash changed after renewal',
    );
    t.not(second, first);
    t.is(await uploads(), 2, 'uploaded again exactly once');
    t.not(liveHost(id, host)?.Certificate, firstCert);
    const obj2 = await getObject(RESOURCE, env.ns, 'static');
    t.false(JSON.stringify(obj2?.status).includes('KEY2'), 'no key material in status');
    t.not(second, createHash('sha256').update('').digest('hex'));
  },
);

test.serial('the example applies as is and becomes Ready and Synced', async (t) => {
  await kubectl(['apply', '-n', env.ns, '-f', join(REPO_ROOT, 'examples', 'pullzoneconfig.yaml')]);
  const obj = await waitCondition(env.ns, 'shop-cdn', 'Synced', 'True');
  await waitCondition(env.ns, 'shop-cdn', 'Ready', 'True');
  t.is(obj.status?.cdnHostname, 'shop-cdn.b-cdn.net');
  t.is(conditionOf(obj, 'CertificatesReady'), undefined, 'no certificate asked for');
});

test.serial(
  'the custom-hostname example, its DNS pointing nowhere: Ready, CertificatesReady=False naming the CNAME, Argo CD Healthy',
  async (t) => {
    const file = join(REPO_ROOT, 'examples', 'dns', 'pullzoneconfig.yaml');
    await kubectl(['apply', '-n', env.ns, '-f', file]);
    const obj = await waitCondition(
      env.ns,
      'shop-media',
      'CertificatesReady',
      'False',
      'CertificatePending',
    );
    const message = conditionOf(obj, 'CertificatesReady')?.message ?? '';
    t.regex(message, /media\.shop\.example\.com does not point .*CNAME to shop-media\.b-cdn\.net/);
    t.like(conditionOf(obj, 'Ready'), { status: 'True', reason: 'Available' });
    t.like(conditionOf(obj, 'Synced'), { status: 'True' });
    const [health] = await evaluateWithGopherLua([obj]);
    t.like(health, { status: 'Healthy' });
    t.regex(health?.message ?? '', /^Ready; CertificatePending: /);
  },
);

// Runs last (serial): every request of this file's lifecycle, adoption and deletion included.
test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
