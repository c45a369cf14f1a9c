import type { ConverseAccess, Message, PublicUser, Reaction } from '@im/protocol';
import {
  announce,
  call,
  callerId,
  conflict,
  EVENTS,
  forbidden,
  invalid,
  isDuplicateKeyError,
  limitReached,
  notFound,
  requirePermission,
  type ActionParams,
  type ActionResult,
  type Ctx,
  type Params,
  defineActions,
} from '@im/sdk';
import { Types } from 'mongoose';
import type { ChatDeps } from '../deps.ts';
import { refuseMuted, refuseUnableToPost } from '../converses/access.ts';
import { refuseBlockedDmSend } from '../converses/blocked-dm.ts';
import { refuseUnknownCustomEmoji } from './custom-emoji.ts';
import { refuseMixedAround } from '../store/around.ts';
import { mentioned } from '../mentions.ts';
import { manyMentions } from './mention-many.ts';
import { messageViews } from './message-views.ts';
import { dropPreviewImage } from '../previews/preview-image.ts';
import { parseSlash, type Slash } from './slash.ts';
import { newPoll } from '../polls/poll-body.ts';
import { MAX_REACTION_KINDS } from '../store/message-changes.ts';
import type { MessageDoc, ReactionDoc } from '../models.ts';
import { chatParams } from '../params.ts';
import { scheduleLater } from '../schedule/schedule-actions.ts';
import { audience, createdAudience, toMessage } from './views.ts';

const onlyBots = () =>
  invalid("'username' is for bots only", [
    { field: 'username', type: 'forbidden', message: "'username' is for bots only" },
  ]);

type SlashCommandCall = Extract<Slash, { kind: 'command' }>;

const contentRequired = () =>
  invalid("'content' is required (but with a poll)", [
    { field: 'content', type: 'required', message: "'content' is required (but with a poll)" },
  ]);

const reusedClientMsgId = () => conflict('This clientMsgId was already used for another converse');

