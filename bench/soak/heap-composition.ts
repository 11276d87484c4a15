/**
 * What a heap is made of, from a V8 heap snapshot: V8's compiled code and its metadata versus
 * everything else (the program's data). Between two checkpoints of the soak the first grows
 * while the JIT optimises more functions (bounded by the program, not by the number of
 * requests); a leak shows in the second.
 *
 * "Code" here is every snapshot node of type `code` (bytecode, machine code, feedback vectors,
 * deoptimisation data, source positions) plus V8's `system / WeakArrayList`s (the weak lists of
 * code dependencies and retained maps that optimised code registers).
 */
import { readFile, rm } from 'node:fs/promises';
import { writeHeapSnapshot } from 'node:v8';

/** Bytes of the heap by part (self sizes summed). */
export interface HeapComposition {
  codeBytes: number;
  dataBytes: number;
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Classifies a parsed snapshot. */
export function composition(s: Snapshot): HeapComposition {
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const width = fields.length;
  const ti = fields.indexOf('type');
  const ni = fields.indexOf('name');
  const si = fields.indexOf('self_size');
  let codeBytes = 0;
  let dataBytes = 0;
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + ti] as number];
    const size = s.nodes[i + si] as number;
    const isCode =
      type === 'code' ||
      (type === 'hidden' && s.strings[s.nodes[i + ni] as number] === 'system / WeakArrayList');
    if (isCode) codeBytes += size;
    else dataBytes += size;
  }
  return { codeBytes, dataBytes };
}

/** Writes a snapshot of this process to `file`, classifies it and deletes the file. */
export async function measureComposition(file: string): Promise<HeapComposition> {
  const path = writeHeapSnapshot(file);
  try {
    return composition(JSON.parse(await readFile(path, 'utf8')) as Snapshot);
  } finally {
    await rm(path, { force: true });
  }
}
