/**
 * The ContainerApp ExternalClient: observe (read-only), create (`POST /mc/apps`), update
 * (`PATCH`, or `PUT` when a setting PATCH cannot carry changed) and delete. The application's
 * log forwarding (`spec.logForwarding`) is observed and written beside it
 * (log-forwarding-sync.ts); it goes with the application when the application is deleted.
 *
 * References (Secret/ConfigMap values, PullZoneConfig ids) are resolved on each observe,
 * create and update, never on deletion, so a missing reference cannot block a delete.
 */
import type { CdnClient } from '../../cdn/client.js';
import { isCdnApiError } from '../../cdn/errors.js';
import type { App, ContainerTemplateRead } from '../../cdn/types.js';
import { TerminalError } from '../../runtime/errors.js';
import { ADOPT_BY_NAME, adoptionPolicyOf } from '../shared/ownership-schema.js';
import type {
  CreateResult,
  ExternalClient,
  ExternalContext,
  FieldDiff,
  Observation,
} from '../../runtime/types.js';
import { compareApp, isUpToDate } from './diff.js';
import { mapWriteErrors } from './errors.js';
import { specPathForField } from './field-path.js';
import {
  toContainerStatus,
  toCreateBody,
  toDesiredApp,
  writeOnlyOf,
  type DesiredApp,
  type ResolvedRefs,
} from './mapping.js';
import {
  buildPatch,
  buildReplaceBody,
  needsReplace,
  needsVolumeIds,
  type VolumeIds,
} from './patch.js';
import type { LogForwardingPlan } from './log-forwarding.js';
import {
  applyLogForwarding,
  observeLogForwarding,
  type LogForwardingApi,
} from './log-forwarding-sync.js';
import { describeChanges } from './planned-changes.js';
import { environmentHash } from './references.js';
import type { ContainerApp, ContainerAppStatus, WriteOnlyRecord } from './types.js';
import { samePlatformName } from '../../cdn/platform-names.js';

/** The subset of the CDN client this kind uses (a seam for tests). */
export type AppsApi = Pick<
  CdnClient,
  | 'listApps'
  | 'getApp'
  | 'createApp'
  | 'replaceApp'
  | 'patchApp'
  | 'deleteApp'
  | 'getContainer'
  | 'listVolumes'
> &
  LogForwardingApi;

/** Reason when `spec.appId` names an application that does not exist. */
export const AdoptedAppNotFound = 'AdoptedAppNotFound';
/** Reason when `spec.adoption.policy: ByName` cannot name exactly one application. */
export const AdoptionAmbiguous = 'AdoptionAmbiguous';
/** Claim type of applications (the runtime's default: the kind). */
export const APP_CLAIM = 'ContainerApp';
/** Ready reason while the platform reports the application as failing or suspended. */
export const AppUnavailable = 'AppUnavailable';

const UNAVAILABLE_STATES = new Set(['failing', 'suspended']);

interface Desired {
  desired: DesiredApp;
  refs: ResolvedRefs;
}

/** What observe saw, for the update of the same pass (no second read). */
interface Seen {
  d: Desired;
  appUpToDate: boolean;
  /** Undefined: the object has nothing to say about log forwarding (nothing was read). */
  forwarding?: LogForwardingPlan;
}

function secretValues(d: Desired): string[] {
  return [...d.refs.secretEnv].map((k) => d.refs.env.get(k)).filter((v): v is string => !!v);
}

/** Up to date when the application and its log forwarding (if this object has one) are. */
function verdict(
  appUpToDate: boolean,
  appDiff: FieldDiff[],
  forwarding: LogForwardingPlan | undefined,
): Pick<Observation, 'upToDate' | 'diff'> {
  const diff = [...appDiff, ...(forwarding?.diffs ?? [])];
  const upToDate = appUpToDate && (forwarding === undefined || forwarding.action === 'none');
  return { upToDate, diff: upToDate ? [] : diff };
}

/** `notReady` while the platform reports the application as failing or suspended. */
function unavailability(appId: string, live: App): Pick<Observation, 'notReady'> {
  if (!UNAVAILABLE_STATES.has(live.status)) return {};
  const message = `the platform reports application ${appId} as ${live.status}`;
  return { notReady: { reason: AppUnavailable, message } };
}

function recordedWriteOnly(obj: ContainerApp, appId: string): WriteOnlyRecord | undefined {
  // Only trust the record when it was made for this very application.
  return obj.status?.appId === appId ? obj.status.appliedWriteOnly : undefined;
}

/** ExternalClient of one ContainerApp, bound to one account's CDN client. */
export class ContainerAppExternal implements ExternalClient<ContainerApp> {
  private readonly observed = new WeakMap<Observation, Seen>();

  constructor(
    private readonly api: AppsApi,
    private readonly resolve: (obj: ContainerApp) => Promise<ResolvedRefs>,
    /** Account fingerprint (claims conflict only within one account). */
    readonly account?: string,
  ) {}

