/**
 * No value read from a Secret leaves the operator (issues 13 and 44), from the user's side:
 * every Secret-sourced field of every kind, with cdn-sim refusing the write that carries it and
 * echoing the request back (fault `echoBodyRoutes`) in each spelling a platform may use (as
 * sent, as a JSON string, URL-encoded with either hex case or `+` for a space, HTML-escaped with
 * named or numeric entities). The kinds run as the operator runs them (createManagedKinds: the
 * Secret registration and the classified-error scrubbing included) through the real reconciler
 * against the in-process cdn-sim, with the operator's logger (src/log.ts), an event sink and
 * the operator's metrics. The value must be in none of its forms (test/support/secret-forms.ts)
 * in a log line, an Event, the object (status) or the metrics, and the echo must have reached
 * the Synced condition masked (so each check can fail).
 */
import test, { type ExecutionContext } from 'ava';
import { createManagedKinds } from '../../../../src/controllers/registry.js';
import { createLogger } from '../../../../src/log.js';
import { findCondition } from '../../../../src/runtime/conditions.js';
import { OperatorMetrics } from '../../../../src/runtime/metrics.js';
import { ManagedReconciler } from '../../../../src/runtime/reconciler.js';
import { StatusWriter } from '../../../../src/runtime/status-writer.js';
import type { ManagedKind, ManagedObject } from '../../../../src/runtime/types.js';
import { ECHO_ENCODINGS, type EchoEncoding } from '../../../../src/simulator/echo-encodings.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import { leakForms } from '../../../support/secret-forms.js';
import { FakeEnv } from '../../runtime/fake-env.js';
import { apiVersionOfKind } from '../../../../src/controllers/kinds.js';

const NS = 'team-a';
/** Characters every encoder treats differently, so each form of a value is its own needle. */
const odd = (tag: string): string => `${tag}/+= "q" 'a' <&> ~!*é\\z`;
// The API key travels in a header: no newline, no non-ASCII.
const API_KEY = `echo-api-key/+="q"'a'<&>~!*`;

/** One Secret-sourced field: where its value is read from and which write carries it. */
interface Field {
  kind: string;
  field: string;
  /** Secrets of the object's namespace (`creds` with the API key is added). */
  secrets: Record<string, Record<string, string>>;
  /** The value that must never leave. */
  value: string;
  /** The spec of the object named `name` (names on the platform are unique). */
  spec: (name: string) => Record<string, unknown>;
  /** Route patterns whose writes are echoed (the write that carries the value). */
  echo: string[];
  /** The echo also quotes the AccessKey header. */
  accessKey?: boolean;
}

const container = (env: Record<string, unknown>[] = []): Record<string, unknown> => ({
  name: 'web',
  imageName: 'nginx',
  imageNamespace: 'library',
  imageTag: '1.27',
  imageRegistryId: 'dockerhub',
  environmentVariables: env,
});

const app = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  autoScaling: { min: 1, max: 1 },
  containerTemplates: [container()],
  ...extra,
});

const TLS_KEY = `-----BEGIN PRIVATE KEY-----\nMIIEvQ+echo/key==${odd('tls')}\n-----END PRIVATE KEY-----\n`;

/** A secret setting of a pull zone (`settings.<ref>`), with the settings it needs beside it. */
const pullZoneSetting = (ref: string, others: Record<string, unknown>): Field => ({
  kind: 'PullZoneConfig',
  field: `settings.${ref}`,
  secrets: { settings: { [ref]: odd(ref) } },
  value: odd(ref),
  spec: () => ({
    settings: {
      originUrl: 'https://o.example.com',
      ...others,
      [ref]: { name: 'settings', key: ref },
    },
  }),
  echo: ['POST /pullzone', 'POST /pullzone/{id}'],
});

