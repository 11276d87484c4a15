/**
 * Operations the official documents have and cdn-sim does not simulate (billing, statistics,
 * WAF engine configuration, ...): each answers 501 with a
 * body in the area's error shape naming the route. A bare 404 would read as "the resource is
 * gone" and make a client drop it from its state; 501 says the simulator cannot answer. Paths no
 * document has still answer 404.
 */
import { apiError, errorDetails, shieldError, usesApiErrorData } from '../errors.js';
import type { ApiDocuments } from '../documents/load.js';
import { routeTemplate } from '../documents/request-check.js';
import type { Area, RouteDef, SimRequest, SimResponse } from '../types.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const AREAS: readonly Area[] = ['core', 'mc', 'shield', 'compute'];

/** The error key of a 501 (core and compute `ErrorKey`, shield `errorKey`). */
export const NOT_SIMULATED = 'simulator.not_simulated';

function notSimulated(area: Area, method: string, template: string) {
  const message = `${method} ${template} is documented, but cdn-sim does not simulate it`;
  return (req: SimRequest): SimResponse => {
    if (usesApiErrorData(area)) return apiError(501, NOT_SIMULATED, '', message);
    if (area === 'mc') return errorDetails(501, 'Not Implemented', message, req.path);
    return shieldError(501, NOT_SIMULATED, message);
  };
}

/** A 501 route for every documented operation `simulated` does not list. */
export function unsimulatedRoutes(
  documents: ApiDocuments,
  simulated: readonly RouteDef[],
): RouteDef[] {
  const known = new Set(simulated.map((r) => `${r.method} ${r.template}`));
  const out: RouteDef[] = [];
  for (const area of AREAS) {
    for (const [path, item] of Object.entries(documents[area].paths as Record<string, object>)) {
      const template = routeTemplate(area, path);
      for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
        const upper = method.toUpperCase();
        if (known.has(`${upper} ${template}`)) continue;
        out.push({ method: upper, template, area, handler: notSimulated(area, upper, template) });
      }
    }
  }
  return out;
}
