/**
 * The pull zone name rules of the CRD: what the platform accepts as a zone name (checked at
 * apply time, for spec.name and for its metadata.name default) and its immutability.
 *
 * The OpenAPI document only says the name is required (minimum length 1); the platform
 * refuses anything but letters, digits and dashes, and names over 60 characters, with a
 * 400 on create. Catching that in the apiserver turns a later InvalidSpec into an apply error.
 */
import type { Schema } from '../shared/crd-schema.js';

/** Longest zone name the platform accepts. */
export const ZONE_NAME_MAX = 60;
/** Characters the platform accepts in a zone name. */
export const ZONE_NAME_PATTERN = '^[a-zA-Z0-9-]+$';
/** The rule in words (schema descriptions and messages). */
export const ZONE_NAME_RULE = `1-${ZONE_NAME_MAX} letters, digits or dashes`;

// The name the zone gets: spec.name, else metadata.name (CEL on the root may read both).
const effectiveName = (v: string): string =>
  `(has(${v}.spec) && has(${v}.spec.name) ? ${v}.spec.name : ${v}.metadata.name)`;

/** Root-level x-kubernetes-validations of the PullZoneConfig CRD. */
export const ZONE_NAME_RULES: Schema[] = [
  {
    // A transition rule on the root runs on every update; comparing the effective names
    // catches adding, changing and removing spec.name (only a no-op equal to metadata.name passes).
    rule: `${effectiveName('self')} == ${effectiveName('oldSelf')}`,
    message:
      'spec.name is immutable: it cannot be added, changed or removed (except to the value of metadata.name, which is the default); create a new PullZoneConfig for another zone name',
  },
  {
    // The apiserver already holds a custom resource's metadata.name to a DNS subdomain
    // (lowercase letters, digits, '-' and '.'), so "no dot" is ZONE_NAME_PATTERN for it. No
    // `matches`: this root rule runs on every write, status writes included, and cel-go compiles
    // a rule's patterns each time it plans it, which the apiserver does per evaluation (issue 32).
    rule:
      `(has(self.spec) && (has(self.spec.name) || has(self.spec.pullZoneFrom) || (has(self.spec.adoption) && has(self.spec.adoption.id)))) || ` +
      `(self.metadata.name.size() <= ${ZONE_NAME_MAX} && !self.metadata.name.contains('.'))`,
    message: `metadata.name is the pull zone name when spec.name is unset and must be ${ZONE_NAME_RULE}; set spec.name to a valid zone name`,
  },
];