  async observe(obj: ContainerApp, ctx: ExternalContext): Promise<Observation> {
    const located = await this.locate(obj, ctx);
    if (!located) return { exists: false, upToDate: false, diff: [] };
    const { appId, live } = located;
    const found = appId !== ctx.externalId ? { externalId: appId } : {};
    if (obj.metadata.deletionTimestamp) return { exists: true, upToDate: true, diff: [], ...found };
    const d = await this.desiredOf(obj);
    const recorded = recordedWriteOnly(obj, appId);
    const cmp = compareApp(d.desired, live, recorded);
    const status: Record<string, unknown> = {
      ...(await this.observedStatus(obj, appId, live, d.refs, ctx)),
    };
    const token = d.refs.logForwardingToken;
    const forwarding = await observeLogForwarding(this.api, obj, appId, token, ctx);
    const appUpToDate = isUpToDate(cmp);
    const appDiff = appUpToDate ? [] : describeChanges(cmp, d.desired, live, recorded);
    const obs: Observation = {
      exists: true,
      ...found,
      ...verdict(appUpToDate, appDiff, forwarding),
      status: forwarding ? { ...status, logForwarding: forwarding.status } : status,
      ...unavailability(appId, live),
    };
    this.observed.set(obs, { d, appUpToDate, ...(forwarding ? { forwarding } : {}) });
    return obs;
  }

  async create(obj: ContainerApp, ctx: ExternalContext): Promise<CreateResult> {
    const d = await this.desiredOf(obj);
    const body = toCreateBody(d.desired);
    const answer = await mapWriteErrors(
      () => this.api.createApp(body, { signal: ctx.signal }),
      specPathForField(d.desired, obj.spec),
      secretValues(d),
    );
    const appId = answer.id;
    ctx.log.debug({ appId }, 'Created container application');
    // Nothing else is read here: the id must reach status as soon as possible.
    return { externalId: appId, status: this.appliedStatus(obj, appId, d) };
  }

  /**
   * Applies what observe found different: the application (one PATCH or PUT) unless it was up
   * to date, then the log forwarding configuration (one POST, PUT or DELETE) when it differs.
   * With an observation this client did not make, both are read again.
   */
  async update(
    obj: ContainerApp,
    observation: Observation,
    ctx: ExternalContext,
  ): Promise<{ status?: Record<string, unknown> } | void> {
    const appId = ctx.externalId!;
    const seen = this.observed.get(observation);
    const d = seen?.d ?? (await this.desiredOf(obj));
    const status = seen?.appUpToDate ? {} : await this.updateApp(obj, appId, d, ctx);
    const forwarding = seen
      ? seen.forwarding
      : await observeLogForwarding(this.api, obj, appId, d.refs.logForwardingToken, ctx);
    if (forwarding && forwarding.action !== 'none') {
      status.logForwarding = await applyLogForwarding(this.api, obj, appId, forwarding, ctx);
    }
    return { status };
  }

  /** The application's PATCH or PUT; returns the status fields it learned. */
  private async updateApp(
    obj: ContainerApp,
    appId: string,
    d: Desired,
    ctx: ExternalContext,
  ): Promise<Record<string, unknown>> {
    const live = await this.readApp(appId, ctx);
    if (!live) throw new TerminalError('NotFound', `cannot update application ${appId}: not found`);
    const recorded = recordedWriteOnly(obj, appId);
    const cmp = compareApp(d.desired, live, recorded);
    const mapper = specPathForField(d.desired, obj.spec);
    const opts = { signal: ctx.signal };
    if (needsReplace(cmp)) {
      const body = buildReplaceBody(d.desired, cmp, live, recorded);
      await mapWriteErrors(() => this.api.replaceApp(appId, body, opts), mapper, secretValues(d));
      ctx.log.info({ appId }, 'Replaced container application');
    } else {
      const patch = buildPatch(d.desired, cmp, await this.volumeIds(appId, cmp, ctx));
      if (!patch) return this.appliedStatus(obj, appId, d, recorded);
      await mapWriteErrors(() => this.api.patchApp(appId, patch, opts), mapper, secretValues(d));
      ctx.log.info({ appId, fields: Object.keys(patch) }, 'Patched container application');
    }
    const after = await this.readApp(appId, ctx);
    const observed = after ? await this.observedStatus(obj, appId, after, d.refs, ctx) : {};
    return { ...observed, ...this.appliedStatus(obj, appId, d, recorded) };
  }

  async delete(_obj: ContainerApp, ctx: ExternalContext): Promise<void> {
    if (!ctx.externalId) return;
    try {
      await this.api.deleteApp(ctx.externalId, { signal: ctx.signal });
      ctx.log.info({ appId: ctx.externalId }, 'Deleted container application');
    } catch (err) {
      if (isCdnApiError(err) && err.kind === 'notFound') return;
      throw err;
    }
  }

