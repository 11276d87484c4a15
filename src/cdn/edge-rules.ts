/**
 * Edge rule endpoints (`/pullzone/{pullZoneId}/edgerules/...`). The rules themselves are read
 * from the pull zone record (`EdgeRules`); there is no separate list operation.
 */
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import type { EdgeRule } from './types.js';
import { checkId, checkNonEmpty } from './validate.js';

/**
 * `POST .../edgerules/addOrUpdate`. The official document answers with the rule (cdn-sim does),
 * an older reading of the platform with no body (201); the answer is not used, so a caller that
 * created a rule learns its Guid by reading the zone under either reading. A create is retried only after a 429 (a lost
 * answer may still have created the rule); an update of a known Guid is retried on any
 * transient failure, since sending it twice is harmless.
 */
export async function addOrUpdateEdgeRule(
  http: HttpTransport,
  pullZoneId: number,
  rule: EdgeRule,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'addOrUpdateEdgeRule';
  checkId(http, operation, 'pullZoneId', pullZoneId);
  const update = typeof rule.Guid === 'string' && rule.Guid !== '';
  await http.request(
    {
      operation,
      method: 'POST',
      path: pathOf`/pullzone/${pullZoneId}/edgerules/addOrUpdate`,
      body: rule,
      idempotent: update,
    },
    opts,
  );
}

export async function deleteEdgeRule(
  http: HttpTransport,
  pullZoneId: number,
  guid: string,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'deleteEdgeRule';
  checkId(http, operation, 'pullZoneId', pullZoneId);
  checkNonEmpty(http, operation, 'edgeRuleId', guid);
  await http.request(
    { operation, method: 'DELETE', path: pathOf`/pullzone/${pullZoneId}/edgerules/${guid}` },
    opts,
  );
}

/** `POST .../edgerules/{guid}/setEdgeRuleEnabled` with `{Value}`; setting a value is idempotent. */
export async function setEdgeRuleEnabled(
  http: HttpTransport,
  pullZoneId: number,
  guid: string,
  enabled: boolean,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'setEdgeRuleEnabled';
  checkId(http, operation, 'pullZoneId', pullZoneId);
  checkNonEmpty(http, operation, 'edgeRuleId', guid);
  await http.request(
    {
      operation,
      method: 'POST',
      path: pathOf`/pullzone/${pullZoneId}/edgerules/${guid}/setEdgeRuleEnabled`,
      body: { Value: enabled },
      idempotent: true,
    },
    opts,
  );
}
