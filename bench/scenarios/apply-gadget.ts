/**
 * A kind added in another group (issue 45): the Gadget test kind (docs/kit.md) installed as a
 * CRD in its own group, then `kubectl apply` of the PullZoneConfigs to our CRD (create and
 * update, no operator running) repeated. With one API group per family the document kubectl
 * parses for a PullZoneConfig does not change, so neither should the apply. The counterfactual
 * is measured beside it: a minimal Gadget joins the one group holding minimal CRDs of all our
 * kinds, and that group's document grows by Gadget's paths.
 */
import { crdNameOf } from '../../src/controllers/kind-names.js';
import { renderCrd } from '../../hack/generate-crds.js';
import { GADGET } from '../../test/unit/controllers/fixtures/gadget/kind.js';
import { kubectlRaw } from '../../test/e2e/support/kube.js';
import type { BenchEnv } from '../lib/env.js';
import { crdFactsOf, MINIMAL_GROUP, minimalCrdOf, type CrdFacts } from '../lib/minimal-crd.js';
import {
  OPENAPI_WAIT_MS,
  openApiDocumentOf,
  openApiIndexOf,
  waitForOpenApi,
} from '../lib/openapi-documents.js';
import type { ApplyTiming, NoOperatorRound } from './apply-end-to-end.js';

/**
 * One round of the Gadget step, right before or after it is installed: the lone minimal CRD's
 * apply and ours (no operator).
 */
export type GadgetRound = Pick<NoOperatorRound, 'lone' | 'ours'>;

/** What adding the Gadget in its own group did. */
export interface GadgetResult {
  /** The Gadget's group. */
  group: string;
  /** Bytes of the OpenAPI document of our CRD's group-version, before and after. */
  oursDocBytes: [number, number];
  /** Whether that document stayed byte for byte the same. */
  oursDocSame: boolean;
  /**
   * The one-group counterfactual: bytes of the document of the group holding minimal CRDs of
   * all our kinds, before and after a minimal Gadget joins it.
   */
  oneGroupDocBytes?: [number, number];
  /** `kubectl apply` of the same objects to our CRD (no operator), repeated after. */
  oursNoOperator?: ApplyTiming;
  /**
   * The applies after, in interleaved rounds with the lone minimal CRD's (the first round's
   * ours is `oursNoOperator`); absent in results from before.
   */
  rounds?: GadgetRound[];
  /**
   * The same rounds right before the Gadget was installed (the machine in the same state as
   * after); absent in results from before.
   */
  roundsBefore?: GadgetRound[];
}

async function installCrd(env: BenchEnv, crd: Record<string, unknown>): Promise<void> {
  const options = { kubeconfig: env.kubeconfig };
  const r = await kubectlRaw(['apply', '-f', '-'], JSON.stringify(crd), options);
  if (r.code !== 0) throw new Error(`cannot install the Gadget CRD: ${r.stderr.trim()}`);
  const name = (crd.metadata as { name: string }).name;
  await kubectlRaw(
    ['wait', '--for=condition=Established', `crd/${name}`, '--timeout=120s'],
    undefined,
    options,
  );
}

/** The Gadget's CRD as generated (its own group) and its facts. */
async function gadgetCrd(): Promise<CrdFacts> {
  const { path, text } = await renderCrd(GADGET);
  const facts = crdFactsOf(text, path);
  if (!facts) throw new Error(`cannot read the Gadget CRD: ${path} is not a CRD`);
  return facts;
}

/**
 * Installs the Gadget in its own group and a minimal Gadget in the one group, records the
 * documents before and after, and runs `applyRounds` (rounds of the applies to the lone minimal
 * CRD and ours) right before and again after; removes both CRDs after and waits until the
 * Gadget's group is no longer served.
 */
export async function runGadgetStep(
  env: BenchEnv,
  ours: CrdFacts,
  applyRounds: (when: 'before' | 'after') => Promise<GadgetRound[]>,
): Promise<GadgetResult> {
  const gadget = await gadgetCrd();
  const roundsBefore = await applyRounds('before');
  const oneGroup = `apis/${MINIMAL_GROUP}/${ours.version}`;
  const oursBefore = await openApiDocumentOf(env.kube, ours.group, ours.version);
  const oneBefore = await openApiDocumentOf(env.kube, MINIMAL_GROUP, ours.version);
  const hashBefore = (await openApiIndexOf(env.kube))[oneGroup];
  await installCrd(env, gadget.crd);
  await installCrd(env, minimalCrdOf(gadget));
  const gadgetPath = `apis/${gadget.group}/${gadget.version}`;
  // Both documents are rebuilt in the background once the CRDs are Established.
  await waitForOpenApi(
    env.kube,
    (index) => index[gadgetPath] !== undefined && index[oneGroup] !== hashBefore,
    OPENAPI_WAIT_MS,
  );
  const oursAfter = await openApiDocumentOf(env.kube, ours.group, ours.version);
  const oneAfter = await openApiDocumentOf(env.kube, MINIMAL_GROUP, ours.version);
  try {
    const rounds = await applyRounds('after');
    return {
      group: gadget.group,
      oursDocBytes: [Buffer.byteLength(oursBefore), Buffer.byteLength(oursAfter)],
      oursDocSame: oursBefore === oursAfter,
      oneGroupDocBytes: [Buffer.byteLength(oneBefore), Buffer.byteLength(oneAfter)],
      ...(rounds[0] ? { oursNoOperator: rounds[0].ours } : {}),
      rounds,
      roundsBefore,
    };
  } finally {
    const names = [crdNameOf(GADGET), `${gadget.plural}.${MINIMAL_GROUP}`];
    await kubectlRaw(['delete', 'crd', ...names, '--ignore-not-found', '--wait=false'], undefined, {
      kubeconfig: env.kubeconfig,
    });
    // What comes next is measured: let the apiserver drop the group first.
    await waitForOpenApi(env.kube, (index) => !index[gadgetPath], OPENAPI_WAIT_MS);
  }
}
