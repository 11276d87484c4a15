/**
 * The integer enums of access lists, exposed in the CRD by name: `AccessListType` and
 * `AccessListAction` of the official Shield document (`x-enum-varnames`; the CRD reads the same
 * names from it and test/unit/controllers/shieldaccesslist/mapping.test.ts checks both).
 */
import { defineEnum } from '../shieldrule-common/enums.js';

/** `AccessListType`: what the entries of a list are. */
export const ACCESS_LIST_TYPE = defineEnum('AccessListType', [
  ['IP', 0],
  ['CIDR', 1],
  ['ASN', 2],
  ['Country', 3],
  ['Organization', 4],
  ['JA4', 5],
]);

/** `AccessListAction`: what a request matching a list gets (None: nothing, not settable). */
export const ACCESS_LIST_ACTION = defineEnum('AccessListAction', [
  ['None', 0],
  ['Allow', 1],
  ['Block', 2],
  ['Challenge', 3],
  ['Log', 4],
  ['Bypass', 5],
]);

/** The action a new list has until it is configured. */
export const NO_ACTION = 0;
