/**
 * The keyed child list (kit/child-list.ts, child-plan.ts, child-errors.ts, kit/restated.ts) on a
 * list that is not DNS: a shelf's books, keyed by a title compared without case (read back
 * trimmed) and an edition, each with a page count; the zone's records
 * (test/unit/controllers/dnszone/records.test.ts) have the DNS cases. The key is read back as
 * the platform reads what a create sends; the other members are updated in place; the CRD of
 * the list and of the status list and the spec paths of errors derive from the table.
 */
import test from 'ava';
import { CdnApiError } from '../../../../src/cdn/errors.js';
import {
  ChildCallError,
  classifyChildError,
} from '../../../../src/controllers/kit/child-errors.js';
import {
  childListSchema,
  childStatusSchema,
  type ChildList,
  type ChildPlanInput,
} from '../../../../src/controllers/kit/child-list.js';
import { planChildren } from '../../../../src/controllers/kit/child-plan.js';
import { integer, text } from '../../../../src/controllers/kit/codecs.js';
import { field } from '../../../../src/controllers/kit/fields.js';
import { restated } from '../../../../src/controllers/kit/restated.js';
import type { DocumentBounds } from '../../../../src/controllers/shared/crd-schema.js';

/** A book as its own kind would describe it. */
const BOOK = [
  field(
    'title',
    {
      ...text(),
      toWire: (v: string) => v.trim(),
      same: (a, b) => a.trim().toLowerCase() === b.trim().toLowerCase(),
    },
    { api: 'Title', write: 'create', required: true, description: 'Title of the book. Immutable.' },
  ),
  field('edition', integer(), { api: 'Edition', unset: 1, description: 'Edition.' }),
  field('pages', integer({ minimum: 1 }), { api: 'Pages', description: 'Number of pages.' }),
] as const;

/** The same members as entries of a shelf's list, in the list's words. */
const ENTRY = [
  { ...restated(BOOK, 'title', { type: 'string' }, 'Title.'), required: true },
  restated(BOOK, 'edition', { type: 'integer' }, 'Edition (1 when unset).'),
  restated(BOOK, 'pages', { type: 'integer' }, 'Pages.'),
] as const;

type Book = Record<'title' | 'edition', unknown>;
const BOOKS: ChildList<Book> = {
  path: 'books',
  policyPath: 'bookPolicy',
  what: 'book',
  parentWhat: 'shelf',
  fields: ENTRY,
  keyMembers: ['title', 'edition'],
  liveApi: 'Books',
  idApi: 'BookId',
  keyOf: (shelf, b) => `${shelf}/${String(b.title).toLowerCase()}/${String(b.edition)}`,
  label: (b) => `${String(b.title)} (${String(b.edition)})`,
  claims: { id: 'Book', content: 'BookContent', holder: 'a Book' },
  managedElsewhere: () => new Set(),
  conflictReason: 'BookManagedElsewhere',
};

const LIVE = [
  { BookId: 1, Title: 'Dune', Edition: 1, Pages: 412 },
  { BookId: 2, Title: 'Emma', Edition: 2, Pages: 300 },
];

function plan(entries: object[], extra: Partial<ChildPlanInput<Book>> = {}): string[] {
  const p = planChildren(BOOKS, {
    parentId: 7,
    parent: { namespace: 'ns', name: 'shelf' },
    entries,
    policy: undefined,
    live: LIVE,
    previous: [],
    ...extra,
  });
  return p.actions.map(
    (a) => `${a.op} ${a.label} ${JSON.stringify(a.op === 'delete' ? a.id : a.record)}`,
  );
}

const cases: {
  name: string;
  entries: object[];
  extra?: Partial<ChildPlanInput<Book>>;
  actions: string[];
}[] = [
  {
    name: 'an entry is the live child of its key, read back as the create sends it (trimmed, the unset edition 1)',
    entries: [{ title: ' Dune ', pages: 412 }],
    actions: [],
  },
  {
    name: 'a member other than the key that differs is updated in place, alone',
    entries: [{ title: 'Dune', pages: 500 }],
    actions: ['update Dune (1) {"Pages":500}'],
  },
  {
    name: 'another key is another child: created with every member the entry sets',
    entries: [{ title: 'Dune', edition: 2, pages: 500 }],
    actions: ['create Dune (2) {"Title":"Dune","Edition":2,"Pages":500}'],
  },
  {
    name: 'Exact deletes the unlisted children',
    entries: [{ title: 'Dune' }],
    extra: { policy: 'Exact', claimantsOf: () => [] },
    actions: ['delete Emma (2) 2'],
  },
  {
    name: 'Additive deletes only the children this object created and dropped',
    entries: [],
    extra: { previous: [{ title: 'Emma', edition: 2, id: 2, created: true }] },
    actions: ['delete Emma (2) 2'],
  },
  {
    name: 'an entry another object claims by key is neither created nor changed',
    entries: [{ title: 'Dune', pages: 1 }],
    extra: { claimedByOther: (type, id) => type === 'BookContent' && id === '7/dune/1' },
    actions: [],
  },
];

for (const c of cases) {
  test(`plan: ${c.name}`, (t) => {
    t.deepEqual(plan(c.entries, c.extra), c.actions);
  });
}

test('the CRD of the list and of the status list derive from the entry table', (t) => {
  const docs = {} as DocumentBounds;
  const words = { description: 'Books.', entry: 'One book.', maxItems: 9 };
  const list = childListSchema(BOOKS, docs, words);
  t.like(list, {
    type: 'array',
    maxItems: 9,
    'x-kubernetes-list-type': 'atomic',
    items: {
      type: 'object',
      description: 'One book.',
      required: ['title'],
      properties: { title: { type: 'string', description: 'Title.' } },
    },
  });
  const { properties } = list.items as { properties: Record<string, Record<string, unknown>> };
  t.false(
    'x-kubernetes-validations' in properties.title!,
    'the book kind’s immutability is its own',
  );
  t.deepEqual(childStatusSchema(BOOKS, 'Found.').items, {
    type: 'object',
    properties: {
      title: { type: 'string', description: 'Title.' },
      edition: { type: 'integer', description: 'Edition (1 when unset).' },
      id: { type: 'integer', format: 'int64', description: 'Platform id of the book.' },
      created: {
        type: 'boolean',
        description: 'This resource created the book (deleted when dropped from spec.books).',
      },
    },
  });
});

test('a refused child call names its entry and the entry member at fault', (t) => {
  const action = { op: 'create', record: {}, entry: 2, label: 'Dune (2)' } as const;
  const cause = new CdnApiError({
    operation: 'addBook',
    kind: 'invalid',
    status: 400,
    field: 'Pages',
    message: 'm',
    detail: 'too many',
  });
  const got = classifyChildError(BOOKS, new ChildCallError(BOOKS, action, cause), (f) => f);
  t.is(
    got.message,
    'spec.books[2] (Dune (2)): addBook (HTTP 400): spec.books[2].pages (Pages): too many',
  );
});
