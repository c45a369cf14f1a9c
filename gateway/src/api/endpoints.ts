import type { Endpoint } from '@im/sdk';
import { callEndpoints } from '@im/service-call/endpoints';
import { chatEndpoints } from '@im/service-chat/endpoints';
import { fileEndpoints } from '@im/service-file/endpoints';
import { groupEndpoints } from '@im/service-group/endpoints';
import { importServiceEndpoints } from '@im/service-import/endpoints';
import { integrationEndpoints } from '@im/service-integration/endpoints';
import { moderationEndpoints } from '@im/service-moderation/endpoints';
import { pushEndpoints } from '@im/service-push/endpoints';
import { userEndpoints } from '@im/service-user/endpoints';
import { gatewayEndpoints } from '../endpoints.ts';

/**
 * Every public HTTP endpoint, as each service declares its own beside its
 * actions: the gateway mounts these and documents them at /api/openapi.json.
 */
export const API_ENDPOINTS: readonly Endpoint[] = [
  ...userEndpoints,
  ...groupEndpoints,
  ...chatEndpoints,
  ...gatewayEndpoints,
  ...fileEndpoints,
  ...pushEndpoints,
  ...moderationEndpoints,
  ...integrationEndpoints,
  ...callEndpoints,
  ...importServiceEndpoints,
];
