/**
 * The printer columns `kubectl get` shows for the operator's kinds, read from the
 * installed CRDs (`additionalPrinterColumns`) and evaluated by kubectl itself (custom-columns,
 * the same JSONPath engine), so a test can require every column to be filled.
 */
import { KINDS } from '../../../src/controllers/kinds.js';
import { crdNameOf } from '../../../src/controllers/kind-names.js';
import { kubectl, type KubeOptions } from './kube.js';

interface PrinterColumn {
  name: string;
  jsonPath: string;
}

interface CrdJson {
  spec: {
    names: { kind: string };
    versions: { name: string; served: boolean; additionalPrinterColumns?: PrinterColumn[] }[];
  };
}

/** The CRD name of the kind whose plural is `plural`. */
function crdOfPlural(plural: string): string {
  const kind = KINDS.find((k) => k.plural === plural);
  if (!kind) throw new Error(`cannot find a kind of plural ${plural}`);
  return crdNameOf(kind);
}

/** The printer columns of the served version of the CRD of `plural`. */
async function printerColumns(
  plural: string,
  opts?: KubeOptions,
): Promise<{ kind: string; columns: PrinterColumn[] }> {
  const crd = JSON.parse(
    await kubectl(['get', 'crd', crdOfPlural(plural), '-o', 'json'], undefined, opts),
  ) as CrdJson;
  const version = crd.spec.versions.find((v) => v.served);
  return { kind: crd.spec.names.kind, columns: version?.additionalPrinterColumns ?? [] };
}

/**
 * Every printer column left empty (`<none>`) on the objects of `plurals` in `namespace`, as
 * `Kind/name: COLUMN`; empty when every column of every object is filled.
 */
export async function emptyPrinterColumns(
  plurals: readonly string[],
  namespace: string,
  opts?: KubeOptions,
): Promise<string[]> {
  const empty: string[] = [];
  for (const plural of plurals) {
    const { kind, columns } = await printerColumns(plural, opts);
    const spec = ['NAME:.metadata.name', ...columns.map((c) => `${c.name}:${c.jsonPath}`)];
    const table = await kubectl(
      [
        'get',
        crdOfPlural(plural),
        '-n',
        namespace,
        '--no-headers',
        '-o',
        `custom-columns=${spec.join(',')}`,
      ],
      undefined,
      opts,
    );
    for (const row of table.split('\n').filter((l) => l.trim() !== '')) {
      const [name, ...cells] = row.trim().split(/\s+/);
      columns.forEach((c, i) => {
        const cell = cells[i];
        if (cell === undefined || cell === '<none>') empty.push(`${kind}/${name}: ${c.name}`);
      });
    }
  }
  return empty;
}
