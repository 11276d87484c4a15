/**
 * VideoLibrary end to end, driven with `kubectl apply` against a real kube-apiserver, a real
 * operator process and cdn-sim (strict against the core document): a library created with its
 * pull zone and storage zone (ids and hostnames in status, Ready, the API keys in the outputs
 * Secret asked for); referrers and a setting changed → exactly those written (cdn-sim's call log,
 * the Updated event's fields); drift made behind the operator's back corrected within the poll
 * interval; an API key reset by annotation → the Secret gets the new key, which appears in no
 * log (trace level), event or status; deletion with Orphan and Delete (the library's zones go
 * with it); nothing cdn-sim rejected.
 */
import test from 'ava';
import { apiVersionOfKind } from '../../../src/controllers/kinds.js';
import { KEY_RESET_ANNOTATIONS } from '../../../src/controllers/videolibrary/keys.js';
import {
  apply,
  deleteObject,
  getObject,
  kubectl,
  waitFor,
  waitForCondition,
} from '../support/kube.js';
import { startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';

const RESOURCE = 'videolibraries.video.cdn.operator.io';
const API_KEY = 'e2e-videolibrary-key';

let env: OperatorEnv;

test.before(async () => {
  // Trace level: the key reset test looks for the key in every line the operator can write.
  process.env.CDN_OPERATOR_LOG_LEVEL = 'trace';
  env = await startOperatorEnv('e2e-vl', API_KEY);
});

test.after.always(async () => {
  await env?.stop();
});

function libraryJson(
  name: string,
  spec: Record<string, unknown>,
  annotations: Record<string, string> = {},
): string {
  return JSON.stringify({
    apiVersion: apiVersionOfKind('VideoLibrary'),
    kind: 'VideoLibrary',
    metadata: {
      name,
      namespace: env.ns,
      annotations: { 'cdn.operator.io/poll-interval': '2s', ...annotations },
    },
    spec,
  });
}

/** The video library writes cdn-sim received, in order. */
function libraryWrites(): string[] {
  return env.sim.calls
    .snapshot()
    .log.filter((c) => c.method !== 'GET' && c.path.startsWith('/videolibrary'))
    .map((c) => c.route);
}

/** Waits until the object's status satisfies `ok`, with Ready=True for its generation. */
async function waitStatus(
  name: string,
  ok: (status: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  return waitFor(
    async () => {
      const obj = await waitForCondition(RESOURCE, env.ns, name, 'Ready', 'True');
      const status = (obj.status ?? {}) as Record<string, unknown>;
      return ok(status) ? status : undefined;
    },
    60_000,
    `${name} status`,
    250,
  );
}

/** The outputs Secret's decoded data, once `ok` holds for it. */
async function outputsOf(
  name: string,
  ok: (data: Record<string, string>) => boolean,
): Promise<Record<string, string>> {
  return waitFor(
    async () => {
      const secret = await getObject('secret', env.ns, name);
      const data = Object.fromEntries(
        Object.entries((secret?.data ?? {}) as Record<string, string>).map(([k, v]) => [
          k,
          Buffer.from(v, 'base64').toString('utf8'),
        ]),
      );
      return data.apiKey !== undefined && ok(data) ? data : undefined;
    },
    60_000,
    `outputs Secret ${name}`,
    250,
  );
}

/** The fields of the object's Updated events (`Updated A: x → y; B: ...`), newest last. */
async function updatedFields(name: string): Promise<string[][]> {
  const list = JSON.parse(await kubectl(['get', 'events', '-n', env.ns, '-o', 'json'])) as {
    items: { involvedObject: { name: string }; reason: string; message: string }[];
  };
  return list.items
    .filter((e) => e.involvedObject.name === name && e.reason === 'UpdatedExternalResource')
    .map((e) =>
      e.message
        .replace(/^Updated /, '')
        .split('; ')
        .map((part) => part.split(':')[0]!)
        .sort(),
    );
}

const UPDATE = 'POST /videolibrary/{id}';
const ADD_ALLOWED = 'POST /videolibrary/{id}/addAllowedReferrer';
const REMOVE_ALLOWED = 'POST /videolibrary/{id}/removeAllowedReferrer';
const RESET = 'POST /videolibrary/{id}/resetApiKey';

test.serial(
  'create: the library, its pull zone and storage zone exist, ids and hostnames in status, Ready, keys in the Secret',
  async (t) => {
    await apply(
      libraryJson('videos', {
        replicationRegions: ['NY'],
        encoding: { resolutions: ['720p', '1080p'] },
        captions: { fontSize: 25 },
        security: { allowedReferrers: ['a.example.com'] },
        outputSecretRef: { name: 'videos-keys' },
      }),
    );
    const status = await waitStatus('videos', (s) => s.libraryId !== undefined);
    const id = Number(status.libraryId);
    const library = env.sim.state.videoLibraries.get(id);
    t.truthy(library, 'the library exists');
    t.is(library?.Name, 'videos', 'renamed from the provisional name');
    t.deepEqual(library?.AllowedReferrers, ['a.example.com']);
    const zone = env.sim.state.pullZones.get(Number(status.pullZoneId));
    t.is(zone?.record.VideoLibraryId, id, 'its pull zone exists');
    const storage = env.sim.state.storageZones.get(Number(status.storageZoneId));
    t.deepEqual(storage?.ReplicationRegions, ['NY'], 'its storage zone exists');
    t.is(status.pullZoneHostname, `${String(zone?.record.Name)}.b-cdn.net`);
    t.truthy(status.storageZoneHostname);
    const keys = await outputsOf('videos-keys', () => true);
    t.is(keys.apiKey, library?.ApiKey as string);
    t.is(keys.readOnlyApiKey, library?.ReadOnlyApiKey as string);
    t.is(keys.libraryId, String(id));
    t.false(JSON.stringify(status).includes(keys.apiKey!), 'no key in status');
  },
);

test.serial('referrers and a setting changed: exactly those are written', async (t) => {
  const before = libraryWrites().length;
  await apply(
    libraryJson('videos', {
      replicationRegions: ['NY'],
      encoding: { resolutions: ['720p', '1080p'] },
      captions: { fontSize: 30 },
      security: { allowedReferrers: ['b.example.com'] },
      outputSecretRef: { name: 'videos-keys' },
    }),
  );
  const status = await waitStatus('videos', () => true);
  const library = env.sim.state.videoLibraries.get(Number(status.libraryId));
  t.is(library?.CaptionsFontSize, 30);
  t.deepEqual(library?.AllowedReferrers, ['b.example.com']);
  // Let a few polls pass: nothing more may be sent.
  await new Promise((r) => setTimeout(r, 5_000));
  t.deepEqual(libraryWrites().slice(before), [UPDATE, ADD_ALLOWED, REMOVE_ALLOWED]);
  const events = await updatedFields('videos');
  t.deepEqual(events.at(-1), ['AllowedReferrers', 'CaptionsFontSize'], JSON.stringify(events));
});

test.serial('drift made behind the operator is corrected within the poll interval', async (t) => {
  const status = await waitStatus('videos', () => true);
  const id = Number(status.libraryId);
  const res = await fetch(`${env.sim.url}/videolibrary/${id}`, {
    method: 'POST',
    headers: { AccessKey: API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ CaptionsFontSize: 11 }),
  });
  t.is(res.status, 200);
  await waitFor(
    () => Promise.resolve(env.sim.state.videoLibraries.get(id)?.CaptionsFontSize === 30),
    20_000,
    'the drift corrected',
    250,
  );
  t.pass();
});

test.serial(
  'API key reset by annotation: the Secret gets the new key, which is in no log, event or status',
  async (t) => {
    const before = await outputsOf('videos-keys', () => true);
    const writes = libraryWrites().length;
    await apply(
      libraryJson(
        'videos',
        {
          replicationRegions: ['NY'],
          encoding: { resolutions: ['720p', '1080p'] },
          captions: { fontSize: 30 },
          security: { allowedReferrers: ['b.example.com'] },
          outputSecretRef: { name: 'videos-keys' },
        },
        { [KEY_RESET_ANNOTATIONS.apiKey]: '2026-11-29T12:00:00Z' },
      ),
    );
    const after = await outputsOf('videos-keys', (d) => d.apiKey !== before.apiKey);
    const status = await waitStatus(
      'videos',
      (s) => (s.keyReset as { apiKey?: string } | undefined)?.apiKey === '2026-11-29T12:00:00Z',
    );
    t.is(after.readOnlyApiKey, before.readOnlyApiKey, 'the read-only key is kept');
    const live = env.sim.state.videoLibraries.get(Number(status.libraryId))?.ApiKey as string;
    t.is(after.apiKey, live);
    await new Promise((r) => setTimeout(r, 5_000));
    t.deepEqual(libraryWrites().slice(writes), [RESET], 'one reset, never repeated');
    const places: Record<string, string> = {
      'operator log (trace)': env.operator.output(),
      events: await kubectl(['get', 'events', '-n', env.ns, '-o', 'json']),
      status: JSON.stringify((await getObject(RESOURCE, env.ns, 'videos'))?.status),
    };
    for (const [where, text] of Object.entries(places)) {
      for (const key of [before.apiKey!, after.apiKey!, after.readOnlyApiKey!])
        t.false(text.includes(key), `a key is in the ${where}`);
    }
    t.true(env.operator.output().includes('"level":20'), 'the log has debug lines');
  },
);

test.serial('delete: Orphan leaves the library, Delete removes it and its zones', async (t) => {
  await apply(libraryJson('kept', { deletionPolicy: 'Orphan' }));
  const kept = await waitStatus('kept', (s) => s.libraryId !== undefined);
  await deleteObject(RESOURCE, env.ns, 'kept');
  await waitFor(async () => (await getObject(RESOURCE, env.ns, 'kept')) === undefined, 30_000);
  t.true(env.sim.state.videoLibraries.has(Number(kept.libraryId)), 'Orphan deletes nothing');
  t.true(env.sim.state.pullZones.has(Number(kept.pullZoneId)));

  const status = await waitStatus('videos', () => true);
  await deleteObject(RESOURCE, env.ns, 'videos');
  await waitFor(async () => (await getObject(RESOURCE, env.ns, 'videos')) === undefined, 30_000);
  t.false(env.sim.state.videoLibraries.has(Number(status.libraryId)), 'Delete removes it');
  t.false(env.sim.state.pullZones.has(Number(status.pullZoneId)), 'with its pull zone');
  t.false(env.sim.state.storageZones.has(Number(status.storageZoneId)), 'and its storage zone');

  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
