/**
 * Who may call the solver: the user the front proxy names must be allowed `create` on the
 * solver resource of the solver's group, as RBAC (or any authorizer of the cluster) decides. The
 * operator asks the apiserver with a SubjectAccessReview (`system:auth-delegator` grants it).
 */
import type { KubeClient } from '../runtime/kube-client.js';

/** The resource a caller must be allowed to create. */
export interface SolverResource {
  group: string;
  /** The solver's name (cert-manager's `solverName`). */
  resource: string;
}

interface SubjectAccessReviewAnswer {
  status?: { allowed?: boolean };
}

/**
 * `authorize(user, groups)` of the webhook: true when the SubjectAccessReview answers allowed.
 * A failed review rejects (the webhook answers 500): the solver never guesses.
 */
export function subjectAccessReviewer(
  kube: Pick<KubeClient, 'request'>,
  what: SolverResource,
): (user: string, groups: readonly string[]) => Promise<boolean> {
  return async (user, groups) => {
    const answer = await kube.request<SubjectAccessReviewAnswer>({
      method: 'POST',
      path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user,
          groups: [...groups],
          resourceAttributes: { group: what.group, resource: what.resource, verb: 'create' },
        },
      },
    });
    return answer.status?.allowed === true;
  };
}
