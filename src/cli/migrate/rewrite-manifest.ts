/**
 * `cdnctl migrate` on manifest text: every mapping of one of the operator's kinds that names the
 * legacy group (`apiVersion: cdn.operator.io/v1alpha1`, or kustomize's and Argo CD's
 * `group: cdn.operator.io` next to `kind:`) is moved to the kind's family group at v1beta1, and
 * the kind's field moves (field-moves.ts) are applied to its documents.
 *
 * The text is edited in place: each changed value is replaced where it stands (`yaml`'s node
 * ranges), in its own quoting style, so comments, key order, spacing, document separators and
 * every other document stay byte for byte; a field renamed in its mapping and an enum value
 * respelled are edits of the same kind. Only a file where a value moves to another mapping is
 * printed again by `yaml` (comments kept, spacing normalised, long lines not folded). Unknown kinds and other groups are never
 * touched; the result is parsed again before it is returned, and a second run changes nothing.
 */
import {
  parseAllDocuments,
  visit,
  isScalar,
  isMap,
  type Document,
  type Pair,
  type Scalar,
  type YAMLMap,
} from 'yaml';
import { API_VERSION, LEGACY_API_GROUP, LEGACY_GROUP_VERSION } from '../../api-group.js';
import type { KindModule } from '../../controllers/kind-module.js';
import { apiGroupOf, apiVersionOf } from '../../controllers/kind-names.js';
import { findKind } from '../../controllers/kinds.js';
import {
  applyFieldMoves,
  FIELD_MOVES,
  type FieldMoveTable,
  type PathStore,
} from './field-moves.js';

/** The outcome for one file's text. */
export interface MigratedText {
  text: string;
  /** One line per change (`PullZoneConfig shop-cdn: apiVersion -> pullzones.cdn.operator.io/v1beta1`). */
  changes: string[];
}

/** A file left alone on purpose: a template (`{{ }}`) that is not YAML until rendered. */
export class SkippedTemplate extends Error {}

interface Edit {
  start: number;
  end: number;
  text: string;
}

const LEGACY_VERSION = LEGACY_GROUP_VERSION.slice(LEGACY_API_GROUP.length + 1);
const TEMPLATE = /\{\{[\s\S]*?\}\}/;

/** The string value of `key` in `map` as its scalar node, if it is one. */
function scalarOf(map: YAMLMap, key: string): Scalar<string> | undefined {
  const node = map.get(key, true);
  return isScalar(node) && typeof node.value === 'string' ? (node as Scalar<string>) : undefined;
}

/** `value` written in the quoting style of `node`. */
function rendered(node: Scalar, value: string): string {
  if (node.type === 'QUOTE_SINGLE') return `'${value}'`;
  if (node.type === 'QUOTE_DOUBLE') return JSON.stringify(value);
  return value;
}

/** An edit replacing the value of `node` by `value`; refuses a value it cannot place. */
function editOf(source: string, node: Scalar, value: string): Edit {
  const [start, end] = node.range ?? [];
  const plainish = node.type === 'PLAIN' || node.type?.startsWith('QUOTE_');
  if (start === undefined || end === undefined || !plainish) {
    throw new Error(`cannot rewrite ${String(node.value)}: not a one-line scalar`);
  }
  node.value = value;
  return { start, end, text: rendered(node, value) };
}

/** What one mapping of `kind` names: `apiVersion`, or kustomize/Argo CD `group` and `version`. */
function editsOfMap(source: string, map: YAMLMap, kind: KindModule): Edit[] {
  const edits: Edit[] = [];
  const apiVersion = scalarOf(map, 'apiVersion');
  if (apiVersion?.value === LEGACY_GROUP_VERSION) {
    edits.push(editOf(source, apiVersion, apiVersionOf(kind)));
  }
  const group = scalarOf(map, 'group');
  if (group?.value === LEGACY_API_GROUP) {
    edits.push(editOf(source, group, apiGroupOf(kind)));
    const version = scalarOf(map, 'version');
    if (version?.value === LEGACY_VERSION) edits.push(editOf(source, version, API_VERSION));
  }
  return edits;
}

/** `metadata.name` of a mapping, for the report. */
function nameOf(map: YAMLMap): string {
  const metadata = map.get('metadata', true);
  const name = isMap(metadata) ? scalarOf(metadata, 'name')?.value : undefined;
  return name ?? '(unnamed)';
}

/** Every edit of one document, with a line per changed mapping. */
function editsOfDocument(source: string, doc: Document, changes: string[]): Edit[] {
  const edits: Edit[] = [];
  visit(doc, {
    Map(_, map) {
      const kind = findKind(scalarOf(map, 'kind')?.value);
      if (!kind) return;
      const made = editsOfMap(source, map, kind);
      if (made.length === 0) return;
      edits.push(...made);
      const where = map === doc.contents ? '' : ' (a reference)';
      changes.push(`${kind.kind} ${nameOf(map)}${where}: -> ${apiVersionOf(kind)}`);
    },
  });
  return edits;
}

