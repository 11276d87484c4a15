/**
 * cert-manager's DNS-01 webhook protocol, the part the solver reads and answers: a
 * `ChallengePayload` (`webhook.acme.cert-manager.io/v1alpha1`) carrying a `ChallengeRequest`,
 * answered with a `ChallengeResponse` (cert-manager pkg/acme/webhook/apis/acme/v1alpha1).
 */

/** What the solver is asked to do. */
export type ChallengeAction = 'Present' | 'CleanUp';

/** `ChallengeRequest`: one call to Present or CleanUp. */
export interface ChallengeRequest {
  /** A unique id of this call (not of the challenge: Present and CleanUp differ). */
  uid: string;
  action: ChallengeAction;
  /** `dns-01`. */
  type: string;
  /** The name the certificate is for (`*.shop.example.com` for a wildcard). */
  dnsName: string;
  /** The TXT record's value (the key authorization's digest): unique per challenge. */
  key: string;
  /**
   * The Issuer's namespace (an Issuer serves Certificates of its own namespace only); for a
   * ClusterIssuer, cert-manager's cluster resource namespace (`--cluster-resource-namespace`).
   */
  resourceNamespace: string;
  /** The name to write, fully qualified with a trailing dot (`_acme-challenge.shop.example.com.`). */
  resolvedFQDN: string;
  /** cert-manager's guess of the zone (from SOA lookups): never trusted here. */
  resolvedZone?: string;
  allowAmbientCredentials?: boolean;
  /** The solver's `config` block of the Issuer. */
  config?: unknown;
}

/** `ChallengeResponse`. */
export interface ChallengeResponse {
  uid: string;
  success: boolean;
  /** Why it failed: shown in the Challenge's status by cert-manager. */
  status?: { message: string; reason: string; code?: number };
}

/** The API version of the payload. */
export const CHALLENGE_API_VERSION = 'webhook.acme.cert-manager.io/v1alpha1';

/** A refusal: the challenge is not solved, for a reason the tenant can act on. */
export class ChallengeRefused extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}
