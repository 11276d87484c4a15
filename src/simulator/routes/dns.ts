/** Every route of the DNS area (`/dnszone...`) and the external-DNS certificate routes. */
import type { RouteDef } from '../types.js';
import { DNS_SEC_ROUTES } from './dns-dnssec.js';
import { DNS_EXTERNAL_CERTIFICATE_ROUTES } from './dns-external-certificate.js';
import { DNS_EXTRA_ROUTES } from './dns-extras.js';
import { DNS_RECORD_ROUTES } from './dns-records.js';
import { DNS_TRANSFER_ROUTES } from './dns-transfer.js';
import { DNS_ZONE_ROUTES } from './dns-zones.js';

/** Routes added by issue 33 (DNS zones and records, certificates that follow DNS). */
export const DNS_ROUTES: RouteDef[] = [
  ...DNS_ZONE_ROUTES,
  ...DNS_RECORD_ROUTES,
  ...DNS_TRANSFER_ROUTES,
  ...DNS_SEC_ROUTES,
  ...DNS_EXTRA_ROUTES,
  ...DNS_EXTERNAL_CERTIFICATE_ROUTES,
];