/** True for a scalar the text can be edited at (one line, plain or quoted). */
function spliceable(node: Scalar): boolean {
  const plainish = node.type === 'PLAIN' || node.type?.startsWith('QUOTE_') === true;
  return plainish && node.range !== undefined && node.range !== null;
}

/** An edit giving `node` the value `value` where it stands (a number is written plain). */
function valueEdit(node: Scalar, value: string | number): Edit {
  const [start = 0, end = 0] = node.range ?? [];
  node.value = value;
  return { start, end, text: typeof value === 'number' ? String(value) : rendered(node, value) };
}

/** The mapping pair at `path` in `doc`, if its parent is a mapping. */
function pairAt(doc: Document, path: readonly (string | number)[]): Pair | undefined {
  const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
  const last = path[path.length - 1];
  if (!isMap(parent)) return undefined;
  return parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === last);
}

/**
 * A {@link PathStore} over `doc` that records each rename and each new scalar value as an edit
 * of `source` (the text keeps everything else byte for byte); any other change (a value moved to
 * another mapping) is made in `doc` and marks it for printing again.
 */
function splicingStore(
  doc: Document,
  source: string,
  edits: Edit[],
  reprint: { needed: boolean },
): PathStore {
  return {
    hasIn: (path) => doc.hasIn(path),
    getIn: (path, keepNode) => doc.getIn(path, keepNode),
    setIn: (path, value) => {
      const node = doc.getIn(path, true);
      const simple = typeof value === 'string' || typeof value === 'number';
      if (simple && isScalar(node) && spliceable(node)) {
        edits.push(valueEdit(node, value));
        return;
      }
      reprint.needed = true;
      doc.setIn(path, value);
    },
    deleteIn: (path) => {
      reprint.needed = true;
      return doc.deleteIn(path);
    },
    renameIn: (path, key) => {
      const pair = pairAt(doc, path);
      if (!pair || !isScalar(pair.key) || !spliceable(pair.key)) return false;
      edits.push(valueEdit(pair.key, key));
      return true;
    },
    // A flow mapping around the scalar's own text: the line, its comment and the rest stay.
    nestIn: (path, key) => {
      const node = doc.getIn(path, true);
      if (!isScalar(node) || !spliceable(node)) return false;
      const [start = 0, end = 0] = node.range ?? [];
      const nested = doc.createNode({ [key]: node });
      nested.flow = true;
      doc.setIn(path, nested);
      edits.push({ start, end, text: `{ ${key}: ${source.slice(start, end)} }` });
      return true;
    },
  };
}

/** Applies the kind's field moves to a top-level object of ours; true when one moved. */
function moveFieldsOf(
  doc: Document,
  moves: FieldMoveTable,
  changes: string[],
  store: PathStore,
): boolean {
  if (!isMap(doc.contents)) return false;
  const kind = findKind(scalarOf(doc.contents, 'kind')?.value);
  const apiVersion = scalarOf(doc.contents, 'apiVersion')?.value;
  if (!kind || (apiVersion !== LEGACY_GROUP_VERSION && apiVersion !== apiVersionOf(kind))) {
    return false;
  }
  const moved = applyFieldMoves(store, moves[kind.kind] ?? []);
  for (const m of moved) changes.push(`${kind.kind} ${nameOf(doc.contents)}: ${m}`);
  return moved.length > 0;
}

function spliced(source: string, edits: readonly Edit[]): string {
  let text = source;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) {
    text = text.slice(0, e.start) + e.text + text.slice(e.end);
  }
  return text;
}

/** The documents of `source`; throws the first parse error (SkippedTemplate for a template). */
function parsedDocuments(source: string): Document[] {
  const docs = parseAllDocuments(source);
  const docList = Array.isArray(docs) ? docs : [];
  const error = docList.flatMap((d) => d.errors)[0];
  if (error) {
    const first = error.message.split('\n')[0] ?? '';
    if (TEMPLATE.test(source)) {
      throw new SkippedTemplate(`a template ({{ }}) that is not YAML until rendered (${first})`);
    }
    throw new Error(`not valid YAML: ${first}`);
  }
  return docList as Document[];
}

/**
 * Migrates the manifests in `source` (see the module comment). Throws `cannot ...` errors for
 * text that is not YAML, and {@link SkippedTemplate} for a template that is not.
 */
export function migrateManifestText(
  source: string,
  moves: FieldMoveTable = FIELD_MOVES,
): MigratedText {
  const docs = parsedDocuments(source);
  const changes: string[] = [];
  const edits = docs.flatMap((doc) => editsOfDocument(source, doc, changes));
  const reprint = { needed: false };
  for (const doc of docs) {
    moveFieldsOf(doc, moves, changes, splicingStore(doc, source, edits, reprint));
  }
  let text: string;
  if (reprint.needed) {
    if (TEMPLATE.test(source)) {
      throw new SkippedTemplate('a template ({{ }}) whose fields move: migrate it by hand');
    }
    // No folding of long lines: a moved document keeps its lines as the user wrapped them.
    text = docs.map((d) => d.toString({ lineWidth: 0 })).join('');
  } else {
    text = spliced(source, edits);
  }
  if (changes.length > 0) parsedDocuments(text);
  return { text: changes.length > 0 ? text : source, changes };
}
