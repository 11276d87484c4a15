/**
 * Compares a TypeScript type with a CRD schema, field by field, using the compiler's own type
 * checker: every property of one must be a property of the other, with the same shape (string,
 * number, boolean, list, object, map), the same enum values where the type spells them, and
 * (`checkRequired`) a property the type treats as always present must be required by the
 * schema. A type that is `unknown` (or a map of `unknown`) is opaque: it agrees with any schema
 * and is reported in `opaque`, so a test can pin which fields are described by something else
 * (a field table).
 */
import ts from 'typescript';

type Json = Record<string, unknown>;

/** The outcome of one comparison. */
export interface Agreement {
  /** One line per disagreement: `path: why`. */
  mismatches: string[];
  /** Paths where the type is opaque (`unknown`). */
  opaque: string[];
}

/** Reads exported types of TypeScript files with one program (slow to build: reuse it). */
export class TypeReader {
  readonly checker: ts.TypeChecker;
  private readonly program: ts.Program;

  constructor(files: readonly string[]) {
    this.program = ts.createProgram([...files], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
    });
    this.checker = this.program.getTypeChecker();
  }

  /** The exported interface or type alias `name` of `file`, or undefined. */
  exportedType(file: string, name: string): ts.Type | undefined {
    const source = this.program.getSourceFile(file);
    const module = source && this.checker.getSymbolAtLocation(source);
    if (!module) return undefined;
    let symbol = this.checker.getExportsOfModule(module).find((s) => s.name === name);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias)
      symbol = this.checker.getAliasedSymbol(symbol);
    return symbol && this.checker.getDeclaredTypeOfSymbol(symbol);
  }
}

type Shape = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'unknown';

interface Parts {
  shapes: Set<Shape>;
  /** String literal members (`'Delete' | 'Orphan'`); empty when the type is plain `string`. */
  literals: string[];
  plainString: boolean;
  arrays: ts.Type[];
  objects: ts.Type[];
}

/** The non-nullish members of `type`, classified. */
function partsOf(checker: ts.TypeChecker, type: ts.Type): Parts {
  const parts: Parts = {
    shapes: new Set(),
    literals: [],
    plainString: false,
    arrays: [],
    objects: [],
  };
  const members = type.isUnion() ? type.types : [type];
  for (const t of members) {
    const f = t.flags;
    if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)) continue;
    if (f & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) parts.shapes.add('unknown');
    else if (t.isStringLiteral()) {
      parts.shapes.add('string');
      parts.literals.push(t.value);
    } else if (f & ts.TypeFlags.StringLike) {
      parts.shapes.add('string');
      parts.plainString = true;
    } else if (f & ts.TypeFlags.NumberLike) parts.shapes.add('number');
    else if (f & ts.TypeFlags.BooleanLike) parts.shapes.add('boolean');
    else if (checker.isArrayType(t) || checker.isTupleType(t)) {
      parts.shapes.add('array');
      parts.arrays.push(t);
    } else {
      parts.shapes.add('object');
      parts.objects.push(t);
    }
  }
  return parts;
}

const SCHEMA_SHAPE: Record<string, Shape> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  array: 'array',
  object: 'object',
};

function describeShapes(shapes: Set<Shape>): string {
  return [...shapes].sort().join(' | ') || 'never';
}

