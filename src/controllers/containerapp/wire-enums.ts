/**
 * Enums whose spec names (UpperCamel, acronyms in capitals: `TCP`, `SyslogRFC5424`) are not the
 * platform's wire values (`tcp`, `SyslogRfc5424`). The platform still receives exactly its own
 * value, and what it answers reads back in the spec's spelling (observe, status, export). The
 * CRD's enum is the document's, translated, so a value the document adds fails generation until
 * it has a spec name here.
 */
import type { Codec } from '../kit/codecs.js';
import type { Schema } from '../shared/crd-schema.js';

/** Spec name -> wire value of one enum. */
export type WireNames<S extends string = string, W extends string = string> = Readonly<
  Record<S, W>
>;

/** ContainerRegistry `spec.type` (the document's `RegistryType`). */
export const REGISTRY_TYPE_NAMES = {
  DockerHub: 'dockerHub',
  GitHub: 'gitHub',
  BunnyRegistry: 'bunnyRegistry',
} as const;
/** `CdnEndpoint.portMappings[].protocols[]` (the document's `Protocol`). */
export const PROTOCOL_NAMES = { TCP: 'tcp', UDP: 'udp', SCTP: 'sctp' } as const;
/** `logForwarding.type` (`CreateLogForwardingRequest.type`). */
export const LOG_TYPE_NAMES = { SyslogUDP: 'SyslogUdp', SyslogTCP: 'SyslogTcp' } as const;
/** `logForwarding.format` (`CreateLogForwardingRequest.format`). */
export const LOG_FORMAT_NAMES = {
  SyslogRFC3164: 'SyslogRfc3164',
  SyslogRFC5424: 'SyslogRfc5424',
} as const;

/** The wire value of the spec name `name`. */
export function toWireName<S extends string, W extends string>(names: WireNames<S, W>, name: S): W {
  return names[name];
}

/** The spec name of the wire value `wire`; undefined when the enum lacks it. */
export function fromWireName<S extends string>(names: WireNames<S>, wire: unknown): S | undefined {
  return (Object.keys(names) as S[]).find((s) => names[s] === wire);
}

/** The spec name of `wire`, or `wire` itself when the enum lacks it (status shows it as read). */
export function shownName(names: WireNames, wire: string): string {
  return fromWireName(names, wire) ?? wire;
}

/**
 * The document's enum bounds (`{enum: [wire values]}`) in spec names. Throws at generation when
 * the document has a value without a spec name, or none of the enum at all.
 */
export function specEnumOf(names: WireNames, docBounds: Schema): Schema {
  const wire = docBounds.enum;
  if (!Array.isArray(wire)) throw new Error('cannot translate an enum: the document gives none');
  return {
    ...docBounds,
    enum: wire.map((w) => {
      const name = fromWireName(names, w);
      if (name === undefined)
        throw new Error(`cannot translate enum value ${JSON.stringify(w)}: no spec name for it`);
      return name;
    }),
  };
}

/** The kit codec (kit/codecs.ts) of a field of such an enum: spec names, sent as wire values. */
export function enumByWireName<S extends string>(names: WireNames<S>): Codec<S> {
  return {
    schema: { type: 'string', enum: Object.keys(names) },
    toWire: (v) => toWireName(names, v),
    fromWire: (w) => fromWireName(names, w),
  };
}

/**
 * The `values` of a `cdnctl migrate` move (kind-module.ts LegacyFieldMove): v1alpha1 spelled
 * these enums as the platform does, so each wire value becomes its spec name.
 */
export function legacyValuesOf(names: WireNames): Record<string, string> {
  return Object.fromEntries(Object.entries(names).map(([spec, wire]) => [wire, spec]));
}
