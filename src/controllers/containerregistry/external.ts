/**
 * The ContainerRegistry external client: observe / create / update / delete of one container
 * registry (`/mc/registries`), bound to one account's CdnClient.
 *
 * - Observe is read-only on the platform: one GET by id. Without an id nothing is read (the
 *   registry is created), except for explicit adoption by name (`spec.adoption.policy: ByName`,
 *   exact display name, one match only) and the crash recovery of our own create, which skip
 *   registries another object manages. The platform's public registries are never managed.
 * - Create sends one `POST /mc/registries` with the credentials, serialized per account, and
 *   records the password's fingerprint in status.
 * - Update sends one `PUT /mc/registries/{id}` with the display name and type, and the
 *   credentials only when the user name differs or the password Secret was rotated.
 * - Delete sends `DELETE /mc/registries/{id}` (refused by the platform while an application
 *   pulls from the registry: the deletion waits and retries with backoff).
 *
 * The password is read from the Secret only through `readPassword` (which registers it for
 * redaction) and leaves this client only in a request body.
 */
import type { CdnClient } from '../../cdn/client.js';
import { isCdnApiError } from '../../cdn/errors.js';
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
import { withKeyedLock } from '../shared/keyed-mutex.js';
import { ADOPT_BY_NAME, adoptionPolicyOf } from '../shared/ownership-schema.js';
import { diffRegistry, type RegistryDiff } from './diff.js';
import { displayNameOf, passwordFingerprint, statusOf, toRequest } from './mapping.js';
import type { ContainerRegistry, ContainerRegistryStatus } from './types.js';

/** Reason of the terminal error for an adopted id (or name) that does not exist. */
export const NotFound = 'NotFound';
/** Reason when adoption by name finds several registries with the name. */
export const AmbiguousName = 'AmbiguousName';
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

interface Seen {
  id: number;
  diff: RegistryDiff;
}

/** Undefined when `call` fails with the platform's "not found"; any other error is thrown. */
async function unlessGone<R>(call: () => Promise<R>): Promise<R | undefined> {
  try {
    return await call();
  } catch (err) {
    if (isCdnApiError(err) && err.kind === 'notFound') return undefined;
    throw err;
  }
}

const registryLock = (id: number): string => `containerregistry:${id}`;

function checkManageable(record: RegistryRecord): void {
  if (record.isPlatformManaged === true) {
    throw new TerminalError(
      PlatformManaged,
      `cannot manage container registry ${record.id}: it is one of the platform's public registries; name it by id in a ContainerApp instead`,
    );
  }
}

/** See the module comment. */
export class ContainerRegistryExternal implements ExternalClient<ContainerRegistry> {
  private readonly observed = new WeakMap<Observation, Seen>();

  constructor(private readonly opts: ContainerRegistryExternalOptions) {}

  /** The account fingerprint (claims conflict only within one account). */
  get account(): string {
    return this.opts.accountId;
  }

  async observe(obj: ContainerRegistry, ctx: ExternalContext): Promise<Observation> {
    const record = await this.find(obj, ctx);
    if (!record) return { exists: false, upToDate: false, diff: [] };
    const externalId = String(record.id);
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
    const obs: Observation = {
      exists: true,
      externalId,
      upToDate: diff.diffs.length === 0,
      diff: diff.diffs,
      status: { ...status },
    };
    this.observed.set(obs, { id: Number(record.id), diff });
    return obs;
  }

  /**
   * Reads the registry by id. Without an id, only an explicit adoption by name or the recovery
   * of our own unrecorded create looks the name up; otherwise there is nothing to read.
   */
  private async find(
    obj: ContainerRegistry,
    ctx: ExternalContext,
  ): Promise<RegistryRecord | undefined> {
    if (ctx.externalId) return this.findById(obj, ctx.externalId, ctx.signal);
    const name = displayNameOf(obj);
    if (ctx.createPending) {
      const found = await this.searchByName(name, ctx);
      return found.length === 1 ? found[0] : undefined;
    }
    if (isDeleting(obj) || adoptionPolicyOf(obj.spec) !== ADOPT_BY_NAME) return undefined;
    // Claimed ones are kept: the runtime refuses the object when another one manages it.
    const found = await this.searchByName(name);
    if (found.length === 1) return found[0];
    throw new TerminalError(
      found.length === 0 ? NotFound : AmbiguousName,
      found.length === 0
        ? `cannot adopt container registry ${JSON.stringify(name)} (spec.adoption.policy ByName): no registry in this account has this display name`
        : `cannot adopt container registry ${JSON.stringify(name)} (spec.adoption.policy ByName): ${found.length} registries have this display name (ids ${found.map((r) => r.id).join(', ')}); adopt one with spec.registryId`,
    );
  }

  private async findById(
    obj: ContainerRegistry,
    externalId: string,
    signal: AbortSignal,
  ): Promise<RegistryRecord | undefined> {
    const record = await unlessGone(() =>
      this.opts.client.getRegistry(Number(externalId), { signal }),
    );
    if (record) return record;
    // An adopted id never leads to a create; while deleting, gone is gone.
    if (obj.spec?.registryId !== undefined && !isDeleting(obj)) {
      throw new TerminalError(
        NotFound,
        `cannot observe container registry ${externalId} (spec.registryId): it does not exist`,
      );
    }
    return undefined;
  }

  /**
   * The account's own registries with this exact display name; with `ctx` (crash recovery),
   * those another object manages are left out.
   */
  private async searchByName(name: string, ctx?: ExternalContext): Promise<RegistryRecord[]> {
    const all = await this.opts.client.listRegistries(ctx ? { signal: ctx.signal } : undefined);
    return all.filter(
      (r) =>
        r.isPlatformManaged !== true &&
        samePlatformName('containerRegistry', r.displayName, name) &&
        !ctx?.claimedByOther?.(CONTAINER_REGISTRY_CLAIM, String(r.id)),
    );
  }

  async create(obj: ContainerRegistry, ctx: ExternalContext): Promise<CreateResult> {
    if (obj.spec?.registryId !== undefined) {
      throw new TerminalError(
        NotFound,
        `cannot create container registry: spec.registryId ${obj.spec.registryId} is set, so the registry is only adopted`,
      );
    }
    const password = await this.opts.readPassword(obj);
    const body = toRequest(obj, password);
    // One create per display name at a time (crash recovery finds a create by name).
    const id = await withKeyedLock(
      `create-containerregistry:${this.opts.accountId}:${body.displayName}`,
      () => this.opts.client.addRegistry(body, { signal: ctx.signal }),
    );
    ctx.log.debug({ registryId: id, displayName: body.displayName }, 'Created container registry');
    const status: ContainerRegistryStatus = {
      registryId: id,
      passwordFingerprint: passwordFingerprint(obj.metadata.uid, password),
    };
    // The answer is the id only: the runtime observes it in the same pass.
    return { externalId: String(id), status: { ...status }, available: false };
  }

  async update(
    obj: ContainerRegistry,
    observation: Observation,
    ctx: ExternalContext,
  ): Promise<UpdateResult | void> {
    const seen = this.observed.get(observation);
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
      unlessGone(async () => {
        await this.opts.client.deleteRegistry(id, { signal: ctx.signal });
        return true;
      }),
    );
    // undefined: already gone, which counts as deleted.
    if (deleted === true) ctx.log.info({ registryId: id }, 'Deleted container registry');
  }
}
