/**
 * Differences between the committed API model and one regenerated from the official documents,
 * as JSON pointers a reader can act on (the drift test prints them). Member order counts: code
 * walks `properties` in order (the pull zone field tables, the CRD generator).
 */
import { escapePointer as escape } from '../../src/simulator/documents/schemas.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function diffObjects(model: Json, documents: Json, pointer: string, out: string[]): void {
  const modelKeys = Object.keys(model);
  const documentKeys = Object.keys(documents);
  for (const key of modelKeys) {
    const at = `${pointer}/${escape(key)}`;
    if (!(key in documents)) out.push(`${at}: in the model only (${show(model[key])})`);
    else diffValues(model[key], documents[key], at, out);
  }
  for (const key of documentKeys) {
    if (!(key in model)) {
      out.push(`${pointer}/${escape(key)}: in the documents only (${show(documents[key])})`);
    }
  }
  const shared = modelKeys.filter((key) => key in documents);
  const order = documentKeys.filter((key) => key in model);
  if (shared.join('\0') !== order.join('\0')) out.push(`${pointer || '/'}: member order differs`);
}

function diffValues(model: unknown, documents: unknown, pointer: string, out: string[]): void {
  if (isObject(model) && isObject(documents)) return diffObjects(model, documents, pointer, out);
  if (Array.isArray(model) && Array.isArray(documents) && model.length === documents.length) {
    model.forEach((item, i) => diffValues(item, documents[i], `${pointer}/${i}`, out));
    return;
  }
  if (JSON.stringify(model) !== JSON.stringify(documents)) {
    out.push(`${pointer || '/'}: differs (model: ${show(model)}, documents: ${show(documents)})`);
  }
}

/** Every difference between `model` (committed) and `documents` (regenerated); [] when equal. */
export function describeDrift(model: unknown, documents: unknown): string[] {
  const out: string[] = [];
  diffValues(model, documents, '', out);
  return out;
}
