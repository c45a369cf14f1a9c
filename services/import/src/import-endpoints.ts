import type { Endpoint } from '@im/sdk';

/** Server admins' imports (the upload itself is a streaming route of the gateway). */
export const importEndpoints: Endpoint[] = [];
