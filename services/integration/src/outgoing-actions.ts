import type { OutgoingWebhook, OutgoingWebhookWithSecret, WebhookDelivery } from '@im/protocol';
import { callerId, type Params, type Ctx, limitReached, defineActions, notFound } from '@im/sdk';
import { Types } from 'mongoose';
import { dropWaiting } from './backlog.ts';
import { requireIntegrationManager, requirePanel } from './access.ts';
import { changed, makeBot, removeBot } from './bots.ts';
import type { IntegrationDeps } from './deps.ts';
import type { DeliveryDoc, OutgoingHookDoc } from './models.ts';
import { integrationParams as p } from './params.ts';
import { newSecret } from './signing.ts';
import { toDelivery, toOutgoing } from './views.ts';

const MAX_PER_GROUP = 20;
/** The delivery log shows this many, newest first. */
const LOG_LENGTH = 50;

/** Outgoing webhooks: where new messages of a group (or one panel) are POSTed, signed. */
export const outgoingActions = (deps: IntegrationDeps) => {
  const { models, store, outbound } = deps;
  const load = async (groupId: string, hookId: string) => {
    const hook = await models.outgoing.findOne({ _id: hookId, groupId }).lean<OutgoingHookDoc>();
    if (!hook) throw notFound('webhook');
    return hook;
  };

  return defineActions('integration', {
    createOutgoing: {
      params: p.createOutgoing,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof p.createOutgoing>>): Promise<OutgoingWebhookWithSecret> {
        const { groupId, url, panelId, triggerWords = [] } = ctx.params;
        await requireIntegrationManager(ctx, groupId);
        const panel = panelId ? await requirePanel(ctx, groupId, panelId) : undefined;
        // A destination the guard would refuse is refused now, not at every delivery.
        await outbound.check(url, 'url');
        if ((await models.outgoing.countDocuments({ groupId })) >= MAX_PER_GROUP)
          throw limitReached(`A group has at most ${MAX_PER_GROUP} outgoing webhooks`);
        const name = ctx.params.name ?? new URL(url).host;
        const _id = new Types.ObjectId();
        const { user } = await makeBot(deps, ctx, groupId, name, { kind: 'outgoing', id: _id.toHexString() });
        const doc: OutgoingHookDoc = {
          _id,
          groupId: new Types.ObjectId(groupId),
          ...(panel
            ? { panelId: new Types.ObjectId(panel.panelId), converseId: new Types.ObjectId(panel.converseId) }
            : {}),
          name,
          url,
          triggerWords: [...new Set(triggerWords)],
          secret: newSecret(),
          botId: new Types.ObjectId(user.id),
          createdBy: new Types.ObjectId(callerId(ctx)),
          createdAt: new Date(),
        };
        await store.insertOutgoing(doc);
        changed(ctx, groupId);
        return { ...toOutgoing(doc), secret: doc.secret };
      },
    },

    listOutgoing: {
      params: p.listOutgoing,
      async handler(ctx: Ctx<Params<typeof p.listOutgoing>>): Promise<OutgoingWebhook[]> {
        await requireIntegrationManager(ctx, ctx.params.groupId);
        const docs = await models.outgoing
          .find({ groupId: ctx.params.groupId })
          .sort({ _id: 1 })
          .lean<OutgoingHookDoc[]>();
        return docs.map(toOutgoing);
      },
    },

    rotateOutgoing: {
      params: p.outgoingRef,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof p.outgoingRef>>): Promise<OutgoingWebhookWithSecret> {
        await requireIntegrationManager(ctx, ctx.params.groupId);
        const doc = await store.renewOutgoingSecret(ctx.params.groupId, ctx.params.hookId, 'webhook', callerId(ctx));
        // A new secret (which also lifts a suspension) starts the hook afresh: no circuit left open.
        changed(ctx, ctx.params.groupId, ctx.params.hookId);
        return { ...toOutgoing(doc), secret: doc.secret };
      },
    },

    /** PATCH: an admin turns the hook off, or on again (a hook disabled for failing too long starts afresh). */
    updateOutgoing: {
      params: p.updateOutgoing,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof p.updateOutgoing>>): Promise<OutgoingWebhook> {
        const { groupId, hookId, disabled } = ctx.params;
        await requireIntegrationManager(ctx, groupId);
        const doc = await store.updateOutgoing(
          groupId,
          { _id: hookId },
          disabled ? { $set: { disabled: true } } : { $set: { disabled: false }, $unset: { failingSince: 1 } },
          { new: true },
        );
        if (!doc) throw notFound('webhook');
        if (disabled) await dropWaiting(models, doc._id, 'Dropped: the webhook was turned off');
        // Turned back on: every node forgets its failures, so the next message is not held behind an open circuit.
        changed(ctx, groupId, disabled ? undefined : hookId);
        return toOutgoing(doc);
      },
    },

    removeOutgoing: {
      params: p.outgoingRef,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof p.outgoingRef>>): Promise<void> {
        const { groupId, hookId } = ctx.params;
        await requireIntegrationManager(ctx, groupId);
        const hook = await load(groupId, hookId);
        await store.deleteOutgoing(groupId, hook._id);
        // Deliveries still waiting find no hook and end as failed.
        await removeBot(deps, ctx, groupId, hook.botId.toHexString());
        changed(ctx, groupId);
      },
    },

    deliveries: {
      params: p.outgoingRef,
      async handler(ctx: Ctx<Params<typeof p.outgoingRef>>): Promise<WebhookDelivery[]> {
        await requireIntegrationManager(ctx, ctx.params.groupId);
        const hook = await load(ctx.params.groupId, ctx.params.hookId);
        const docs = await models.deliveries
          .find({ hookId: hook._id }, { body: 0 })
          .sort({ at: -1 })
          .limit(LOG_LENGTH)
          .lean<DeliveryDoc[]>();
        return docs.map(toDelivery);
      },
    },
  });
};
