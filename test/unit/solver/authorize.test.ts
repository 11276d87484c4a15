/**
 * The solver's `authorize`: one SubjectAccessReview through the operator's Kubernetes client,
 * asking whether the user the front proxy names (with its groups) may `create` the solver
 * resource of the solver's group; only `status.allowed: true` lets the call through, and a
 * failed review rejects rather than guessing.
 */
import test from 'ava';
import { subjectAccessReviewer } from '../../../src/solver/authorize.js';
import type { KubeRequest } from '../../../src/runtime/kube-client.js';

/** A client whose every request is answered by `answer` and recorded. */
function fakeKube(answer: (req: KubeRequest) => unknown): {
  sent: KubeRequest[];
  request<T>(req: KubeRequest): Promise<T>;
} {
  const sent: KubeRequest[] = [];
  return {
    sent,
    request: async <T>(req: KubeRequest): Promise<T> => {
      sent.push(req);
      await Promise.resolve();
      return answer(req) as T;
    },
  };
}

const WHAT = { group: 'acme.cdn.operator.io', resource: 'cdn-operator' };

test('the review asks for create on the solver resource, for the user and groups of the call', async (t) => {
  const kube = fakeKube(() => ({ status: { allowed: true } }));
  const allowed = await subjectAccessReviewer(kube, WHAT)(
    'system:serviceaccount:cert-manager:cert-manager',
    ['system:serviceaccounts', 'system:authenticated'],
  );
  t.true(allowed);
  t.is(kube.sent.length, 1);
  t.like(kube.sent[0], {
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
  });
  t.deepEqual(kube.sent[0]?.body, {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: {
      user: 'system:serviceaccount:cert-manager:cert-manager',
      groups: ['system:serviceaccounts', 'system:authenticated'],
      resourceAttributes: {
        group: 'acme.cdn.operator.io',
        resource: 'cdn-operator',
        verb: 'create',
      },
    },
  });
});

const ANSWERS: Array<{ why: string; answer: unknown; allowed: boolean }> = [
  { why: 'allowed', answer: { status: { allowed: true } }, allowed: true },
  { why: 'denied', answer: { status: { allowed: false, denied: true } }, allowed: false },
  { why: 'no opinion (no rule allows it)', answer: { status: { allowed: false } }, allowed: false },
  { why: 'no status at all', answer: {}, allowed: false },
  { why: 'allowed as a string, not true', answer: { status: { allowed: 'true' } }, allowed: false },
];

for (const a of ANSWERS)
  test(`only status.allowed true lets the caller through: ${a.why}`, async (t) => {
    const check = subjectAccessReviewer(
      fakeKube(() => a.answer),
      WHAT,
    );
    t.is(await check('someone', []), a.allowed);
  });

test('a failed review rejects (the webhook answers 500), never allows', async (t) => {
  const check = subjectAccessReviewer(
    fakeKube(() => {
      throw new Error('cannot create subjectaccessreviews: forbidden');
    }),
    WHAT,
  );
  await t.throwsAsync(check('someone', []), { message: /forbidden/ });
});
