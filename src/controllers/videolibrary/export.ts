/**
 * `cdnctl export` of video libraries: every library of the account in ascending id order, each
 * read the way the operator reads it (`readLibrary`: the library and its pull zone's token
 * switches), written as a VideoLibrary that adopts it by id with every field of the table the
 * record holds. The API keys are never exported: the object names an outputs Secret the
 * operator fills. The watermark image is left out (the platform has no read of it): a library
 * that has one gets a note saying so. Reads only.
 */
import { typeMetaOf } from '../kind-names.js';
import { specOfRecord } from '../kit/fields.js';
import { NameAllocator } from '../shared/export-names.js';
import { metadataOf, type ExportContext } from '../shared/manifest-export.js';
import { adoptionById } from '../shared/ownership-schema.js';
import { VIDEO_LIBRARY_FIELDS } from './fields.js';
import { readLibrary } from './index.js';
import { VIDEO_LIBRARY_NAMES } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** See the module comment. */
export async function exportVideoLibraries(c: ExportContext): Promise<void> {
  const listed = await c.client.listVideoLibraries();
  const names = new NameAllocator();
  const signal = new AbortController().signal;
  for (const summary of listed.sort((a, b) => Number(a.Id) - Number(b.Id))) {
    const id = Number(summary.Id);
    const record = await readLibrary(c.client, id, signal);
    const name = names.allocate(String(record.Name ?? ''), id, 'videolibrary');
    const secretName = c.secretNames.allocate(`${name}-video-keys`, String(id), 'video');
    const spec = {
      ...adoptionById(id),
      ...specOfRecord(VIDEO_LIBRARY_FIELDS, record),
      ...c.opts.account,
      deletionPolicy: c.opts.deletionPolicy,
      outputSecretRef: { name: secretName },
    };
    c.result.objects.push({
      kind: VIDEO_LIBRARY_NAMES.kind,
      name,
      manifest: {
        ...typeMetaOf(VIDEO_LIBRARY_NAMES),
        metadata: metadataOf(name, c.opts.namespace),
        spec,
      },
    });
    if (record.HasWatermark === true)
      c.result.notes.push(
        `VideoLibrary ${name}: the library has a watermark image, left out (the platform has no read of it); to manage it, add spec.watermark.image with its source (docs/videolibrary.md, Watermark image)`,
      );
    c.result.secrets.push({
      name: secretName,
      type: 'Opaque',
      keys: ['apiKey', 'readOnlyApiKey'],
      purpose: `VideoLibrary ${name}: the library's API keys`,
      filledBy: 'operator',
    });
  }
}

/** The kind's `cdnctl export` exporter, under its part's name (kit/kind-parts.ts). */
export const exporter: KindPart<'exporter'> = exportVideoLibraries;
