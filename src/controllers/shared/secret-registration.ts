/**
 * Makes redaction automatic for every kind: each value a kind reads from a Secret through its
 * ConnectContext is registered in the process-wide registry (src/cdn/redact.ts) the moment it
 * is read, so the CDN client scrubs it from every error (including request bodies the
 * platform echoes in a 400), and every classified error message is scrubbed again before it
 * becomes a condition, event or log line.
 */
import { secretValues, scrubSecretValues } from '../../cdn/redact.js';
import type { ClassifiedError } from '../../runtime/errors.js';
import type { ConnectContext, ManagedKind, ManagedObject } from '../../runtime/types.js';

function sourcePrefix(namespace: string, name: string): string {
  return `${namespace}/${name}/`;
}

/**
 * A read-only view of Secret data that registers a value when a key is read. Only keys that
 * are used are registered, so unrelated keys of a shared Secret do not mask ordinary text.
 */
function registeringView(
  namespace: string,
  name: string,
  data: Record<string, string>,
): Record<string, string> {
  return new Proxy(data, {
    get(target, key): unknown {
      if (typeof key !== 'string' || !Object.hasOwn(target, key)) return undefined;
      const value = target[key];
      if (typeof value === 'string')
        secretValues.set(`${sourcePrefix(namespace, name)}${key}`, value);
      return value;
    },
    set: () => false,
    deleteProperty: () => false,
  });
}

/** Wraps `ctx.readSecret` so that every value read is registered for redaction. */
export function registeringContext(ctx: ConnectContext): ConnectContext {
  return {
    ...ctx,
    async readSecret(namespace, name) {
      const data = await ctx.readSecret(namespace, name);
      if (!data) {
        // A deleted Secret's values are no longer needed for scrubbing.
        secretValues.forget(sourcePrefix(namespace, name));
        return undefined;
      }
      return registeringView(namespace, name, data);
    },
  };
}

/** A classified error whose message is scrubbed of every registered Secret value. */
export function scrubClassified(c: ClassifiedError): ClassifiedError {
  return { ...c, message: scrubSecretValues(c.message) };
}

/** The kind with Secret registration on connect and scrubbing on classification. */
export function withSecretRedaction<T extends ManagedObject>(kind: ManagedKind<T>): ManagedKind<T> {
  return {
    ...kind,
    connect: (obj, ctx) => kind.connect(obj, registeringContext(ctx)),
    classifyError: (err) => scrubClassified(kind.classifyError(err)),
  };
}
