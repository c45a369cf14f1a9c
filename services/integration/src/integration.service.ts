import {
  createCache,
  EVENTS,
  MemoryQueue,
  outboundGuardFor,
  RedisStreamQueue,
  type AppContext,
  type DeliveryQueue,
  type ServiceEvents,
  type ServiceFactory,
  defineActions,
} from '@im/sdk';
import { botActions } from './bot-actions.ts';
import { commandActions } from './command-actions.ts';
import { commandRunner } from './command-runner.ts';
import type { IntegrationDeps } from './deps.ts';
import { IntegrationDirectory } from './directory.ts';
import { forgetGroup } from './group-removal.ts';
import { IntegrationStore } from './store/integration-store.ts';
import { makersOf, suspendForLostPermission } from './maker-recheck.ts';
import { suspendIntegrationsOf } from './maker-removal.ts';
import { incomingActions } from './incoming-actions.ts';
import { integrationModels, WAITING_STATUSES, type DeliveryDoc } from './models.ts';
import { outgoingActions } from './outgoing-actions.ts';
import { toJob, webhookDispatcher } from './webhook-dispatch.ts';
import type { WebhookJobData } from './webhook-job.ts';
import { hookCircuits, webhookSender } from './webhook-sender.ts';

/**
 * Bots, incoming and outgoing webhooks, and slash commands. Outgoing
 * deliveries share the push service's delivery queue (a Redis stream in a
 * cluster; memory on a single instance, where the delivery log in MongoDB
 * brings back what was waiting when the process stopped).
 */
export const createIntegrationService: ServiceFactory = (app: AppContext) => {
  const models = integrationModels(app.mongo!);
  const directory = new IntegrationDirectory(models);
  const deps: IntegrationDeps = {
    app,
    models,
    store: new IntegrationStore(models, directory),
    outbound: outboundGuardFor(app, 'webhooks'),
    directory,
    responses: createCache(app.redis, 'integration:respond:'),
    publicUrl: app.config.publicUrl ?? `http://localhost:${app.config.port}`,
  };
  let queue: DeliveryQueue<WebhookJobData> | undefined;
  const circuits = hookCircuits();

  return {
    name: 'integration',
    async started() {
      await Promise.all(Object.values(models).map((m) => m.createIndexes()));
      const send = webhookSender(deps, this.broker, this.logger, circuits);
      if (app.redis) {
        queue = new RedisStreamQueue<WebhookJobData>(app.redis, this.broker.nodeID, { name: 'webhooks' });
      } else {
        queue = new MemoryQueue<WebhookJobData>();
        // Deliveries waiting when the process stopped are tried again now.
        // Ids only: each attempt reads its body from the entry (at most WEBHOOK_MAX_WAITING per failing hook).
        const waiting = await models.deliveries
          .find({ status: { $in: WAITING_STATUSES } }, { hookId: 1, groupId: 1, at: 1 })
          .lean<Array<Pick<DeliveryDoc, '_id' | 'hookId' | 'groupId' | 'at'>>>();
        await queue.enqueue(waiting.map(toJob));
      }
      queue.start(send, app.config.webhookConcurrency);
    },
    async stopped() {
      await queue?.stop();
      await deps.outbound.close();
    },
    actions: defineActions('integration', {
      ...botActions(deps),
      ...incomingActions(deps),
      ...outgoingActions(deps),
      ...commandActions(deps),
      ...commandRunner(deps),
    }),
    events: {
      [EVENTS.messageCreated]: webhookDispatcher(deps, () => queue),
      [EVENTS.integrationChanged]: (ctx) => {
        deps.store.changedElsewhere(ctx.params.groupId);
        // A hook turned back on or given a new secret is tried at once on this node too.
        if (ctx.params.resetHookId) circuits.success(ctx.params.resetHookId);
      },
      [EVENTS.groupDeleted]: (ctx) => forgetGroup(deps, ctx, ctx.params.groupId),
      // No longer allowed to manage the group's integrations, whichever way: what they made there stops
      // working for them. A plain member may have held manageIntegrations through a role, so every
      // departure counts; a plain member's change (role taken, demotion, mute) is checked against what
      // they may do now, and a change of the roles themselves against every maker in the group.
      [EVENTS.memberLeft]: (ctx) => suspendIntegrationsOf(deps, ctx, ctx.params.groupId, ctx.params.userId),
      [EVENTS.memberUpdated]: (ctx) =>
        ctx.params.role === 'member'
          ? suspendForLostPermission(deps, ctx, ctx.params.groupId, [ctx.params.userId])
          : undefined,
      [EVENTS.rolesUpdated]: async (ctx) =>
        suspendForLostPermission(deps, ctx, ctx.params.groupId, await makersOf(deps, ctx, ctx.params.groupId)),
    } satisfies ServiceEvents,
  };
};
