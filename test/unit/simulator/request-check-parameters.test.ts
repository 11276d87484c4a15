/**
 * The strict check of path and query parameters (documents/request-check.ts) on the two forms
 * the compute document has and the other simulated documents do not: an array query parameter
 * (`type`, `style: form, explode: true`: one occurrence per item) and a path parameter the path
 * template does not name (`uuid` of `POST /compute/script/{id}/publish`, which no request can
 * carry).
 */
import test from 'ava';
import { API_MODEL } from '../../../src/simulator/documents/load.js';
import { checkRequest } from '../../../src/simulator/documents/request-check.js';
import { DocumentSchemas } from '../../../src/simulator/documents/schemas.js';

const schemas = new DocumentSchemas(API_MODEL, []);

interface Case {
  why: string;
  method: string;
  template: string;
  params: Record<string, string>;
  query: string;
  body?: unknown;
  /** Fields the check must name; [] when it must accept. */
  problems: string[];
}

const CASES: Case[] = [
  {
    why: 'one type is an array of one',
    method: 'GET',
    template: '/compute/script',
    params: {},
    query: 'type=1',
    problems: [],
  },
  {
    why: 'a repeated type is an array of each',
    method: 'GET',
    template: '/compute/script',
    params: {},
    query: 'type=1&type=2&includeLinkedPullzones=true',
    problems: [],
  },
  {
    why: 'each item is checked against the items schema (EdgeScriptTypes2: 0, 1, 2)',
    method: 'GET',
    template: '/compute/script',
    params: {},
    query: 'type=1&type=7',
    problems: ['type'],
  },
  {
    why: 'an item that is not a number is refused',
    method: 'GET',
    template: '/compute/script',
    params: {},
    query: 'type=standalone',
    problems: ['type'],
  },
  {
    why: 'publish of the current code: uuid is not in the template, so it is not asked for',
    method: 'POST',
    template: '/compute/script/{id}/publish',
    params: { id: '7' },
    query: '',
    body: {},
    problems: [],
  },
  {
    why: 'publish of a release: uuid is in the template and is there',
    method: 'POST',
    template: '/compute/script/{id}/publish/{uuid}',
    params: { id: '7', uuid: 'b5f2' },
    query: '',
    body: {},
    problems: [],
  },
  {
    why: 'a path parameter the template names is still required',
    method: 'POST',
    template: '/compute/script/{id}/publish/{uuid}',
    params: { id: '7' },
    query: '',
    body: {},
    problems: ['uuid'],
  },
  {
    why: 'scalar query parameters are read as before (perPage below its minimum)',
    method: 'GET',
    template: '/compute/script',
    params: {},
    query: 'perPage=2',
    problems: ['perPage'],
  },
];

for (const c of CASES) {
  test(`parameters: ${c.why}`, (t) => {
    const check = checkRequest(schemas, 'compute', c.method, c.template, {
      params: c.params,
      query: new URLSearchParams(c.query),
      body: c.body,
    });
    t.is(check.kind, 'checked');
    const fields = check.kind === 'checked' ? check.problems.map((p) => p.pointer) : [];
    t.deepEqual([...new Set(fields)], c.problems);
  });
}
