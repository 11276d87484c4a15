/**
 * The watermark image (videolibrary/watermark.ts, watermark-source.ts) through the kind's
 * external client against an in-process cdn-sim: uploaded once, nothing sent while the source's
 * digest is unchanged, uploaded again when it changes or the platform lost it, removed once
 * when the source goes; a Secret's image never shown; and the refusals (size with field, size
 * and limit; not an image; a missing ConfigMap; URL sources disabled; a metadata address).
 */
// Serial: each test reads the writes of its own passes from cdn-sim's shared call log.
import test from 'ava';
import { createHash } from 'node:crypto';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import { MAX_WATERMARK_BYTES } from '../../../../src/cdn/video-libraries.js';
import { CrudExternal } from '../../../../src/controllers/kit/crud-external.js';
import {
  videoLibraryResource,
  type LibraryState,
} from '../../../../src/controllers/videolibrary/index.js';
import type {
  VideoLibrary,
  WatermarkImageSource,
} from '../../../../src/controllers/videolibrary/types.js';
import { planWatermark } from '../../../../src/controllers/videolibrary/watermark.js';
import type { SourceReader } from '../../../../src/controllers/videolibrary/watermark-source.js';
import { TerminalError, WaitingError } from '../../../../src/runtime/errors.js';
import type { ExternalContext } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';

const API_KEY = 'unit-watermark-key';
let sim: SimulatorHandle;
let client: CdnClient;

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
});

test.after.always(async () => {
  await sim?.close();
});

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A PNG (by its signature) whose bytes after it are `tail`. */
function png(tail: string): Buffer {
  return Buffer.concat([Buffer.from(PNG_HEAD), Buffer.from(tail)]);
}

/** The ConfigMaps and Secrets of namespace `team-a` the reader serves, by kind and name. */
type Store = Record<string, Record<string, Uint8Array>>;

function readerOf(store: Store, extra: Partial<SourceReader> = {}): SourceReader {
  return {
    ctx: {
      readBytes: (kind, namespace, name) =>
        Promise.resolve(namespace === 'team-a' ? store[`${kind}/${name}`] : undefined),
    },
    ...extra,
  };
}

function ctxOf(externalId: string): ExternalContext {
  return {
    externalId,
    createPending: false,
    createToken: '0123456789abcdef',
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
  };
}

/** An object managing a fresh library (recorded in status) with `image` as its source. */
async function libraryWith(name: string, image?: WatermarkImageSource): Promise<VideoLibrary> {
  const library = await client.addVideoLibrary({ Name: name });
  return {
    apiVersion: 'video.cdn.operator.io/v1beta1',
    kind: 'VideoLibrary',
    metadata: { name, namespace: 'team-a', uid: `uid-${name}` },
    spec: image ? { name, watermark: { image } } : { name },
    status: { libraryId: library.Id! },
  };
}

/** One pass (observe, then update what differs): the writes cdn-sim got and what was shown. */
async function pass(
  obj: VideoLibrary,
  reader: SourceReader,
): Promise<{ writes: string[]; fields: string[]; shown: string }> {
  const ext = new CrudExternal<VideoLibrary, LibraryState>(
    videoLibraryResource({ client, account: 'unit' }, obj, reader),
  );
  const from = sim.calls.snapshot().log.length;
  const id = String(obj.status?.libraryId);
  const seen = await ext.observe(obj, ctxOf(id));
  obj.status = { ...obj.status, ...seen.status };
  if (!seen.upToDate) {
    const updated = await ext.update(obj, seen, ctxOf(id));
    obj.status = { ...obj.status, ...updated?.status };
  }
  const writes = sim.calls
    .snapshot()
    .log.slice(from)
    .filter((c) => c.method !== 'GET')
    .map((c) => c.route);
  return {
    writes,
    fields: seen.diff.map((d) => d.field),
    shown: JSON.stringify([seen, obj.status]),
  };
}

/** What cdn-sim keeps of the library's watermark upload. */
function uploaded(obj: VideoLibrary): { data: string; contentType: string } | undefined {
  const library = sim.state.videoLibraries.get(Number(obj.status?.libraryId));
  return (library?.uploads as Record<string, { data: string; contentType: string }> | undefined)
    ?.watermark;
}

