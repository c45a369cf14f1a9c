import { createGatewayService } from '@im/gateway';
import type { ServiceFactory, ServiceName } from '@im/sdk';
import { createCallService } from '@im/service-call';
import { createChatService } from '@im/service-chat';
import { createFileService } from '@im/service-file';
import { createGroupService } from '@im/service-group';
import { createImportService } from '@im/service-import';
import { createIntegrationService } from '@im/service-integration';
import { createMailService } from '@im/service-mail';
import { createModerationService } from '@im/service-moderation';
import { createPushService } from '@im/service-push';
import { createUserService } from '@im/service-user';

/** Every service a node can run, by the name SERVICES uses. */
export const SERVICE_FACTORIES: Record<ServiceName, ServiceFactory> = {
  gateway: createGatewayService,
  user: createUserService,
  group: createGroupService,
  chat: createChatService,
  file: createFileService,
  push: createPushService,
  moderation: createModerationService,
  integration: createIntegrationService,
  mail: createMailService,
  call: createCallService,
  import: createImportService,
};
