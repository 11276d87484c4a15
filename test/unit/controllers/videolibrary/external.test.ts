/**
 * The VideoLibrary's external client (the kit's CrudExternal with the kind's hooks) against an
 * in-process cdn-sim (strict against the core document): the writes and update bodies of each
 * pass, the key resets, the keys kept out of status and plans, and deletion. A pass is what
 * the runtime does: create when nothing is recorded (then observe and update in the same pass),
 * else observe and update what differs. Serial: the update bodies are recorded per file, and the
 * last test reads the call log of all the others.
 */
import test from 'ava';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import { CrudExternal } from '../../../../src/controllers/kit/crud-external.js';
import { KEY_RESET_ANNOTATIONS } from '../../../../src/controllers/videolibrary/keys.js';
import {
  videoLibraryResource,
  type LibraryState,
} from '../../../../src/controllers/videolibrary/index.js';
import type {
  VideoLibrary,
  VideoLibrarySpec,
} from '../../../../src/controllers/videolibrary/types.js';
import type { ConnectionDetails, ExternalContext } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';

const API_KEY = 'unit-videolibrary-key';
let sim: SimulatorHandle;
let client: CdnClient;
/** The bodies of the library updates the client sent, in order. */
const bodies: Record<string, unknown>[] = [];

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
  const update = client.updateVideoLibrary.bind(client);
  client.updateVideoLibrary = (id, body, opts) => {
    bodies.push(body);
    return update(id, body, opts);
  };
});

test.after.always(async () => {
  await sim?.close();
});

function external(): CrudExternal<VideoLibrary, LibraryState> {
  return new CrudExternal(videoLibraryResource({ client, account: 'unit' }));
}

function objectOf(name: string, spec: Partial<VideoLibrarySpec> = {}): VideoLibrary {
  return {
    apiVersion: 'video.cdn.operator.io/v1beta1',
    kind: 'VideoLibrary',
    metadata: { name, namespace: 'team-a', uid: `uid-${name}` },
    spec: { ...spec },
  };
}

function ctxOf(externalId?: string): ExternalContext {
  return {
    ...(externalId ? { externalId } : {}),
    createPending: false,
    createToken: '0123456789abcdef',
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
  };
}

/** What one pass sent and saw. */
interface PassResult {
  writes: string[];
  bodies: Record<string, unknown>[];
  diffFields: string[];
  details?: ConnectionDetails;
  /** Everything the pass put where users read: status and plan entries. */
  shown: string;
}

/** One pass as the runtime makes it. */
async function pass(obj: VideoLibrary): Promise<PassResult> {
  const ext = external();
  const from = sim.calls.snapshot().log.length;
  const sent = bodies.length;
  let id = obj.status?.libraryId === undefined ? undefined : String(obj.status.libraryId);
  let details: ConnectionDetails | undefined;
  const shown: unknown[] = [];
  if (id === undefined) {
    const created = await ext.create(obj, ctxOf());
    id = created.externalId;
    obj.status = { ...obj.status, ...created.status };
    details = created.connectionDetails;
  }
  const seen = await ext.observe(obj, ctxOf(id));
  obj.status = { ...obj.status, ...seen.status };
  details = seen.connectionDetails ?? details;
  shown.push(seen.diff);
  if (!seen.upToDate) {
    const updated = await ext.update(obj, seen, ctxOf(id));
    obj.status = { ...obj.status, ...updated?.status };
    details = updated?.connectionDetails ?? details;
  }
  shown.push(obj.status);
  const writes = sim.calls
    .snapshot()
    .log.slice(from)
    .filter((c) => c.method !== 'GET')
    .map((c) => c.route);
  return {
    writes,
    bodies: bodies.slice(sent),
    diffFields: seen.diff.map((d) => d.field),
    ...(details ? { details } : {}),
    shown: JSON.stringify(shown),
  };
}

const CREATE = 'POST /videolibrary';
const UPDATE = 'POST /videolibrary/{id}';
const ADD_ALLOWED = 'POST /videolibrary/{id}/addAllowedReferrer';
const REMOVE_ALLOWED = 'POST /videolibrary/{id}/removeAllowedReferrer';
const ADD_BLOCKED = 'POST /videolibrary/{id}/addBlockedReferrer';
const RESET = 'POST /videolibrary/{id}/resetApiKey';

test.serial(
  'create: the library, then in the same pass the rename and the update-only settings; its zones in status',
  async (t) => {
    const obj = objectOf('create', {
      encoding: { tier: 'Free', resolutions: ['720p', '1080p'] },
      captions: { fontSize: 30 },
      security: { allowedReferrers: ['a.example', 'b.example'] },
    });
    const first = await pass(obj);
    t.deepEqual(first.writes, [CREATE, UPDATE, ADD_ALLOWED, ADD_ALLOWED]);
    t.deepEqual(
      first.bodies,
      [{ Name: 'create', CaptionsFontSize: 30 }],
      'the rename and the one setting the create model lacks, nothing else',
    );
    const library = await client.getVideoLibrary(Number(obj.status?.libraryId));
    t.is(library.Name, 'create');
    t.is(library.EnabledResolutions, '720p,1080p', 'the create carried the resolutions');
    t.like(obj.status, {
      name: 'create',
      pullZoneId: library.PullZoneId,
      storageZoneId: library.StorageZoneId,
    });
    t.regex(String(obj.status?.pullZoneHostname), /^vz-[0-9a-f]+\.b-cdn\.net$/);
    t.truthy(obj.status?.storageZoneHostname);
    t.is(first.details?.apiKey, library.ApiKey ?? undefined);
    t.is(first.details?.readOnlyApiKey, library.ReadOnlyApiKey ?? undefined);
    t.false(first.shown.includes(String(library.ApiKey)), 'no key in status or plan');
    const again = await pass(obj);
    t.deepEqual(again.writes, [], 'a pass with nothing to do writes nothing');
  },
);