const PUT = 'PUT /videolibrary/{id}/watermark';
const DELETE = 'DELETE /videolibrary/{id}/watermark';
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

test.serial(
  'ConfigMap source: uploaded once, nothing while unchanged, again when it changes, removed once',
  async (t) => {
    const store: Store = { 'ConfigMap/logo': { 'logo.png': png('one') } };
    const reader = readerOf(store);
    const obj = await libraryWith('cm', { configMapKeyRef: { name: 'logo', key: 'logo.png' } });

    const first = await pass(obj, reader);
    t.deepEqual(first.writes, [PUT], 'one upload, nothing else');
    t.deepEqual(first.fields, ['watermark.image']);
    t.deepEqual(Buffer.from(uploaded(obj)!.data, 'base64'), png('one'), 'the bytes as stored');
    t.is(uploaded(obj)?.contentType, 'image/png', 'the media type from the first bytes');
    t.like(obj.status?.watermark, {
      source: 'ConfigMap',
      imageSha256: sha256(png('one')),
      bytes: png('one').length,
      version: 1,
    });

    t.deepEqual((await pass(obj, reader)).writes, [], 'digest unchanged: no write');

    store['ConfigMap/logo'] = { 'logo.png': png('two') };
    t.deepEqual((await pass(obj, reader)).writes, [PUT], 'the ConfigMap changed: uploaded again');
    t.is(obj.status?.watermark?.imageSha256, sha256(png('two')));
    t.deepEqual((await pass(obj, reader)).writes, []);

    obj.spec = { name: 'cm' };
    t.deepEqual((await pass(obj, reader)).writes, [DELETE], 'the source is gone: removed');
    t.is(obj.status?.watermark, undefined, 'and forgotten');
    t.deepEqual((await pass(obj, reader)).writes, [], 'removed once');
  },
);

test.serial('an image removed or replaced behind the operator is uploaded again', async (t) => {
  const reader = readerOf({ 'ConfigMap/logo': { 'logo.png': png('drift') } });
  const obj = await libraryWith('drift', { configMapKeyRef: { name: 'logo', key: 'logo.png' } });
  t.deepEqual((await pass(obj, reader)).writes, [PUT]);
  const id = Number(obj.status?.libraryId);

  await client.setVideoLibraryWatermark(id, null);
  t.deepEqual((await pass(obj, reader)).writes, [PUT], 'removed on the platform: put back');

  await client.setVideoLibraryWatermark(id, { data: png('other'), contentType: 'image/png' });
  t.deepEqual((await pass(obj, reader)).writes, [PUT], 'another version: ours put back');
  t.deepEqual(Buffer.from(uploaded(obj)!.data, 'base64'), png('drift'));
  t.deepEqual((await pass(obj, reader)).writes, []);
});

test.serial(
  'no source and nothing recorded: an image the operator never uploaded is left alone',
  async (t) => {
    const obj = await libraryWith('foreign');
    await client.setVideoLibraryWatermark(Number(obj.status?.libraryId), {
      data: png('theirs'),
      contentType: 'image/png',
    });
    t.deepEqual((await pass(obj, readerOf({}))).writes, []);
    t.truthy(uploaded(obj), 'still there');
  },
);

test.serial(
  'Secret source: uploaded, its content never shown; a salted fingerprint in status',
  async (t) => {
    const secret = png('TOP-SECRET-IMAGE');
    const store: Store = { 'Secret/brand': { image: secret } };
    const obj = await libraryWith('secret', { secretKeyRef: { name: 'brand', key: 'image' } });
    const first = await pass(obj, readerOf(store));
    t.deepEqual(first.writes, [PUT]);
    const watermark = obj.status?.watermark;
    t.is(watermark?.source, 'Secret');
    t.regex(watermark?.imageFingerprint ?? '', /^sha256:[0-9a-f]{64}$/);
    t.is(watermark?.imageSha256, undefined, 'no plain digest of a Secret');
    t.is(watermark?.bytes, undefined, 'nor its size');
    t.false(first.shown.includes(sha256(secret)), 'the plain digest is nowhere');
    t.false(first.shown.includes('TOP-SECRET'), 'nor the content');
    t.false(first.shown.includes(secret.toString('base64')), 'nor its base64');
    t.regex(first.shown, /<redacted>/, 'the plan entry is redacted');
    t.deepEqual((await pass(obj, readerOf(store))).writes, []);
  },
);

