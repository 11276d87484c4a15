/**
 * The address an aggregated API server of the e2e listens on. The apiserver reaches an
 * APIService through its Service's endpoints (the control plane routes to endpoints: it has no
 * kube-proxy), and Endpoints and EndpointSlices refuse loopback and link-local addresses, so the
 * server listens on an address of a non-loopback interface of this host: the apiserver dials it
 * like any other local address. Every machine that can fetch the Go modules and npm packages has
 * one; a machine with none gets a clear error.
 */
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

/** The first IPv4 address of a non-internal, non-link-local interface among `interfaces`. */
export function pickHostAddress(
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string {
  for (const infos of Object.values(interfaces)) {
    const found = (infos ?? []).find(
      (i) => i.family === 'IPv4' && !i.internal && !i.address.startsWith('169.254.'),
    );
    if (found) return found.address;
  }
  throw new Error(
    'cannot find an endpoint address for an aggregated API: no non-loopback IPv4 interface (Endpoints refuse loopback addresses)',
  );
}
