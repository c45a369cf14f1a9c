import type { HookPosted, IncomingWebhook, IncomingWebhookWithUrl } from '@im/protocol';
import { callerId, type Params, type Ctx, limitReached, invalid, defineActions, notFound } from '@im/sdk';
import { Types } from 'mongoose';
import { requireIntegrationManager, requirePanel, withNewSecret } from './access.ts';
import { changed, makeBot, removeBot } from './bots.ts';
import type { IntegrationDeps } from './deps.ts';
import type { IncomingHookDoc } from './models.ts';
import { integrationParams as p } from './params.ts';
import { postAsBot } from './post-as-bot.ts';
import { newSecret, sameSecret } from './signing.ts';
import { slackPostToMarkdown } from './slack/payload.ts';
import { toIncoming, toIncomingWithUrl } from './views.ts';

/** At most this many incoming hooks per group. */
const MAX_PER_GROUP = 50;
/** A message's longest content: a longer post is cut there (losing its end rather than all of it). */
const MAX_CONTENT = 4000;

const toContent = (markdown: string) =>
  markdown.length > MAX_CONTENT ? `${markdown.slice(0, MAX_CONTENT - 1)}…` : markdown;

/**
 * Incoming webhooks: a URL with a secret in it that posts Slack-style
 * `{text}` (with `attachments` or `blocks`, shown as Markdown) into one
 * panel, as the hook's own bot.
 */
export const incomingActions = (deps: IntegrationDeps) => {
  const { models } = deps;
  const load = async (groupId: string, hookId: string) => {
    const hook = await models.incoming.findOne({ _id: hookId, groupId }).lean<IncomingHookDoc>();
    if (!hook) throw notFound('webhook');
    return hook;
  };

  return defineActions('integration', {
    createIncoming: {
      params: p.createIncoming,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof p.createIncoming>>): Promise<IncomingWebhookWithUrl> {
        const { groupId, panelId, name } = ctx.params;
        await requireIntegrationManager(ctx, groupId);
        const panel = await requirePanel(ctx, groupId, panelId);
        if ((await models.incoming.countDocuments({ groupId })) >= MAX_PER_GROUP)
          throw limitReached(`A group has at most ${MAX_PER_GROUP} incoming webhooks`);
        const _id = new Types.ObjectId();
        const { user } = await makeBot(deps, ctx, groupId, name, { kind: 'incoming', id: _id.toHexString() });
        const doc: IncomingHookDoc = {
          _id,
          groupId: new Types.ObjectId(groupId),
          panelId: new Types.ObjectId(panelId),
          converseId: new Types.ObjectId(panel.converseId),
          name,
          botId: new Types.ObjectId(user.id),
          secret: newSecret(),
          createdBy: new Types.ObjectId(callerId(ctx)),
          createdAt: new Date(),
        };
        await models.incoming.collection.insertOne(doc);
        changed(ctx, groupId);
        return toIncomingWithUrl(doc);
      },
    },

    listIncoming: {
      params: p.listIncoming,
      async handler(ctx: Ctx<Params<typeof p.listIncoming>>): Promise<IncomingWebhook[]> {
        await requireIntegrationManager(ctx, ctx.params.groupId);
        const docs = await models.incoming
          .find({ groupId: ctx.params.groupId })
          .sort({ _id: 1 })
          .lean<IncomingHookDoc[]>();
        return docs.map(toIncoming);
      },
    },

    rotateIncoming: {
      params: p.incomingRef,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof p.incomingRef>>): Promise<IncomingWebhookWithUrl> {
        await requireIntegrationManager(ctx, ctx.params.groupId);
        const { groupId, hookId } = ctx.params;
        return toIncomingWithUrl(await withNewSecret(models.incoming, groupId, hookId, 'webhook', callerId(ctx)));
      },
    },

    removeIncoming: {
      params: p.incomingRef,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof p.incomingRef>>): Promise<void> {
        const { groupId, hookId } = ctx.params;
        await requireIntegrationManager(ctx, groupId);
        const hook = await load(groupId, hookId);
        await models.incoming.deleteOne({ _id: hook._id });
        await removeBot(deps, ctx, groupId, hook.botId.toHexString());
        changed(ctx, groupId);
      },
    },

    /** `POST /hooks/:hookId/:secret`: no token, the secret is the credential. A wrong one is 404, like no hook. */
    postToHook: {
      params: p.postToHook,
      rateLimit: 'hook',
      async handler(ctx: Ctx<Params<typeof p.postToHook>>): Promise<HookPosted> {
        const { hookId, secret, text, content, username, attachments, blocks } = ctx.params;
        const hook = Types.ObjectId.isValid(hookId)
          ? await models.incoming.findById(hookId).lean<IncomingHookDoc>()
          : null;
        // Suspended (its maker is no longer an admin): as if there were no such hook.
        if (!hook || !sameSecret(secret, hook.secret) || hook.suspendedAt) throw notFound('webhook');
        const body = content ?? toContent(slackPostToMarkdown({ text, attachments, blocks }));
        if (!body)
          throw invalid("'text' is required", [{ field: 'text', type: 'required', message: "'text' is required" }]);
        const message = await postAsBot(
          ctx,
          { botId: hook.botId.toHexString(), groupId: hook.groupId.toHexString() },
          hook.converseId.toHexString(),
          body,
          username,
        );
        return { messageId: message.id };
      },
    },
  });
};