  /** The application this object manages and its live state; undefined when there is none. */
  private async locate(
    obj: ContainerApp,
    ctx: ExternalContext,
  ): Promise<{ appId: string; live: App } | undefined> {
    const appId = ctx.externalId ?? (await this.lookUpByName(obj, ctx));
    if (!appId) return undefined;
    const live = await this.readApp(appId, ctx);
    if (live) return { appId, live };
    // An adopted id that does not exist must not lead to a create (the spec would still
    // point at the missing one); during deletion it simply means "already gone".
    if (obj.spec.appId && !obj.metadata.deletionTimestamp) {
      throw new TerminalError(
        AdoptedAppNotFound,
        `cannot adopt application ${obj.spec.appId}: it does not exist (spec.appId)`,
      );
    }
    return undefined;
  }

  private async desiredOf(obj: ContainerApp): Promise<Desired> {
    const refs = await this.resolve(obj);
    return { desired: toDesiredApp(obj.spec, refs), refs };
  }

  /** After create/replace: the write-only settings now in force and the env hash. */
  private appliedStatus(
    obj: ContainerApp,
    appId: string,
    d: Desired,
    previous?: WriteOnlyRecord,
  ): Record<string, unknown> {
    const applied = { ...previous, ...writeOnlyOf(d.desired) };
    const hash = environmentHash(obj.metadata.uid, d.refs);
    return {
      appId,
      appliedWriteOnly: applied,
      ...(hash ? { environmentHash: hash } : {}),
    };
  }

  private async observedStatus(
    obj: ContainerApp,
    appId: string,
    live: App,
    refs: ResolvedRefs,
    ctx: ExternalContext,
  ): Promise<ContainerAppStatus> {
    const containers: ContainerTemplateRead[] = [];
    for (const t of live.containerTemplates ?? [])
      containers.push(await this.readContainer(appId, t, ctx));
    const hash = environmentHash(obj.metadata.uid, refs);
    return {
      appStatus: live.status,
      containers: containers.map(toContainerStatus),
      volumes: (live.volumes ?? []).map((v) => ({ ...v })),
      ...(hash ? { environmentHash: hash } : {}),
    };
  }

  /** One container template read back; the app's copy when it vanished meanwhile. */
  private async readContainer(
    appId: string,
    template: ContainerTemplateRead,
    ctx: ExternalContext,
  ): Promise<ContainerTemplateRead> {
    try {
      return await this.api.getContainer(appId, template.id, { signal: ctx.signal });
    } catch (err) {
      if (isCdnApiError(err) && err.kind === 'notFound') return template;
      throw err;
    }
  }

  /** Ids of the live volumes when a PATCH must name them (only then: one read less). */
  private async volumeIds(
    appId: string,
    cmp: ReturnType<typeof compareApp>,
    ctx: ExternalContext,
  ): Promise<VolumeIds> {
    if (!needsVolumeIds(cmp)) return new Map();
    const listed = await this.api.listVolumes(appId, { signal: ctx.signal });
    return new Map(listed.filter((v) => v.name && v.id).map((v) => [v.name!, v.id!]));
  }

  private async readApp(appId: string, ctx: ExternalContext): Promise<App | undefined> {
    try {
      return await this.api.getApp(appId, { signal: ctx.signal });
    } catch (err) {
      if (isCdnApiError(err) && err.kind === 'notFound') return undefined;
      throw err;
    }
  }

  /**
   * Without an id, the name is looked up only to recover our own unrecorded create, or when
   * the spec asks to adopt by name. Names are not unique on the platform, so applications
   * another object manages are skipped.
   */
  private async lookUpByName(obj: ContainerApp, ctx: ExternalContext): Promise<string | undefined> {
    if (ctx.createPending) {
      const matches = await this.unclaimedByName(obj, ctx);
      if (matches.length > 1) {
        ctx.log.warn(
          { name: obj.spec.name, appIds: matches },
          'Several unmanaged applications carry this name; adopting the first',
        );
      }
      return matches[0];
    }
    if (obj.metadata.deletionTimestamp || adoptionPolicyOf(obj.spec) !== ADOPT_BY_NAME)
      return undefined;
    const matches = await this.unclaimedByName(obj, ctx);
    if (matches.length === 1) return matches[0];
    throw new TerminalError(
      matches.length === 0 ? AdoptedAppNotFound : AdoptionAmbiguous,
      `cannot adopt application ${JSON.stringify(obj.spec.name)} (spec.adoption.policy ByName): ${
        matches.length === 0
          ? 'no application with this name that no other object manages'
          : `${matches.length} applications carry this name; set spec.appId instead`
      }`,
    );
  }

  /** Ids of the applications named like the spec that no other object manages. */
  private async unclaimedByName(obj: ContainerApp, ctx: ExternalContext): Promise<string[]> {
    const apps = await this.api.listApps({ signal: ctx.signal });
    return apps
      .map((a) => (samePlatformName('containerApp', a.name, obj.spec.name) ? a.id : undefined))
      .filter((id): id is string => !!id && !ctx.claimedByOther?.(APP_CLAIM, id));
  }
}
