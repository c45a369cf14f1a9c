import type { AppContext, KvCache, OutboundGuard } from '@im/sdk';
import type { IntegrationDirectory } from './directory.ts';
import type { IntegrationModels } from './models.ts';

/** What the integration service's actions share. */
export interface IntegrationDeps {
  app: AppContext;
  models: IntegrationModels;
  /** Every request to a hook's or command's URL goes through it. */
  outbound: OutboundGuard;
  /** Each group's outgoing hooks, commands and bots, as event handling and sends need them. */
  directory: IntegrationDirectory;
  /** Command response URLs waiting for their late answers. */
  responses: KvCache;
  /** Where this server is reached, for the response URLs handed to commands. */
  publicUrl: string;
}
