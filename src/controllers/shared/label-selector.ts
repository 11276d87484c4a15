/**
 * Matching of a standard Kubernetes LabelSelector (`matchLabels`, `matchExpressions` with
 * In, NotIn, Exists, DoesNotExist) against an object's labels. Unlike Kubernetes, an empty or
 * absent selector matches NOTHING here: an account is closed until its admin opens it.
 */

/** One `matchExpressions` entry. */
export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

/** A metav1.LabelSelector. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** Own-property lookup: a label key such as `constructor` never reads Object.prototype. */
function labelValue(labels: Record<string, string>, key: string): string | undefined {
  return Object.hasOwn(labels, key) ? labels[key] : undefined;
}

function matchesRequirement(r: LabelSelectorRequirement, labels: Record<string, string>): boolean {
  const value = labelValue(labels, r.key);
  const values = Array.isArray(r.values) ? r.values : [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    default:
      // An unknown operator (the CRD rejects it) never widens access.
      return false;
  }
}

/** True when the selector has at least one term (an empty one selects nothing). */
export function isEmptySelector(selector: LabelSelector | undefined): boolean {
  const labels = selector?.matchLabels ?? {};
  const expressions = selector?.matchExpressions ?? [];
  return Object.keys(labels).length === 0 && expressions.length === 0;
}

/** Does `selector` select an object with `labels`? Empty or absent: no. */
export function matchesLabelSelector(
  selector: LabelSelector | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  if (!selector || isEmptySelector(selector)) return false;
  const own = labels ?? {};
  for (const [key, want] of Object.entries(selector.matchLabels ?? {})) {
    if (labelValue(own, key) !== want) return false;
  }
  return (selector.matchExpressions ?? []).every((r) => matchesRequirement(r, own));
}