export const messageActions = (deps: ChatDeps) => {
  const { models, store, access, audit, threads, voters } = deps;
  /** Messages as the caller sees them (their own reactions marked). */
  const views = (docs: MessageDoc[], userId: string) => messageViews(models, docs, userId, voters);

  /** The message's reactions as the caller sees them, after a change. */
  const reactionsOf = async (current: MessageDoc | null, userId: string): Promise<Reaction[]> => {
    if (!current) throw notFound('message');
    const [view] = await views([current], userId);
    return view!.reactions;
  };

  /**
   * Empties the message, keeping its seq, then tells the converse; a
   * deletion by someone other than the author goes into the audit log.
   */
  const deleteMessage = async (ctx: Ctx<object>, doc: MessageDoc, converse: ConverseAccess, actorId: string) => {
    if (doc.deleted) return;
    const gone = await store.change.tombstone(doc);
    if (!gone) return;
    // Its link preview's image goes with it (the file service gives the author's quota back).
    await dropPreviewImage(ctx, gone.before.preview);
    const { root } = gone;
    const messageId = doc._id.toHexString();
    announce(ctx, EVENTS.messageDeleted, {
      converseId: doc.converseId.toHexString(),
      messageId,
      seq: doc.seq,
      ...audience(converse),
    });
    if (root) announce(ctx, EVENTS.messageUpdated, { message: toMessage(root), ...audience(converse) });
    const authorId = doc.authorId.toHexString();
    if (authorId !== actorId)
      await audit.record(actorId, {
        action: 'message.delete',
        target: { type: 'message', id: messageId },
        ...(converse.kind === 'group' ? { groupId: converse.groupId } : {}),
        details: { converseId: doc.converseId.toHexString(), authorId, seq: doc.seq },
      });
  };

  /**
   * `/trigger text` in a group panel: the group's command runs instead of a
   * send (the caller must be able to post there). Null: the group has no
   * such command, or no node runs integrations; the text is then sent as is.
   */
  const runCommand = async (ctx: Ctx<object>, converseId: string, userId: string, slash: SlashCommandCall) => {
    const converse = await access.require(ctx, converseId, userId);
    refuseUnableToPost(converse);
    if (converse.kind !== 'group') return null;
    try {
      return await call(ctx, 'integration.runCommand', {
        groupId: converse.groupId,
        converseId,
        userId,
        trigger: slash.trigger,
        text: slash.text,
      });
    } catch (err) {
      if ((err as Error).name === 'ServiceNotFoundError') return null;
      throw err;
    }
  };

  /** A clientMsgId already used for another converse is a 409 before anything is attached. */
  const refuseReusedClientMsgId = async (dedupeKey: string, converseId: string) => {
    const earlier = await store.read.converseOfDedupeKey(dedupeKey);
    if (earlier !== undefined && earlier !== converseId) throw reusedClientMsgId();
  };

  return defineActions('chat', {
    /**
     * A send costs at most three calls, whatever it says: the mentioned
     * usernames' ids (only when it mentions someone), one membership check
     * for the sender and all of them, and one file call that checks and
     * attaches its files (all the sender's, or none is attached).
     */
    send: {
      params: chatParams.send,
      rateLimit: 'send',
      async handler(ctx: Ctx<ActionParams<'chat.send'>>): Promise<ActionResult<'chat.send'>> {
        const userId = callerId(ctx);
        const { converseId, clientMsgId, replyTo, threadId, attachments = [], username } = ctx.params;
        const bot = ctx.meta.user?.botGroupId !== undefined;
        if (ctx.params.sendAt !== undefined) return scheduleLater(deps, ctx);
        if (username !== undefined && !bot) throw onlyBots();
        // A poll's text is its question (what search, feeds, previews and notifications show).
        const poll = ctx.params.poll ? newPoll(ctx.params.poll) : undefined;
        const text = poll ? poll.question : ctx.params.content;
        if (text === undefined) throw contentRequired();
        // Bots' text is never a command: a bot answering a command cannot call another; a poll is never one.
        const slash = bot || poll ? undefined : parseSlash(text);
        if (slash?.kind === 'command') {
          const accepted = await runCommand(ctx, converseId, userId, slash);
          if (accepted) return accepted;
        }
        const content = slash?.kind === 'builtin' ? slash.content : text;
        const written = await mentioned(ctx, content);
        const { access: converse, members: mentions } = await access.requireWithMembers(
          ctx,
          converseId,
          userId,
          written.userIds,
          written.handles,
        );
        refuseUnableToPost(converse);
        await refuseBlockedDmSend(ctx, converse, userId);
        const many = await manyMentions(ctx, converse, userId, content);
        if (replyTo && !(await store.read.existsIn(converseId, replyTo)))
          throw notFound('message', "'replyTo' names no message of this converse");
        const root = threadId ? await threads.requireRoot(converseId, threadId) : undefined;
        // The sender shares these files with the converse: attached before the write, so a
        // stored message never names a file its readers cannot open (a retry attaches again).
        const fileIds = [...new Set(attachments)];
        let imageAttached = false;
        if (fileIds.length > 0) {
          if (clientMsgId) await refuseReusedClientMsgId(`${userId}:${clientMsgId}`, converseId);
          const files = await call(ctx, 'file.attach', { fileIds, userId, converseId });
          imageAttached = files.some((f) => f.mime.startsWith('image/'));
        }
        const { doc, created } = await store.append({
          converseId: new Types.ObjectId(converseId),
          authorId: new Types.ObjectId(userId),
          content,
          mentions: mentions.map((id) => new Types.ObjectId(id)),
          attachments: fileIds.map((id) => new Types.ObjectId(id)),
          ...(imageAttached ? { imageAttached } : {}),
          ...(replyTo ? { replyTo: new Types.ObjectId(replyTo) } : {}),
          ...(root ? { threadId: root._id } : {}),
          ...(clientMsgId ? { clientMsgId, dedupeKey: `${userId}:${clientMsgId}` } : {}),
          ...(username ? { username } : {}),
          ...(slash?.kind === 'builtin' && slash.emote ? { emote: true } : {}),
          ...many.set,
          ...(poll ? { poll } : {}),
        });
        if (doc.converseId.toHexString() !== converseId) throw reusedClientMsgId();
        const message = toMessage(doc);
        if (created) announce(ctx, EVENTS.messageCreated, { message, ...createdAudience(converse) });
        // A retry: whoever stored it may have died before telling anyone.
        else announce(ctx, EVENTS.messageRedelivered, { message, ...audience(converse) });
        // Only the send that stored the reply counts it: a retried clientMsgId must not count twice.
        const updatedRoot = created && root ? await threads.replied(doc, root) : null;
        if (updatedRoot)
          announce(ctx, EVENTS.messageUpdated, { message: toMessage(updatedRoot), ...audience(converse) });
        return message;
      },
    },

    /**
     * History in seq order. `before`: the `limit` messages just below it;
     * `after`: the `limit` just above it; both: the `limit` just above
     * `after` that are below `before` (a gap between two known seqs);
     * `around`: the page centred on it; neither: the newest page.
     */
    history: {
      params: chatParams.history,
      async handler(ctx: Ctx<Params<typeof chatParams.history>>): Promise<Message[]> {
        const userId = callerId(ctx);
        const { converseId, before, after, around, limit = 50 } = ctx.params;
        refuseMixedAround(ctx.params);
        await access.require(ctx, converseId, userId);
        const docs =
          around !== undefined
            ? await store.read.around(converseId, around, limit)
            : await store.read.page(converseId, { before, after, limit });
        return views(docs, userId);
      },
    },

    /**
     * For public pages and feeds, with no caller (the gateway decided who may
     * read): the newest `limit` messages, or those just below `before`, in seq
     * order, deleted ones left out, reactions without `me`.
     */
    feedMessages: {
      visibility: 'public' as const,
      params: chatParams.feedMessages,
      async handler(ctx: Ctx<ActionParams<'chat.feedMessages'>>): Promise<ActionResult<'chat.feedMessages'>> {
        const { converseId, before, limit } = ctx.params;
        return (await store.read.livePage(converseId, before, limit)).map((d) => toMessage(d));
      },
    },

    getMessage: {
      params: chatParams.getMessage,
      async handler(ctx: Ctx<Params<typeof chatParams.getMessage>>): Promise<Message> {
        const userId = callerId(ctx);
        const { doc } = await access.requireMessage(ctx, ctx.params.messageId, userId);
        const [view] = await views([doc], userId);
        return view!;
      },
    },

    edit: {
      params: chatParams.edit,
      rateLimit: 'edit',
      async handler(ctx: Ctx<Params<typeof chatParams.edit>>): Promise<Message> {
        const userId = callerId(ctx);
        const { doc, converse } = await access.requireMessage(ctx, ctx.params.messageId, userId);
        if (doc.authorId.toHexString() !== userId) throw forbidden('Only the author may edit a message');
        if (doc.deleted) throw notFound('message');
        // A poll's text is its question: changing it under the votes would change what they answered.
        if (doc.poll) throw conflict('A poll cannot be edited');
        refuseMuted(converse);
        const written = await mentioned(ctx, ctx.params.content);
        const mentions = await access.membersAmong(ctx, converse, written.userIds, written.handles, userId);
        const many = await manyMentions(ctx, converse, userId, ctx.params.content, doc);
        const edited = await store.change.edit(doc, { content: ctx.params.content, mentions, many });
        if (!edited) throw notFound('message');
        const { updated, droppedPreview } = edited;
        await dropPreviewImage(ctx, droppedPreview);
        const [message] = await views([updated], userId);
        announce(ctx, EVENTS.messageUpdated, { message: toMessage(updated), ...audience(converse) });
        return message!;
      },
    },

    /** Author, or a holder of the group's manageMessages: leaves a tombstone that keeps the seq. */
    remove: {
      params: chatParams.remove,
      rateLimit: 'delete',
      async handler(ctx: Ctx<Params<typeof chatParams.remove>>): Promise<void> {
        const userId = callerId(ctx);
        const { doc, converse } = await access.requireMessage(ctx, ctx.params.messageId, userId);
        const isAuthor = doc.authorId.toHexString() === userId;
        if (!isAuthor) {
          if (converse.kind !== 'group') throw forbidden('Only the author may delete a message here');
          requirePermission(converse.permissions, 'manageMessages');
        }
        await deleteMessage(ctx, doc, converse, userId);
      },
    },

    /**
     * For the moderation service, once it checked that the caller is a
     * server admin: deletes a reported message of a converse the admin is
     * not in (a DM).
     */
    moderatorRemove: {
      visibility: 'public' as const,
      params: chatParams.remove,
      async handler(ctx: Ctx<ActionParams<'chat.moderatorRemove'>>): Promise<ActionResult<'chat.moderatorRemove'>> {
        const actorId = callerId(ctx);
        const doc = await store.read.byId(ctx.params.messageId);
        // The author is in the converse: their access names its audience (a DM's two members).
        const converse = doc
          ? await access.resolve(ctx, doc.converseId.toHexString(), doc.authorId.toHexString())
          : null;
        if (!doc || !converse) throw notFound('message');
        await deleteMessage(ctx, doc, converse, actorId);
      },
    },

    /** One reaction per user per emoji: the unique index decides, the count follows with $inc. */
    react: {
      params: chatParams.react,
      rateLimit: 'react',
      async handler(ctx: Ctx<Params<typeof chatParams.react>>): Promise<Reaction[]> {
        const userId = callerId(ctx);
        const { doc, converse } = await access.requireMessage(ctx, ctx.params.messageId, userId);
        if (doc.deleted) throw notFound('message');
        refuseMuted(converse);
        const { emoji } = ctx.params;
        await refuseUnknownCustomEmoji(ctx, converse, emoji);
        let added = false;
        try {
          await models.reactions.create({ messageId: doc._id, userId, emoji });
          added = true;
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
        }
        let current: MessageDoc | null = doc;
        if (added) {
          current = await store.change.countReaction(doc._id, emoji);
          if (!current) {
            // The message has its 20 kinds already: the reaction is taken back, nothing is left.
            await models.reactions.deleteOne({ messageId: doc._id, userId, emoji });
            throw limitReached(`A message has at most ${MAX_REACTION_KINDS} different reactions`);
          }
        }
        const reactions = await reactionsOf(current, userId);
        if (added)
          announce(
            ctx,
            EVENTS.reactionUpdated,
            reactionEvent(doc, ctx.params.emoji, userId, true, reactions, converse),
          );
        return reactions;
      },
    },

    /** Who reacted with an emoji, earliest first (accounts since deleted are left out). */
    reactors: {
      params: chatParams.reactors,
      async handler(ctx: Ctx<Params<typeof chatParams.reactors>>): Promise<PublicUser[]> {
        const userId = callerId(ctx);
        const { doc } = await access.requireMessage(ctx, ctx.params.messageId, userId);
        const rows = await models.reactions
          .find({ messageId: doc._id, emoji: ctx.params.emoji }, { userId: 1 })
          .sort({ _id: 1 })
          .limit(ctx.params.limit ?? 50)
          .lean<ReactionDoc[]>();
        const ids = rows.map((r) => r.userId.toHexString());
        if (ids.length === 0) return [];
        const users = await call(ctx, 'user.getMany', { ids });
        return ids.flatMap((id) => (users[id] ? [users[id]] : []));
      },
    },

    unreact: {
      params: chatParams.react,
      rateLimit: 'react',
      async handler(ctx: Ctx<Params<typeof chatParams.react>>): Promise<Reaction[]> {
        const userId = callerId(ctx);
        const { doc, converse } = await access.requireMessage(ctx, ctx.params.messageId, userId);
        refuseMuted(converse);
        const { deletedCount } = await models.reactions.deleteOne({
          messageId: doc._id,
          userId,
          emoji: ctx.params.emoji,
        });
        const current = deletedCount > 0 ? await store.change.uncountReaction(doc._id, ctx.params.emoji) : doc;
        const reactions = await reactionsOf(current, userId);
        if (deletedCount > 0)
          announce(
            ctx,
            EVENTS.reactionUpdated,
            reactionEvent(doc, ctx.params.emoji, userId, false, reactions, converse),
          );
        return reactions;
      },
    },
  });
};

/** Counts for everyone; `me` is the reacting user's view, so clients take `userId` into account. */
function reactionEvent(
  doc: MessageDoc,
  emoji: string,
  userId: string,
  added: boolean,
  reactions: Reaction[],
  converse: ConverseAccess,
) {
  return {
    converseId: doc.converseId.toHexString(),
    messageId: doc._id.toHexString(),
    emoji,
    userId,
    added,
    counts: reactions.map(({ emoji: e, count }) => ({ emoji: e, count })),
    ...audience(converse),
  };
}