const FIELDS: Field[] = [
  pullZoneSetting('awsSigningAccessKeyIdSecretRef', {
    awsSigningEnabled: true,
    awsSigningRegionName: 'us-east-1',
  }),
  pullZoneSetting('awsSigningSecretAccessKeySecretRef', { awsSigningEnabled: true }),
  pullZoneSetting('logForwardingTokenSecretRef', {
    logForwardingEnabled: true,
    logForwardingHostname: 'logs.example.com',
    logForwardingPort: 514,
  }),
  {
    kind: 'PullZoneConfig',
    field: 'hostnames[].certificate.secretRef (tls.key, sent base64-encoded)',
    secrets: { tls: { 'tls.crt': 'not-checked-by-the-echo', 'tls.key': TLS_KEY } },
    value: TLS_KEY,
    spec: (name) => ({
      settings: { originUrl: 'https://o.example.com' },
      hostnames: [
        {
          hostname: `${name}.shop.example.com`,
          certificate: { type: 'Custom', secretRef: { name: 'tls' } },
        },
      ],
    }),
    echo: ['POST /pullzone/{id}/addCertificate'],
  },
  {
    kind: 'ContainerApp',
    field: 'containerTemplates[].environmentVariables[].valueFrom.secretKeyRef',
    secrets: { env: { token: odd('app-env') } },
    value: odd('app-env'),
    spec: (name) =>
      app(name, {
        containerTemplates: [
          container([
            { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'env', key: 'token' } } },
          ]),
        ],
      }),
    echo: ['POST /mc/apps'],
  },
  {
    kind: 'ContainerApp',
    field: 'logForwarding.tokenSecretRef',
    secrets: { 'log-token': { token: odd('app-log-token') } },
    value: odd('app-log-token'),
    spec: (name) =>
      app(name, {
        logForwarding: {
          type: 'SyslogTCP',
          endpoint: 'logs.example.com',
          port: 6514,
          format: 'SyslogRFC5424',
          tokenSecretRef: { name: 'log-token', key: 'token' },
        },
      }),
    echo: ['POST /mc/log/forwarding', 'PUT /mc/log/forwarding/{appId}'],
  },
  {
    kind: 'ContainerRegistry',
    field: 'passwordSecretRef',
    secrets: { 'reg-pass': { password: odd('registry-pass') } },
    value: odd('registry-pass'),
    spec: () => ({
      name: 'echo-registry',
      type: 'GitHub',
      username: 'bot',
      passwordSecretRef: { name: 'reg-pass', key: 'password' },
    }),
    echo: ['POST /mc/registries', 'PUT /mc/registries/{registryId}'],
  },
  {
    kind: 'EdgeScript',
    field: 'secrets[].valueFrom.secretKeyRef',
    secrets: { 'script-secrets': { token: odd('script-secret') } },
    value: odd('script-secret'),
    spec: () => ({
      scriptType: 'Middleware',
      code: { inline: 'export default () => new Response("echo");' },
      secrets: [
        {
          name: 'API_TOKEN',
          valueFrom: { secretKeyRef: { name: 'script-secrets', key: 'token' } },
        },
      ],
    }),
    echo: ['PUT /compute/script/{id}/secrets'],
  },
  {
    kind: 'ContainerRegistry',
    field: 'credentialsRef (the API key, quoted from the AccessKey header)',
    secrets: { 'reg-pass': { password: 'registry-password-0' } },
    value: API_KEY,
    spec: () => ({
      name: 'echo-registry',
      type: 'GitHub',
      username: 'bot',
      passwordSecretRef: { name: 'reg-pass', key: 'password' },
    }),
    echo: ['POST /mc/registries'],
    accessKey: true,
  },
];

let sim: SimulatorHandle;
let kinds: Map<string, ManagedKind>;
const lines: string[] = [];
const metrics = new OperatorMetrics();
const log = createLogger({
  level: 'debug',
  destination: { write: (s: string) => void lines.push(s) },
});

test.before(async () => {
  sim = await startSimulator({
    apiKeys: [{ key: API_KEY }],
    logger: createLogger({ level: 'silent' }),
  });
  const deps = { apiBaseUrl: sim.url, log, onCdnRequest: metrics.recordCdnRequest.bind(metrics) };
  kinds = new Map((await createManagedKinds(deps)).map((k) => [k.kind, k]));
});

test.after.always(async () => {
  await sim?.close();
});

