import test from 'ava';
import { parseErrorBody } from '../../../src/cdn/parse-error.js';

// Every error body shape of the contract's Errors table, plus the validation errors[] list and
// bodies that are not JSON. Each case says why it matters.
const cases: Array<{
  name: string;
  status: number;
  body: string;
  want: {
    message: string;
    errorKey?: string;
    field?: string;
    fields?: number;
    statusCode?: number;
  };
}> = [
  {
    name: 'ApiErrorData (core operations) gives key, field and message',
    status: 400,
    body: JSON.stringify({
      ErrorKey: 'pullzone.validation',
      Field: 'OriginUrl',
      Message: 'The origin URL is invalid',
    }),
    want: {
      message: 'The origin URL is invalid',
      errorKey: 'pullzone.validation',
      field: 'OriginUrl',
    },
  },
  {
    name: 'ApiErrorData with only ErrorKey still has a message',
    status: 400,
    body: JSON.stringify({ ErrorKey: 'hostname.exists', Field: null, Message: null }),
    want: { message: 'hostname.exists', errorKey: 'hostname.exists' },
  },
  {
    name: 'validation problem lists every field error and names the first field',
    status: 400,
    body: JSON.stringify({
      title: 'Validation failed',
      status: 400,
      detail: 'One or more fields are invalid',
      instance: '/apps',
      errors: [
        { field: 'name', message: 'must not be empty' },
        { field: 'volumes[0].size', message: 'must be at most 100' },
      ],
      id: 'abc',
    }),
    want: {
      message:
        'One or more fields are invalid: name: must not be empty; volumes[0].size: must be at most 100',
      field: 'name',
      fields: 2,
      statusCode: 400,
    },
  },
  {
    name: 'basic problem uses detail',
    status: 404,
    body: JSON.stringify({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'Application x not found',
    }),
    want: { message: 'Application x not found', statusCode: 404 },
  },
  {
    name: 'basic problem without detail uses title',
    status: 401,
    body: JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status: 401 }),
    want: { message: 'Unauthorized', statusCode: 401 },
  },
  {
    name: 'status-only body (shield list/metrics) falls back to the HTTP status text',
    status: 401,
    body: JSON.stringify({ statusCode: 401 }),
    want: { message: 'HTTP 401 Unauthorized', statusCode: 401 },
  },
  {
    name: 'shield single-zone result carries its status code',
    status: 404,
    body: JSON.stringify({
      location: null,
      value: null,
      formatters: [],
      contentTypes: [],
      declaredType: null,
      statusCode: 404,
    }),
    want: { message: 'HTTP 404 Not Found', statusCode: 404 },
  },
  {
    name: 'metrics error member inside an envelope gives message and key',
    status: 400,
    body: JSON.stringify({
      data: null,
      error: {
        statusCode: 400,
        success: false,
        message: 'Rule not found',
        errorKey: 'waf.rule_not_found',
      },
    }),
    want: { message: 'Rule not found', errorKey: 'waf.rule_not_found', statusCode: 400 },
  },
  {
    name: 'plain text body is kept, shortened to one line',
    status: 502,
    body: 'upstream\nconnect error',
    want: { message: 'HTTP 502 Bad Gateway: upstream connect error' },
  },
  {
    name: 'HTML error page is reduced to its text',
    status: 503,
    body: '<html><head><style>p{}</style></head><body><h1>Service Unavailable</h1></body></html>',
    want: { message: 'HTTP 503 Service Unavailable: Service Unavailable' },
  },
  {
    name: 'empty body gives the status line',
    status: 500,
    body: '',
    want: { message: 'HTTP 500 Internal Server Error' },
  },
  {
    name: 'JSON of an unknown shape is shown verbatim',
    status: 418,
    body: '{"weird":true}',
    want: { message: 'HTTP 418 I am a teapot: {"weird":true}' },
  },
];

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  418: 'I am a teapot',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

for (const c of cases) {
  test(`parseErrorBody: ${c.name}`, (t) => {
    const got = parseErrorBody(c.body, c.status, STATUS_TEXT[c.status] ?? '');
    t.is(got.message, c.want.message);
    t.is(got.errorKey, c.want.errorKey);
    t.is(got.field, c.want.field);
    t.is(got.fields?.length, c.want.fields);
    t.is(got.statusCode, c.want.statusCode);
  });
}

test('parseErrorBody: a very long text body is cut', (t) => {
  const got = parseErrorBody('x'.repeat(5000), 500, 'Internal Server Error');
  t.true(got.message.length < 400, 'message stays short');
  t.true(got.message.endsWith('…'));
});
