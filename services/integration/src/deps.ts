import type { AppContext, KvCache, OutboundGuard } from '@im/sdk';
import type { IntegrationDirectory } from './directory.ts';
import type { IntegrationStore } from './store/integration-store.ts';
import type { HandlerModels } from './store/reads.ts';

/** The directory's answers; dropping its entries is the store's alone. */
export type DirectoryReads = Omit<IntegrationDirectory, 'forget'>;

/** What the integration service's actions share. */
export interface IntegrationDeps {
  app: AppContext;
  /** Outgoing hooks, commands and bots read-only (their writes are the store's); the rest as they are. */
  models: HandlerModels;
  /** Every write of outgoing hooks, commands and bots, each dropping this node's directory entry. */
  store: IntegrationStore;
  /** Every request to a hook's or command's URL goes through it. */
  outbound: OutboundGuard;
  /** Each group's outgoing hooks, commands and bots, as event handling and sends need them. */
  directory: DirectoryReads;
  /** Command response URLs waiting for their late answers. */
  responses: KvCache;
  /** Where this server is reached, for the response URLs handed to commands. */
  publicUrl: string;
}
