import type { Endpoint } from '@im/sdk';
import { exportEndpoints } from './export-endpoints.ts';
import { importEndpoints } from './import-endpoints.ts';

/** Imports and exports: the import service's public HTTP endpoints (the gateway mounts them). */
export const importServiceEndpoints: Endpoint[] = [...importEndpoints, ...exportEndpoints];
