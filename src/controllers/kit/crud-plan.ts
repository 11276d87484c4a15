/**
 * `cdnctl diff` of a CRUD kind: what applying a manifest would change, computed by the kind's
 * own external client (crud-external.ts) in read-only mode, like every observe.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { ManagedObject } from '../../runtime/types.js';
import { diffContext, planOf, type KindPlanner } from '../shared/manifest-plan.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import type { Connection } from './connector.js';
import { CrudExternal, type CrudResource } from './crud-external.js';

/** The planner of a kind whose resource `resource` builds (adopting `spec.adoption.id`). */
export function crudPlanner<T extends ManagedObject, R>(
  resource: (conn: Connection, obj: T) => CrudResource<T, R>,
): KindPlanner {
  return async (client: CdnClient, obj: ManagedObject) => {
    const o = obj as T;
    const external = new CrudExternal(resource({ client, account: 'cdnctl-diff' }, o));
    return planOf(await external.observe(o, diffContext(adoptionIdOf(o.spec))));
  };
}