const CHANGES: Array<{
  reason: string;
  spec: Partial<VideoLibrarySpec>;
  writes: string[];
  bodies: Record<string, unknown>[];
}> = [
  {
    reason: 'one setting: exactly that member',
    spec: { captions: { fontSize: 40 } },
    writes: [UPDATE],
    bodies: [{ CaptionsFontSize: 40 }],
  },
  {
    reason: 'a referrer swapped: one add and one remove, no library update',
    spec: { security: { allowedReferrers: ['a.example', 'c.example'] } },
    writes: [ADD_ALLOWED, REMOVE_ALLOWED],
    bodies: [],
  },
  {
    reason: 'a blocked referrer and a nested DRM member together',
    spec: {
      security: { allowedReferrers: ['a.example', 'c.example'], blockedReferrers: ['x.example'] },
      drm: { widevineSdOnlyForL3: true },
    },
    writes: [UPDATE, ADD_BLOCKED],
    bodies: [{ GoogleWidevineDrm: { SdOnlyForL3: true } }],
  },
  {
    reason: 'CDN token authentication: sent to the library, read back from its pull zone',
    spec: { security: { cdnTokenAuthentication: true } },
    writes: [UPDATE],
    bodies: [{ EnableTokenAuthentication: true }],
  },
];

test.serial(
  'changes: each pass writes exactly what changed, and the next one nothing',
  async (t) => {
    const obj = objectOf('changes', { security: { allowedReferrers: ['a.example', 'b.example'] } });
    await pass(obj);
    for (const change of CHANGES) {
      obj.spec = { ...obj.spec, ...change.spec };
      const result = await pass(obj);
      t.deepEqual(result.writes, change.writes, change.reason);
      t.deepEqual(result.bodies, change.bodies, change.reason);
      t.deepEqual((await pass(obj)).writes, [], `${change.reason}: then nothing`);
    }
  },
);

test.serial(
  'drift made behind the operator is corrected with exactly the drifted member',
  async (t) => {
    const obj = objectOf('drift', { webhookUrl: 'https://hooks.example/a' });
    await pass(obj);
    await client.updateVideoLibrary(Number(obj.status?.libraryId), {
      WebhookUrl: 'https://elsewhere.example/',
    });
    const result = await pass(obj);
    t.deepEqual(result.diffFields, ['WebhookUrl']);
    t.deepEqual(result.bodies, [{ WebhookUrl: 'https://hooks.example/a' }]);
  },
);

test.serial(
  'key reset by annotation: once per value; the new key reaches the details, never status',
  async (t) => {
    const obj = objectOf('keys');
    const created = await pass(obj);
    const before = created.details?.apiKey;
    obj.metadata.annotations = { [KEY_RESET_ANNOTATIONS.apiKey]: '2026-11-29T10:00:00Z' };
    const reset = await pass(obj);
    t.deepEqual(reset.writes, [RESET]);
    t.deepEqual(reset.diffFields, ['apiKeyReset']);
    t.truthy(reset.details?.apiKey);
    t.not(reset.details?.apiKey, before, 'the Secret gets the new key');
    t.is(reset.details?.readOnlyApiKey, created.details?.readOnlyApiKey, 'the other key is kept');
    t.deepEqual(obj.status?.keyReset, { apiKey: '2026-11-29T10:00:00Z' });
    t.false(reset.shown.includes(String(reset.details?.apiKey)), 'no key in status or plan');
    t.false(reset.shown.includes(String(before)), 'nor the old one');
    t.deepEqual((await pass(obj)).writes, [], 'the same value is never sent again');
  },
);

test.serial('delete: the library goes with its zones; Orphan deletes nothing', async (t) => {
  for (const policy of ['Delete', 'Orphan'] as const) {
    const obj = objectOf(`delete-${policy.toLowerCase()}`, { deletionPolicy: policy });
    await pass(obj);
    const id = Number(obj.status?.libraryId);
    await external().delete(obj, ctxOf(String(id)));
    const gone = policy === 'Delete';
    t.is(sim.state.videoLibraries.has(id), !gone, policy);
    t.is(sim.state.pullZones.has(Number(obj.status?.pullZoneId)), !gone, `${policy}: pull zone`);
    t.is(
      sim.state.storageZones.has(Number(obj.status?.storageZoneId)),
      !gone,
      `${policy}: storage zone`,
    );
  }
});

test.serial('no request the core document rejects', (t) => {
  t.is(sim.calls.snapshot().rejectedByDocument.count, 0);
});
