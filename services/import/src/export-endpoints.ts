import type { Endpoint } from '@im/sdk';

/** The public HTTP endpoints of group and personal exports. */
export const exportEndpoints: Endpoint[] = [];
