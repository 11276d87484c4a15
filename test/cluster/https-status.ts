/** The status of one HTTPS GET, for readiness probes of the local servers. */
import { request, type RequestOptions } from 'node:https';

/** GETs with `options` (2 s timeout); resolves with the status code, 0 when unreachable. */
export function httpsStatus(options: RequestOptions | URL): Promise<number> {
  return new Promise((resolve) => {
    const req = request(options, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(2000, () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}
