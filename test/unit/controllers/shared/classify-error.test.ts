import test from 'ava';
import { CdnApiError } from '../../../../src/cdn/errors.js';
import {
  TerminalError,
  WaitingError,
  type ClassifiedError,
} from '../../../../src/runtime/errors.js';
import { classifyCdnError } from '../../../../src/controllers/shared/classify-error.js';

const cases: Array<{
  reason: string;
  err: unknown;
  want: { class: ClassifiedError['class']; reason: string; retryAfterMs?: number };
}> = [
  {
    reason: '400 is a spec problem: terminal until the spec changes',
    err: new CdnApiError({
      operation: 'updatePullZone',
      kind: 'invalid',
      status: 400,
      message: 'x',
      detail: 'out of range',
      field: 'OptimizerImageQuality',
    }),
    want: { class: 'terminal', reason: 'InvalidSpec' },
  },
  {
    reason: '401 is terminal Unauthorized with periodic recheck',
    err: new CdnApiError({
      operation: 'getPullZone',
      kind: 'unauthorized',
      status: 401,
      message: 'x',
    }),
    want: { class: 'unauthorized', reason: 'Unauthorized' },
  },
  {
    reason: '404 on an adopted id is NotFound',
    err: new CdnApiError({ operation: 'getPullZone', kind: 'notFound', status: 404, message: 'x' }),
    want: { class: 'terminal', reason: 'NotFound' },
  },
  {
    reason: '429 is retried and keeps Retry-After as a floor',
    err: new CdnApiError({
      operation: 'listApps',
      kind: 'rateLimited',
      status: 429,
      message: 'x',
      retryAfterMs: 3000,
    }),
    want: { class: 'retryable', reason: 'RateLimited', retryAfterMs: 3000 },
  },
  {
    reason: '5xx is retried with backoff',
    err: new CdnApiError({ operation: 'addPullZone', kind: 'server', status: 503, message: 'x' }),
    want: { class: 'retryable', reason: 'ApiUnavailable' },
  },
  {
    reason: 'a dropped connection is retried',
    err: new CdnApiError({ operation: 'createApp', kind: 'network', message: 'x' }),
    want: { class: 'retryable', reason: 'ApiUnavailable' },
  },
  {
    reason: 'a kind-detected spec problem passes through',
    err: new TerminalError('PlanLimitExceeded', 'too many rules'),
    want: { class: 'terminal', reason: 'PlanLimitExceeded' },
  },
  {
    reason: 'waiting on a reference passes through',
    err: new WaitingError('ReferenceNotReady', 'waiting'),
    want: { class: 'waiting', reason: 'ReferenceNotReady' },
  },
  {
    reason: 'an unknown bug is retried, not swallowed as success',
    err: new Error('boom'),
    want: { class: 'retryable', reason: 'ReconcileError' },
  },
];

for (const c of cases) {
  test(`classifyCdnError: ${c.reason}`, (t) => {
    const got = classifyCdnError(c.err);
    t.is(got.class, c.want.class);
    t.is(got.reason, c.want.reason);
    if (c.want.retryAfterMs !== undefined)
      t.is((got as { retryAfterMs?: number }).retryAfterMs, c.want.retryAfterMs);
  });
}

const applied: Array<{ reason: string; err: CdnApiError; notApplied: boolean }> = [
  {
    reason: 'a 429: the platform did nothing',
    err: new CdnApiError({
      operation: 'addPullZone',
      kind: 'rateLimited',
      status: 429,
      message: 'x',
    }),
    notApplied: true,
  },
  {
    reason: 'a 503: the platform did not take the request on',
    err: new CdnApiError({ operation: 'addPullZone', kind: 'server', status: 503, message: 'x' }),
    notApplied: true,
  },
  {
    reason: 'a 500 may have applied it',
    err: new CdnApiError({ operation: 'addPullZone', kind: 'server', status: 500, message: 'x' }),
    notApplied: false,
  },
  {
    reason: 'a 504 from a gateway may have applied it',
    err: new CdnApiError({ operation: 'createApp', kind: 'server', status: 504, message: 'x' }),
    notApplied: false,
  },
  {
    reason: 'a timeout may have applied it (the platform commits after the client gave up)',
    err: new CdnApiError({ operation: 'createApp', kind: 'timeout', message: 'x' }),
    notApplied: false,
  },
];
for (const c of applied) {
  test(`classifyCdnError notApplied (a failed create made nothing for sure): ${c.reason}`, (t) => {
    t.is((classifyCdnError(c.err) as { notApplied?: boolean }).notApplied === true, c.notApplied);
  });
}

test('validation problems name the spec path and the API message', (t) => {
  const err = new CdnApiError({
    operation: 'createApp',
    kind: 'invalid',
    status: 400,
    message: 'x',
    detail: 'One or more validation errors occurred.',
    fields: [{ field: 'containerTemplates[0].image', message: 'The image is required.' }],
  });
  const got = classifyCdnError(err, {
    specPathForField: (f) => f.replace('containerTemplates[0]', 'spec.containerTemplates[web]'),
  });
  t.regex(got.message, /spec\.containerTemplates\[web\]\.image: The image is required\./);
  t.regex(got.message, /createApp \(HTTP 400\)/);
});

test('a validation problem lists each field once, mapped, after the API headline', (t) => {
  // The client's detail repeats the field list after the problem title; the condition must not.
  const err = new CdnApiError({
    operation: 'patchApp',
    kind: 'invalid',
    status: 400,
    message: 'x',
    detail:
      'One or more validation errors occurred.: containerTemplates[0].volumeMounts[0].name: unknown volume; volumes[1].size: must be positive',
    fields: [
      { field: 'containerTemplates[0].volumeMounts[0].name', message: 'unknown volume' },
      { field: 'volumes[1].size', message: 'must be positive' },
    ],
  });
  const got = classifyCdnError(err, { specPathForField: (f) => `spec.${f}` });
  t.is(
    got.message,
    'patchApp (HTTP 400): One or more validation errors occurred.: spec.containerTemplates[0].volumeMounts[0].name: unknown volume; spec.volumes[1].size: must be positive',
  );
});

test('a single ApiErrorData field is mapped to its spec path', (t) => {
  const err = new CdnApiError({
    operation: 'updatePullZone',
    kind: 'invalid',
    status: 400,
    message: 'x',
    detail: 'Value must be between 1 and 100',
    field: 'OptimizerImageQuality',
  });
  const got = classifyCdnError(err, {
    specPathForField: () => 'spec.settings.optimizerImageQuality',
  });
  t.is(
    got.message,
    'updatePullZone (HTTP 400): spec.settings.optimizerImageQuality: Value must be between 1 and 100',
  );
});
