/** The shared 404 helpers: a delete of something already gone succeeds; other errors stay. */
import test from 'ava';
import { CdnApiError } from '../../../../src/cdn/errors.js';
import {
  deleteIgnoringNotFound,
  isDeleting,
  isNotFound,
} from '../../../../src/controllers/shared/not-found.js';

const fail = (kind: 'notFound' | 'server'): CdnApiError =>
  new CdnApiError({ operation: 'deleteDnsZone', kind, message: `cannot deleteDnsZone: ${kind}` });

test('deleteIgnoringNotFound: done, already gone, or the error', async (t) => {
  t.true(await deleteIgnoringNotFound(() => Promise.resolve()));
  t.false(await deleteIgnoringNotFound(() => Promise.reject(fail('notFound'))));
  await t.throwsAsync(() => deleteIgnoringNotFound(() => Promise.reject(fail('server'))), {
    message: /server/,
  });
  t.true(isNotFound(fail('notFound')));
  t.false(isNotFound(new Error('not found')), 'only the client’s 404');
});

test('isDeleting reads metadata.deletionTimestamp', (t) => {
  const meta = { name: 'a', namespace: 'n' };
  t.false(isDeleting({ apiVersion: 'v', kind: 'K', metadata: meta }));
  t.true(
    isDeleting({ apiVersion: 'v', kind: 'K', metadata: { ...meta, deletionTimestamp: 'now' } }),
  );
});