class Comparison {
  readonly result: Agreement = { mismatches: [], opaque: [] };

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly checkRequired: boolean,
  ) {}

  compare(type: ts.Type, schema: Json, path: string): void {
    const parts = partsOf(this.checker, type);
    if (parts.shapes.has('unknown') || this.isOpaqueMap(parts)) {
      this.result.opaque.push(path);
      return;
    }
    if (schema['x-kubernetes-int-or-string'] === true) {
      if (!parts.shapes.has('string') || !parts.shapes.has('number'))
        this.mismatch(path, `int-or-string in the CRD, ${describeShapes(parts.shapes)} in TS`);
      return;
    }
    const want = SCHEMA_SHAPE[String(schema.type)];
    if (!want) return this.mismatch(path, `the CRD gives no type (${String(schema.type)})`);
    if (!parts.shapes.has(want))
      return this.mismatch(
        path,
        `${String(schema.type)} in the CRD, ${describeShapes(parts.shapes)} in TS`,
      );
    if (want === 'string') this.compareEnum(parts, schema, path);
    if (want === 'array') this.compareItems(parts, schema, path);
    if (want === 'object') this.compareObject(parts, schema, path);
  }

  private mismatch(path: string, why: string): void {
    this.result.mismatches.push(`${path}: ${why}`);
  }

  /** `Record<string, unknown>`: described elsewhere. */
  private isOpaqueMap(parts: Parts): boolean {
    if (parts.shapes.size !== 1 || parts.objects.length !== 1) return false;
    const object = parts.objects[0]!;
    const index = this.checker.getIndexInfoOfType(object, ts.IndexKind.String);
    const values = index && partsOf(this.checker, index.type);
    return object.getProperties().length === 0 && values?.shapes.has('unknown') === true;
  }

  private compareEnum(parts: Parts, schema: Json, path: string): void {
    const values = Array.isArray(schema.enum) ? schema.enum.map(String) : undefined;
    // A plain `string` accepts what the CRD allows; a union must name exactly the CRD's values.
    if (parts.plainString || parts.literals.length === 0) return;
    const literals = [...new Set(parts.literals)].sort();
    if (!values)
      return this.mismatch(path, `TS allows only ${literals.join(', ')}; the CRD has no enum`);
    const crd = [...new Set(values)].sort();
    if (literals.join() !== crd.join())
      this.mismatch(path, `enum ${crd.join(', ')} in the CRD, ${literals.join(', ')} in TS`);
  }

  private compareItems(parts: Parts, schema: Json, path: string): void {
    const items = schema.items as Json | undefined;
    if (!items) return this.mismatch(path, 'a list without items in the CRD');
    for (const array of parts.arrays) {
      for (const element of this.checker.getTypeArguments(array as ts.TypeReference))
        this.compare(element, items, `${path}[]`);
    }
  }

  private compareObject(parts: Parts, schema: Json, path: string): void {
    const properties = schema.properties as Record<string, Json> | undefined;
    const values = schema.additionalProperties as Json | undefined;
    for (const object of parts.objects) {
      if (properties) this.compareProperties(object, properties, schema, path);
      else if (values) this.compareMap(object, values, path);
    }
  }

  private compareMap(object: ts.Type, values: Json, path: string): void {
    const index = this.checker.getIndexInfoOfType(object, ts.IndexKind.String);
    if (!index) return this.mismatch(path, 'a map in the CRD, no string index in TS');
    this.compare(index.type, values, `${path}{}`);
  }

  private compareProperties(
    object: ts.Type,
    properties: Record<string, Json>,
    schema: Json,
    path: string,
  ): void {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const own = new Map(object.getProperties().map((p) => [p.name, p]));
    for (const name of Object.keys(properties)) {
      if (!own.has(name)) this.mismatch(`${path}.${name}`, 'in the CRD, missing in TS');
    }
    for (const [name, symbol] of own) {
      const property = properties[name];
      if (!property) {
        this.mismatch(`${path}.${name}`, 'in TS, missing in the CRD');
        continue;
      }
      const optional = (symbol.flags & ts.SymbolFlags.Optional) !== 0;
      if (this.checkRequired && !optional && !required.has(name))
        this.mismatch(`${path}.${name}`, 'always present in TS, optional in the CRD');
      this.compare(this.checker.getTypeOfSymbol(symbol), property, `${path}.${name}`);
    }
  }
}

/**
 * Compares `type` with `schema` (see the module comment). `checkRequired`: a TS property that
 * is not optional must be required by the schema (for a spec, which users write; a status is
 * written by the operator).
 */
export function compareTypeWithSchema(
  reader: TypeReader,
  type: ts.Type,
  schema: Json,
  path: string,
  checkRequired: boolean,
): Agreement {
  const c = new Comparison(reader.checker, checkRequired);
  c.compare(type, schema, path);
  return c.result;
}
