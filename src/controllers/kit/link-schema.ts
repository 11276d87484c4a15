/**
 * The CRD side of a link (kit/linked-resource.ts), from the kind's owner table: the spec field
 * (`{kind, name}` and the members the owners' paths select by, each allowed with the kinds that
 * use it and required where the path needs it), the spec rules every linking kind has (no
 * adoption beside it, no `deletionPolicy: Delete`, immutable), and the status field naming the
 * owner.
 */
import { objectNameSchema, type Schema } from '../shared/crd-schema.js';
import { objectSchema, stringSchema } from '../shared/schema-nodes.js';
import { linkMembersOf } from './link-path.js';
import type { LinkOwner, LinkRules } from './linked-resource.js';

/** A CEL list literal of the kinds. */
function kindList(owners: readonly LinkOwner[]): string {
  return `[${owners.map((o) => `'${o.kind.kind}'`).join(', ')}]`;
}

/** Every member some owner selects by, with the owners that take it and those that need it. */
function membersOf(
  rules: LinkRules,
): Map<string, { takes: LinkOwner[]; needs: LinkOwner[]; description: string[] }> {
  const out = new Map<string, { takes: LinkOwner[]; needs: LinkOwner[]; description: string[] }>();
  for (const owner of rules.owners) {
    for (const m of linkMembersOf(owner.idPath)) {
      const entry = out.get(m.member) ?? { takes: [], needs: [], description: [] };
      entry.takes.push(owner);
      if (!m.optional) entry.needs.push(owner);
      const words = owner.members?.[m.member];
      if (words) entry.description.push(`${owner.kind.kind}: ${words}`);
      out.set(m.member, entry);
    }
  }
  return out;
}

/** The rules of one member: allowed only with the kinds that take it, required where needed. */
function memberRules(
  rules: LinkRules,
  member: string,
  takes: readonly LinkOwner[],
  needs: readonly LinkOwner[],
): Schema[] {
  const field = `${rules.field}.${member}`;
  return [
    {
      rule: `self.kind in ${kindList(takes)} || !has(self.${member})`,
      message: `${field} is set only with kind ${takes.map((o) => o.kind.kind).join(' or ')}`,
    },
    ...needs.map((o) => ({
      rule: `self.kind != '${o.kind.kind}' || has(self.${member})`,
      message: `${field} is required with kind ${o.kind.kind}`,
    })),
  ];
}

/** `spec.<field>`: the owner by kind and name (same namespace), and the members. */
export function linkSpecSchema(rules: LinkRules, description: string): Schema {
  const members = membersOf(rules);
  const properties: Record<string, Schema> = {
    kind: {
      type: 'string',
      enum: rules.owners.map((o) => o.kind.kind),
      description: `Kind of the owner: ${rules.owners.map((o) => `${o.kind.kind} (${o.when})`).join('; ')}.`,
    },
    name: objectNameSchema(
      'Name of the owner, in this namespace (an object of another namespace cannot be named).',
    ),
  };
  const validations: Schema[] = [];
  for (const [member, m] of members) {
    properties[member] = {
      type: 'string',
      minLength: 1,
      maxLength: 253,
      description: `${m.description.join('; ')}. Only with kind ${m.takes.map((o) => o.kind.kind).join(' or ')}.`,
    };
    validations.push(...memberRules(rules, member, m.takes, m.needs));
  }
  return {
    ...objectSchema(properties, { description, required: ['kind', 'name'] }),
    ...(validations.length > 0 ? { 'x-kubernetes-validations': validations } : {}),
  };
}

/** The spec-level rules of a linking kind (see the module comment). */
export function linkSpecRules(rules: LinkRules): Schema[] {
  const f = rules.field;
  return [
    {
      rule: `!has(self.${f}) || !has(self.adoption)`,
      message: `${f} takes the ${rules.what} its owner reports: leave adoption out`,
    },
    {
      rule: `!has(self.${f}) || !has(self.deletionPolicy) || self.deletionPolicy == 'Orphan'`,
      message: `${f}: the ${rules.what} is deleted by its owner only, deleting this object releases it (deletionPolicy Delete is refused)`,
    },
    {
      rule: `has(self.${f}) == has(oldSelf.${f}) && (!has(self.${f}) || self.${f} == oldSelf.${f})`,
      message: `${f} is immutable: it cannot be added, changed or removed; create a new object to manage another ${rules.what}`,
    },
  ];
}

/** `status.<statusField>`: the owner the managed id came from. */
export function linkStatusSchema(rules: LinkRules): Schema {
  const members = [...membersOf(rules).keys()];
  return objectSchema(
    {
      kind: stringSchema('Kind of the owner.'),
      name: stringSchema('Name of the owner (same namespace).'),
      ...Object.fromEntries(members.map((m) => [m, stringSchema(`The ${m} matched.`)])),
    },
    {
      description: `The object (spec.${rules.field}) whose ${rules.what} this object manages, as last read.`,
    },
  );
}
