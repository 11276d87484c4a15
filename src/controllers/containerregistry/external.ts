/**
 * The ContainerRegistry external client: observe / create / update / delete of one container
 * registry (`/mc/registries`), bound to one account's CdnClient.
 *
 * - Observe is read-only on the platform: one GET by id, found by the kit's identity rules
 *   (kit/identity.ts; display names are not unique, so a lost create is recovered only by its
 *   provisional name). The platform's public registries are never managed.
 * - Create sends one `POST /mc/registries` with the credentials under the provisional name and
 *   records the password's fingerprint in status; the update of the same pass renames it.
 * - Update sends one `PUT /mc/registries/{id}` with the display name and type, and the
 *   credentials only when the user name differs or the password Secret was rotated.
 * - Delete sends `DELETE /mc/registries/{id}` (refused by the platform while an application
 *   pulls from the registry: the deletion waits and retries with backoff).
 *
 * The password is read from the Secret only through `readPassword` (which registers it for
 * redaction) and leaves this client only in a request body.
 */
import type { CdnClient } from '../../cdn/client.js';
import { samePlatformName } from '../../cdn/platform-names.js';
import type { ContainerRegistry as RegistryRecord } from '../../cdn/security-types.js';
import { TerminalError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import type {
  CreateResult,
  ExternalClient,
  ExternalContext,
  Observation,
  UpdateResult,
} from '../../runtime/types.js';
import { createNameOf, isProvisionalName, locate, type IdentityRules } from '../kit/identity.js';
import { withKeyedLock } from '../shared/keyed-mutex.js';
import { deleteIgnoringNotFound } from '../shared/not-found.js';
import { diffRegistry, type RegistryDiff } from './diff.js';
import { displayNameOf, passwordFingerprint, statusOf, toRequest } from './mapping.js';
import type { ContainerRegistry, ContainerRegistryStatus } from './types.js';

/** Reason when the spec names one of the platform's public registries. */
export const PlatformManaged = 'PlatformManaged';
/** Claim type of container registries (the runtime's default: the kind). */
export const CONTAINER_REGISTRY_CLAIM = 'ContainerRegistry';

/** What an external client is bound to. */
export interface ContainerRegistryExternalOptions {
  client: CdnClient;
  /** Stable, non-secret account identifier (serializes creates per account). */
  accountId: string;
  /** The password from `spec.passwordSecretRef` (throws WaitingError while it is missing). */
  readPassword(obj: ContainerRegistry): Promise<string>;
}

/** What observe hands to update: the registry's id and the plan. */
export interface RegistrySeen {
  id: number;
  diff: RegistryDiff;
}

const registryLock = (id: number): string => `containerregistry:${id}`;

/** How registries are found: by id, else by display name (not unique on the platform). */
export function registryIdentity(
  client: CdnClient,
): IdentityRules<RegistryRecord, ContainerRegistry> {
  return {
    what: 'container registry',
    claimType: CONTAINER_REGISTRY_CLAIM,
    names: 'shared',
    specIdField: 'registryId',
    nameOf: (obj) => displayNameOf(obj),
    read: (id, signal) => client.getRegistry(Number(id), { signal }),
    // The platform's public registries are never ours, nor adoptable by name.
    search: async (_name, signal) =>
      (await client.listRegistries({ signal })).filter((r) => r.isPlatformManaged !== true),
    idOf: (r) => String(r.id),
    recordNameOf: (r) => r.displayName,
    sameName: (live, wanted) => samePlatformName('containerRegistry', live, wanted),
  };
}

function checkManageable(record: RegistryRecord): void {
  if (record.isPlatformManaged === true) {
    throw new TerminalError(
      PlatformManaged,
      `cannot manage container registry ${record.id}: it is one of the platform's public registries; name it by id in a ContainerApp instead`,
    );
  }
}

/** See the module comment. */
export class ContainerRegistryExternal implements ExternalClient<ContainerRegistry, RegistrySeen> {
  private readonly identity: IdentityRules<RegistryRecord, ContainerRegistry>;

  constructor(private readonly opts: ContainerRegistryExternalOptions) {
    this.identity = registryIdentity(opts.client);
  }

  /** The account fingerprint (claims conflict only within one account). */
  get account(): string {
    return this.opts.accountId;
  }

  async observe(obj: ContainerRegistry, ctx: ExternalContext): Promise<Observation<RegistrySeen>> {
    const found = await locate(this.identity, obj, ctx);
    if (!found) return { exists: false, upToDate: false, diff: [] };
    const { id: externalId, record } = found;
    // A deletion needs no password (its Secret may be gone already).
    if (isDeleting(obj)) return { exists: true, externalId, upToDate: true, diff: [] };
    checkManageable(record);
    const current = passwordFingerprint(obj.metadata.uid, await this.opts.readPassword(obj));
    const applied = obj.status?.passwordFingerprint;
    const diff = diffRegistry(obj, record, { applied, current });
    const status: ContainerRegistryStatus = {
      ...statusOf(record),
      // Adopted: the Secret's value is taken as the live password (see diff.ts).
      passwordFingerprint: applied ?? current,
    };
    return {
      exists: true,
      externalId,
      upToDate: diff.diffs.length === 0,
      diff: diff.diffs,
      status: { ...status },
      seen: { id: Number(record.id), diff },
    };
  }

  async create(obj: ContainerRegistry, ctx: ExternalContext): Promise<CreateResult> {
    const password = await this.opts.readPassword(obj);
    // Under the provisional name (identity.ts): the update of the same pass sets the real one.
    const body = {
      ...toRequest(obj, password),
      displayName: createNameOf(this.identity, obj, ctx)!,
    };
    const id = await this.opts.client.addRegistry(body, { signal: ctx.signal });
    ctx.log.debug({ registryId: id, displayName: body.displayName }, 'Created container registry');
    const status: ContainerRegistryStatus = {
      registryId: id,
      passwordFingerprint: passwordFingerprint(obj.metadata.uid, password),
    };
    // The answer is the id only: the runtime observes it in the same pass.
    // The rename that follows in this pass removes the proof: the id goes to status first.
    const recordFirst = isProvisionalName(body.displayName);
    return { externalId: String(id), status: { ...status }, available: false, recordFirst };
  }

  async update(
    obj: ContainerRegistry,
    observation: Observation<RegistrySeen>,
    ctx: ExternalContext,
  ): Promise<UpdateResult | void> {
    const seen = observation.seen;
    if (!seen)
      throw new Error('cannot update container registry: observation was not made by this client');
    if (seen.diff.diffs.length === 0) return;
    const password = seen.diff.sendCredentials ? await this.opts.readPassword(obj) : undefined;
    const body = toRequest(obj, password);
    await withKeyedLock(registryLock(seen.id), () =>
      this.opts.client.replaceRegistry(seen.id, body, { signal: ctx.signal }),
    );
    ctx.log.info(
      { registryId: seen.id, fields: seen.diff.diffs.map((d) => d.field) },
      'Replaced container registry',
    );
    const record = await this.opts.client.getRegistry(seen.id, { signal: ctx.signal });
    const status: ContainerRegistryStatus = { ...statusOf(record) };
    if (password !== undefined) {
      status.passwordFingerprint = passwordFingerprint(obj.metadata.uid, password);
    }
    return { status: { ...status } };
  }

  async delete(obj: ContainerRegistry, ctx: ExternalContext): Promise<void> {
    if (!ctx.externalId || obj.spec?.deletionPolicy === 'Orphan') return;
    const id = Number(ctx.externalId);
    const deleted = await withKeyedLock(registryLock(id), () =>
      deleteIgnoringNotFound(() => this.opts.client.deleteRegistry(id, { signal: ctx.signal })),
    );
    // false: already gone, which counts as deleted.
    if (deleted) ctx.log.info({ registryId: id }, 'Deleted container registry');
  }
}
