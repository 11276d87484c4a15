/**
 * The platform side of the test's throwaway kind, Gadget (test/unit/controllers/fixtures/
 * gadget/): a CRUD surface a test installs in cdn-sim (`SimulatorOptions.testRoutes`), never
 * part of the simulator's documented API. A gadget has an integer id, a name that is not unique
 * (so a lost create is recovered only by its provisional name), a size, and a read-only serial:
 *
 * - `GET /gadgets` (`{items}`), `GET /gadgets/{id}`, `POST /gadgets` (201, the gadget),
 *   `PATCH /gadgets/{id}` (the members given; the gadget), `DELETE /gadgets/{id}` (204);
 * - 400 with field errors for a bad name or size, or any other member (the serial is read-only);
 *   404 for an unknown id. Errors in the Magic Containers shape (ProblemDetails).
 */
import { validationProblem, problem, type FieldError } from '../../src/simulator/errors.js';
import type { RouteDef, SimRequest, SimResponse } from '../../src/simulator/types.js';

/** A gadget as the platform answers it. */
export interface GadgetRecord {
  id: number;
  name: string;
  size: number;
  /** Set by the platform at create; never written by a request. */
  serial: string;
}

const WRITABLE = new Set(['name', 'size']);

/** Field errors of a create (`all`: name and size required) or a patch body. */
function problemsOf(body: unknown, all: boolean): FieldError[] {
  if (typeof body !== 'object' || body === null) return [{ field: 'body', message: 'required' }];
  const b = body as Record<string, unknown>;
  const out: FieldError[] = Object.keys(b)
    .filter((k) => !WRITABLE.has(k))
    .map((k) => ({ field: k, message: 'is not a writable member of a gadget' }));
  const { name, size } = b;
  if ((all || name !== undefined) && !(typeof name === 'string' && /^.{1,64}$/u.test(name)))
    out.push({ field: 'name', message: 'must be 1 to 64 characters' });
  if ((all || size !== undefined) && !(Number.isInteger(size) && (size as number) >= 1))
    out.push({ field: 'size', message: 'must be an integer of at least 1' });
  return out;
}

/** The CRUD routes of one platform's gadgets (each call of this function: a new platform). */
export function gadgetRoutes(): RouteDef[] {
  const gadgets = new Map<number, GadgetRecord>();
  let next = 1;
  const missing = (req: SimRequest): SimResponse =>
    problem(404, 'Not Found', `gadget ${req.params.id} not found`, req.path);
  const found = (req: SimRequest): GadgetRecord | undefined => gadgets.get(Number(req.params.id));
  const route = (method: string, template: string, handler: RouteDef['handler']): RouteDef => ({
    method,
    template,
    area: 'mc',
    handler,
  });
  return [
    route('GET', '/gadgets', () => ({ status: 200, body: { items: [...gadgets.values()] } })),
    route('GET', '/gadgets/{id}', (req) => {
      const g = found(req);
      return g ? { status: 200, body: g } : missing(req);
    }),
    route('POST', '/gadgets', (req) => {
      const errors = problemsOf(req.body, true);
      if (errors.length > 0) return validationProblem(400, req.path, errors);
      const id = next++;
      const g = { id, ...(req.body as Pick<GadgetRecord, 'name' | 'size'>), serial: `G-${id}` };
      gadgets.set(id, g);
      return { status: 201, body: g };
    }),
    route('PATCH', '/gadgets/{id}', (req) => {
      const g = found(req);
      if (!g) return missing(req);
      const errors = problemsOf(req.body, false);
      if (errors.length > 0) return validationProblem(400, req.path, errors);
      Object.assign(g, req.body);
      return { status: 200, body: g };
    }),
    route('DELETE', '/gadgets/{id}', (req) =>
      gadgets.delete(Number(req.params.id)) ? { status: 204 } : missing(req),
    ),
  ];
}
