/**
 * The video library client methods (src/cdn/video-libraries.ts) against cdn-sim in strict mode:
 * the library operations and not one request the document rejects or the platform would only
 * take through its lenient binding. The library's API keys never reach an error, even when the
 * platform echoes a body that carries one.
 */
import test, { type ExecutionContext } from 'ava';
import { CdnApiError } from '../../../src/cdn/errors.js';
import { MAX_WATERMARK_BYTES } from '../../../src/cdn/video-libraries.js';
import { startSimClient, type SimClient } from './sim-harness.js';

/** A PNG signature and bytes that are no UTF-8: a text encoding on the way would change them. */
const IMAGE = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0xc3,
]);

function exact(t: ExecutionContext, h: SimClient): void {
  const rejected = h.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
}

test('libraries: add, list with search, get, update, referrers, key resets, watermark, delete', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const library = await c.addVideoLibrary({ Name: 'clips', ReplicationRegions: ['LA'] });
  const id = library.Id!;
  t.like(library, { Name: 'clips', ReplicationRegions: ['LA'] });
  t.true((await c.listVideoLibraries({ search: 'clip' })).some((l) => l.Id === id));
  const updated = await c.updateVideoLibrary(id, { CaptionsFontSize: 33, EnableDRM: true });
  t.like(updated, { CaptionsFontSize: 33, EnableDRM: true });
  await c.changeVideoLibraryReferrer(id, { list: 'allowed', action: 'add', hostname: 'a.example' });
  await c.changeVideoLibraryReferrer(id, { list: 'blocked', action: 'add', hostname: 'b.example' });
  await c.changeVideoLibraryReferrer(id, {
    list: 'allowed',
    action: 'remove',
    hostname: 'a.example',
  });
  t.like(await c.getVideoLibrary(id), { AllowedReferrers: [], BlockedReferrers: ['b.example'] });
  await c.resetVideoLibraryKey(id, 'apiKey');
  await c.resetVideoLibraryKey(id, 'readOnlyApiKey');
  const reset = await c.getVideoLibrary(id);
  t.not(reset.ApiKey, library.ApiKey);
  t.not(reset.ReadOnlyApiKey, library.ReadOnlyApiKey);
  await c.setVideoLibraryWatermark(id, { data: IMAGE, contentType: 'image/png' });
  t.true((await c.getVideoLibrary(id)).HasWatermark);
  const kept = h.sim.state.videoLibraries.get(id)?.uploads as { watermark: { data: string } };
  t.deepEqual(Buffer.from(kept.watermark.data, 'base64'), Buffer.from(IMAGE), 'bytes, not text');
  await c.setVideoLibraryWatermark(id, null);
  t.true((await c.listVideoLibraryLanguages()).length > 0);
  await c.deleteVideoLibrary(id);
  const gone = await t.throwsAsync(c.getVideoLibrary(id), { instanceOf: CdnApiError });
  t.is(gone.kind, 'notFound');
  exact(t, h);
});

test('a library key echoed back by the platform never reaches an error', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const library = await c.addVideoLibrary({ Name: 'echo' });
  const key = library.ApiKey!;
  await h.admin('PUT', '/_sim/faults', { echoBodyRoutes: ['POST /videolibrary/{id}'] });
  // A name that is the key read earlier: the echo of it is scrubbed.
  const err = await t.throwsAsync(c.updateVideoLibrary(library.Id!, { Name: key }), {
    instanceOf: CdnApiError,
  });
  t.regex(err.message, /\[REDACTED\]/, 'the echo came back and was scrubbed');
  t.false(JSON.stringify([err.message, err.detail, err.toJSON()]).includes(key));
});

test('a watermark over the limit is refused before it is sent, naming size and limit', async (t) => {
  const h = await startSimClient(t);
  const library = await h.client.addVideoLibrary({ Name: 'big' });
  const before = h.sim.calls.snapshot().log.length;
  const data = new Uint8Array(MAX_WATERMARK_BYTES + 1);
  const err = await t.throwsAsync(
    h.client.setVideoLibraryWatermark(library.Id!, { data, contentType: 'image/png' }),
    { instanceOf: CdnApiError },
  );
  t.is(err.kind, 'invalid');
  t.regex(
    err.message,
    new RegExp(`${MAX_WATERMARK_BYTES + 1} bytes.*limit of ${MAX_WATERMARK_BYTES}`),
  );
  t.is(h.sim.calls.snapshot().log.length, before, 'nothing sent');
});
