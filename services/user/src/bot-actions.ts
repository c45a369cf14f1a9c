import { randomBytes } from 'node:crypto';
import type { Bot } from '@im/protocol';
import { announce, EVENTS, isDuplicateKeyError, type ActionParams, type ActionResult, type Ctx } from '@im/sdk';
import { Types } from 'mongoose';
import type { UserDeps } from './deps.ts';
import type { UserDoc } from './models.ts';
import { userParams } from './params.ts';
import { endSessions } from './session-actions.ts';
import { retireAccount } from './usernames.ts';
import { toPublicUser } from './views.ts';

/** Bot tokens live until the bot is removed or given a new token (their session is what ends them). */
const BOT_TOKEN_TTL_SEC = 10 * 365 * 86400;

const toBot = (doc: UserDoc): Bot => ({
  id: doc._id.toHexString(),
  username: doc.username,
  nickname: doc.nickname,
  groupId: doc.bot!.groupId.toHexString(),
  createdBy: doc.bot!.createdBy.toHexString(),
  createdAt: doc.createdAt.toISOString(),
  ...(doc.bot!.managedBy
    ? { managedBy: { kind: doc.bot!.managedBy.kind, id: doc.bot!.managedBy.id.toHexString() } }
    : {}),
});

/** `bot-<name>-<4 hex>`: readable, and free whatever other bots are called. */
const botUsername = (name: string): string => {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 20);
  return `bot-${slug || 'bot'}-${randomBytes(2).toString('hex')}`;
};

/**
 * Bots: users of one group, without a password. A bot's token is a login
 * session of years whose JWT names the group (`grp`); giving a new token or
 * removing the bot revokes the session, which every gateway hears at once.
 */
export const botActions = (deps: UserDeps) => {
  const { users, sessions, tokens } = deps;

  const issueToken = async (doc: UserDoc): Promise<string> => {
    const session = await sessions.open(doc._id, undefined, 'bot', BOT_TOKEN_TTL_SEC);
    return tokens.sign(doc._id.toHexString(), session._id.toHexString(), {
      ttlSeconds: BOT_TOKEN_TTL_SEC,
      botGroupId: doc.bot!.groupId.toHexString(),
    });
  };

  const liveBot = (groupId: string, botId: string) =>
    users.findOne({ _id: botId, 'bot.groupId': new Types.ObjectId(groupId), status: 'active' }).lean<UserDoc>();

  return {
    createBot: {
      visibility: 'public' as const,
      params: userParams.createBot,
      async handler(ctx: Ctx<ActionParams<'user.createBot'>>): Promise<ActionResult<'user.createBot'>> {
        const { groupId, name, createdBy, managedBy } = ctx.params;
        for (let attempt = 0; ; attempt += 1) {
          const doc: UserDoc = {
            _id: new Types.ObjectId(),
            username: botUsername(name),
            nickname: name,
            nicknameLower: name.toLowerCase(),
            // No password can match an empty hash: bots cannot log in.
            passwordHash: '',
            status: 'active',
            bot: {
              groupId: new Types.ObjectId(groupId),
              createdBy: new Types.ObjectId(createdBy),
              ...(managedBy ? { managedBy: { kind: managedBy.kind, id: new Types.ObjectId(managedBy.id) } } : {}),
            },
            createdAt: new Date(),
          };
          try {
            await users.collection.insertOne(doc);
          } catch (err) {
            // Four random hex digits may clash: another name, a few times.
            if (isDuplicateKeyError(err) && attempt < 5) continue;
            throw err;
          }
          return { user: toPublicUser(doc), ...(managedBy ? {} : { token: await issueToken(doc) }) };
        }
      },
    },

    botToken: {
      visibility: 'public' as const,
      params: userParams.botRef,
      async handler(ctx: Ctx<ActionParams<'user.botToken'>>): Promise<ActionResult<'user.botToken'>> {
        const doc = await liveBot(ctx.params.groupId, ctx.params.botId);
        if (!doc || doc.bot?.managedBy) return null;
        await endSessions(deps, ctx, ctx.params.botId);
        return { user: toPublicUser(doc), token: await issueToken(doc) };
      },
    },

    /** For the integration service: a bot whose maker is no longer an admin keeps no working token. */
    endBotToken: {
      visibility: 'public' as const,
      params: userParams.botRef,
      async handler(ctx: Ctx<ActionParams<'user.endBotToken'>>): Promise<ActionResult<'user.endBotToken'>> {
        const doc = await liveBot(ctx.params.groupId, ctx.params.botId);
        if (!doc || doc.bot?.managedBy) return false;
        await endSessions(deps, ctx, ctx.params.botId);
        return true;
      },
    },

    removeBot: {
      visibility: 'public' as const,
      params: userParams.botRef,
      async handler(ctx: Ctx<ActionParams<'user.removeBot'>>): Promise<ActionResult<'user.removeBot'>> {
        const { groupId, botId } = ctx.params;
        // `bot` is a mixed field: its ids are not cast from strings.
        const doc = await retireAccount(users, {
          _id: botId,
          'bot.groupId': new Types.ObjectId(groupId),
          status: 'active',
        });
        if (!doc) return false;
        // Gateways refuse the user's tokens from this event on, then close its sockets.
        announce(ctx, EVENTS.userDeactivated, { userId: botId });
        await endSessions(deps, ctx, botId);
        return true;
      },
    },

    listBots: {
      visibility: 'public' as const,
      params: userParams.listBots,
      async handler(ctx: Ctx<ActionParams<'user.listBots'>>): Promise<ActionResult<'user.listBots'>> {
        const docs = await users
          .find({ 'bot.groupId': new Types.ObjectId(ctx.params.groupId), status: 'active' })
          .sort({ _id: 1 })
          .limit(500)
          .lean<UserDoc[]>();
        return docs.map(toBot);
      },
    },
  };
};