function objectOf(f: Field, name: string): ManagedObject {
  return {
    apiVersion: apiVersionOfKind(f.kind),
    kind: f.kind,
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${name}`,
      creationTimestamp: '2025-01-02T00:00:00Z',
    },
    spec: { credentialsRef: { name: 'creds' }, ...f.spec(name) },
  };
}

/** The kind's reconciler on a fake apiserver; events and log lines are collected. */
function reconcilerOf(f: Field, env: FakeEnv): ManagedReconciler {
  const secrets: Record<string, Record<string, string>> = {
    creds: { apiKey: API_KEY },
    ...f.secrets,
  };
  const writer = env.writer();
  return new ManagedReconciler({
    kind: kinds.get(f.kind)!,
    getCached: (key) => (env.objects.has(key) ? structuredClone(env.objects.get(key)!) : undefined),
    storeWritten: () => undefined,
    writer,
    status: new StatusWriter((o, p) => writer.patchStatus(o, p)),
    connectContext: (passLog) => ({
      log: passLog,
      readSecret: (ns, name) =>
        Promise.resolve(ns === NS && secrets[name] ? { ...secrets[name] } : undefined),
      readConfigMap: () => Promise.resolve(undefined),
      getObject: () => undefined,
    }),
    events: {
      record: (_o, type, reason, message) => {
        env.events.push({ type, reason, message });
        metrics.eventsEmitted.inc({ reason, type });
      },
    },
    counters: {
      externalCall: (operation) => metrics.externalCalls.inc({ controller: f.kind, operation }),
      statusWrite: () => metrics.statusWrites.inc({ controller: f.kind }),
      objectWrite: (operation) => metrics.kubeWrites.inc({ controller: f.kind, operation }),
    },
    log,
    signal: new AbortController().signal,
  });
}

/** Passes until the Synced condition carries the echo (a create comes before its updates). */
async function reconcileUntilEchoed(
  f: Field,
  encoding: EchoEncoding,
): Promise<{ env: FakeEnv; message: string }> {
  const name = `echo-${encoding}`;
  const env = new FakeEnv();
  env.put(objectOf(f, name));
  const reconciler = reconcilerOf(f, env);
  let message = '';
  for (let pass = 0; pass < 5 && !message.includes('could not be processed'); pass++) {
    await reconciler.reconcile(`${NS}/${name}`);
    message =
      findCondition(env.objects.get(`${NS}/${name}`)?.status?.conditions, 'Synced')?.message ?? '';
  }
  return { env, message };
}

/** Asserts that no form of `value` is in any of `places`. */
function assertAbsent(t: ExecutionContext, value: string, places: Array<[string, string]>): void {
  const forms = leakForms(value);
  for (const [where, text] of places) {
    const leaked = forms.filter((form) => text.includes(form));
    t.deepEqual(leaked, [], `the value in the ${where}`);
  }
}

for (const f of FIELDS) {
  test.serial(
    `${f.kind} ${f.field}: an echoed value reaches no log, event, status or metric`,
    async (t) => {
      for (const encoding of ECHO_ENCODINGS) {
        sim.faults.set({
          echoBodyRoutes: f.echo,
          echoBodyEncodings: [encoding],
          ...(f.accessKey ? { echoAccessKey: true } : {}),
        });
        const from = lines.length;
        const { env, message } = await reconcileUntilEchoed(f, encoding);
        // The platform did echo the request, and the value in it was masked (the check can fail).
        t.regex(message, /could not be processed.*\[REDACTED\]/s, `${encoding}: ${message}`);
        assertAbsent(t, f.value, [
          [`${encoding} log`, lines.slice(from).join('')],
          [`${encoding} events`, JSON.stringify(env.events)],
          [`${encoding} object`, JSON.stringify([...env.objects.values()])],
          [`${encoding} metrics`, await metrics.registry.metrics()],
        ]);
      }
      sim.faults.set({});
    },
  );
}

test.serial(
  'StorageZone passwords: once the platform returned them, no form passes the log',
  async (t) => {
    // No request carries them (the platform generates them), so no echo can; what can leak them
    // is any later text quoting them: registered when the zone is read, they are masked in it.
    const env = new FakeEnv();
    const f: Field = {
      kind: 'StorageZone',
      field: 'outputs: Password, ReadOnlyPassword',
      secrets: {},
      value: '',
      spec: (name) => ({ name, region: 'DE' }),
      echo: [],
    };
    env.put(objectOf(f, 'echo-files'));
    await reconcilerOf(f, env).reconcile(`${NS}/echo-files`);
    const id = env.objects.get(`${NS}/echo-files`)?.status?.storageZoneId;
    const zone = sim.state.storageZones.get(Number(id));
    const passwords = [zone?.Password, zone?.ReadOnlyPassword].filter(
      (p): p is string => typeof p === 'string',
    );
    t.is(passwords.length, 2, 'the platform returned both passwords');
    for (const password of passwords) {
      const from = lines.length;
      for (const form of leakForms(password)) log.warn({ error: `echo ${form}` }, 'Quoted');
      assertAbsent(t, password, [['log', lines.slice(from).join('')]]);
    }
  },
);
