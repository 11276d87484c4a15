/**
 * Small path router: templates with `{param}` segments, literal segments win over parameters
 * (so `/pullzone/loadFreeCertificate` beats `/pullzone/{id}`).
 */
/** Anything with a method and a templated path. */
export interface RouteLike {
  method: string;
  template: string;
}

interface CompiledRoute<R extends RouteLike> {
  route: R;
  segments: string[];
  /** Number of literal segments, for precedence. */
  literals: number;
}

/** Result of matching a path. */
export type RouteMatch<R extends RouteLike> =
  | { kind: 'found'; route: R; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function isParam(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}');
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const a = actual[i] as string;
    if (isParam(p)) params[p.slice(1, -1)] = safeDecode(a);
    else if (p !== a) return undefined;
  }
  return params;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Routes indexed by segment count; match() is O(routes of that length). */
export class Router<R extends RouteLike> {
  private readonly bySize = new Map<number, CompiledRoute<R>[]>();

  constructor(routes: readonly R[]) {
    for (const route of routes) {
      const segments = splitPath(route.template);
      const list = this.bySize.get(segments.length) ?? [];
      list.push({ route, segments, literals: segments.filter((s) => !isParam(s)).length });
      list.sort((a, b) => b.literals - a.literals);
      this.bySize.set(segments.length, list);
    }
  }

  /** Finds the route for `method path`. */
  match(method: string, path: string): RouteMatch<R> {
    const actual = splitPath(path);
    const allow: string[] = [];
    for (const candidate of this.bySize.get(actual.length) ?? []) {
      const params = matchSegments(candidate.segments, actual);
      if (!params) continue;
      if (candidate.route.method === method)
        return { kind: 'found', route: candidate.route, params };
      allow.push(candidate.route.method);
    }
    return allow.length > 0 ? { kind: 'method-not-allowed', allow } : { kind: 'not-found' };
  }
}