const REFUSALS: [string, WatermarkImageSource, Store, Partial<SourceReader>, RegExp, string][] = [
  [
    'too large',
    { configMapKeyRef: { name: 'big', key: 'img' } },
    { 'ConfigMap/big': { img: Buffer.concat([png(''), Buffer.alloc(MAX_WATERMARK_BYTES)]) } },
    {},
    new RegExp(
      `ConfigMap team-a/big key "img" \\(spec\\.watermark\\.image\\.configMapKeyRef\\) is ${MAX_WATERMARK_BYTES + 8} bytes, more than the limit of ${MAX_WATERMARK_BYTES} bytes`,
    ),
    'the platform answers 413 for a file too large: refused before, naming field, size and limit',
  ],
  [
    'not an image',
    { configMapKeyRef: { name: 'text', key: 'img' } },
    { 'ConfigMap/text': { img: Buffer.from('<html>not found</html>') } },
    {},
    /is not a PNG, JPEG, GIF or WebP image/,
    'an error page or a text is never uploaded as the watermark',
  ],
  [
    'URL sources disabled',
    { url: 'https://images.example.com/logo.png' },
    {},
    { disableUrlSources: true },
    /URL sources are disabled in this operator \(--disable-url-sources\)/,
    'the operator flag refuses every URL, before any request',
  ],
  [
    'metadata address',
    { url: 'https://169.254.169.254/latest/meta-data/' },
    {},
    {},
    /spec\.watermark\.image\.url: .*169\.254\.169\.254 is not a public address/,
    'a tenant cannot make the operator read the cloud metadata',
  ],
];

for (const [name, image, store, extra, message, reason] of REFUSALS) {
  test.serial(`refused: ${name} (${reason})`, async (t) => {
    const obj = await libraryWith(`refused-${name.replace(/ /g, '-')}`, image);
    const err = await t.throwsAsync(pass(obj, readerOf(store, extra)), {
      instanceOf: TerminalError,
      message,
    });
    t.is(err?.reason, 'InvalidSpec');
    t.is(uploaded(obj), undefined, 'nothing uploaded');
  });
}

test.serial(
  'a ConfigMap the namespace lacks: waiting, naming the field and the object',
  async (t) => {
    const obj = await libraryWith('missing', { configMapKeyRef: { name: 'nope', key: 'img' } });
    await t.throwsAsync(pass(obj, readerOf({})), {
      instanceOf: WaitingError,
      message:
        'waiting for ConfigMap team-a/nope (spec.watermark.image.configMapKeyRef): not found',
    });
  },
);

test.serial(
  'a URL already uploaded is not fetched again while the library keeps its image',
  async (t) => {
    const url = 'https://images.example.com/logo.png';
    const obj: VideoLibrary = {
      apiVersion: 'video.cdn.operator.io/v1beta1',
      kind: 'VideoLibrary',
      metadata: { name: 'u', namespace: 'team-a', uid: 'uid-u' },
      spec: { watermark: { image: { url } } },
      status: { watermark: { source: 'URL', url, imageSha256: 'ab', version: 3 } },
    };
    const never = (): Promise<undefined> => Promise.reject(new Error('fetched'));
    t.deepEqual(await planWatermark(obj, { HasWatermark: true, WatermarkVersion: 3 }, never), {
      action: 'none',
    });
    const other = { ...obj, spec: { watermark: { image: { url: `${url}?v=2` } } } };
    await t.throwsAsync(planWatermark(other, { HasWatermark: true, WatermarkVersion: 3 }, never), {
      message: 'fetched',
    });
  },
);
