import { createHash } from 'node:crypto';
import type { Message, WebhookEventBody } from '@im/protocol';
import { call, isDuplicateKeyError, type DeliveryQueue, type EventContext } from '@im/sdk';
import { Types } from 'mongoose';
import { capBacklog, trimEvery } from './backlog.ts';
import type { IntegrationDeps } from './deps.ts';
import type { DeliveryDoc, OutgoingHookDoc } from './models.ts';
import type { WebhookJobData } from './webhook-job.ts';

/** Whether the message starts with one of the hook's trigger words (any message when it has none). */
const triggers = (hook: OutgoingHookDoc, content: string): boolean => {
  if (hook.triggerWords.length === 0) return true;
  const first = content.trimStart().split(/\s/, 1)[0] ?? '';
  return hook.triggerWords.includes(first);
};

/** Who answers for a hook: whoever holds its secret (its maker until someone renews it). */
const holderOf = (hook: OutgoingHookDoc): string => (hook.secretHolder ?? hook.createdBy).toHexString();

/**
 * The hooks whose holder may read the message's converse: a hook sends out
 * only what the member answering for it could read, so a private panel's
 * messages reach a group-wide hook only when that member sees the panel (one
 * cached call for all of them; in a panel everyone sees, every holder who is
 * still a member does).
 */
async function readableByMaker(
  ctx: EventContext<'chat.message.created'>,
  converseId: string,
  hooks: OutgoingHookDoc[],
): Promise<OutgoingHookDoc[]> {
  if (hooks.length === 0) return hooks;
  const userIds = [...new Set(hooks.map(holderOf))];
  const found = await call(ctx, 'group.converseMembers', { converseId, userIds });
  return found ? hooks.filter((h) => found.roles[holderOf(h)] !== undefined) : [];
}

/**
 * The same id for the same message and hook on every node: each node of the
 * service hears the event, and only the first to write the log entry queues
 * the delivery.
 */
const deliveryIdOf = (messageId: string, hookId: string): Types.ObjectId =>
  new Types.ObjectId(createHash('sha256').update(`${messageId}:${hookId}`).digest('hex').slice(0, 24));

/**
 * On each new message of a group with outgoing hooks: a log entry and a
 * queued delivery per matching hook that is not disabled. Messages of the
 * group's bots are not sent (a hook's own answer must not call it again).
 * A failing hook keeps at most WEBHOOK_MAX_WAITING deliveries waiting: the
 * older ones are marked dropped (a healthy one has next to none waiting, so
 * only failing ones pay for trimming, and only every trimEvery deliveries).
 */
export const webhookDispatcher = (
  { app, models, directory }: Pick<IntegrationDeps, 'app' | 'models' | 'directory'>,
  queue: () => DeliveryQueue<WebhookJobData> | undefined,
) => {
  const max = app.config.webhookMaxWaiting;
  const every = trimEvery(max);
  /** Per failing hook: deliveries recorded on this node since its backlog was last trimmed. */
  const sinceTrim = new Map<string, number>();
  const trim = async (hook: OutgoingHookDoc) => {
    const key = hook._id.toHexString();
    const count = (sinceTrim.get(key) ?? 0) + 1;
    if (count < every) {
      sinceTrim.set(key, count);
      return;
    }
    sinceTrim.delete(key);
    await capBacklog(models, hook._id, max - every + 1, max);
  };

  return async (ctx: EventContext<'chat.message.created'>): Promise<void> => {
    if (ctx.params.kind !== 'group') return;
    const { message, groupId } = ctx.params;
    const group = await directory.forGroup(groupId);
    if (group.outgoing.length === 0 || group.botIds.has(message.authorId)) return;
    const matching = group.outgoing.filter(
      (h) =>
        !h.disabled &&
        (!h.converseId || h.converseId.toHexString() === message.converseId) &&
        triggers(h, message.content),
    );
    const hooks = await readableByMaker(ctx, message.converseId, matching);
    const jobs: WebhookJobData[] = [];
    for (const hook of hooks) {
      const job = await recordDelivery(models, hook, groupId, message);
      if (job) jobs.push(job);
      if (job && hook.failingSince) await trim(hook);
    }
    await queue()?.enqueue(jobs);
  };
};

async function recordDelivery(
  models: IntegrationDeps['models'],
  hook: OutgoingHookDoc,
  groupId: string,
  message: Message,
): Promise<WebhookJobData | null> {
  const id = deliveryIdOf(message.id, hook._id.toHexString());
  const event: Omit<WebhookEventBody, 'timestamp'> = {
    event: 'message.created',
    deliveryId: id.toHexString(),
    groupId,
    converseId: message.converseId,
    message,
  };
  const body = JSON.stringify(event);
  const doc: DeliveryDoc = {
    _id: id,
    hookId: hook._id,
    groupId: hook.groupId,
    event: 'message.created',
    status: 'pending',
    attempts: 0,
    at: new Date(),
    body,
  };
  try {
    await models.deliveries.collection.insertOne(doc);
  } catch (err) {
    if (isDuplicateKeyError(err)) return null; // another node has it
    throw err;
  }
  return { ...toJob(doc), body };
}

/** A job for a log entry, without its body (read at the attempt). */
export const toJob = (doc: Pick<DeliveryDoc, '_id' | 'hookId' | 'groupId' | 'at'>): WebhookJobData => ({
  deliveryId: doc._id.toHexString(),
  hookId: doc.hookId.toHexString(),
  groupId: doc.groupId.toHexString(),
  at: doc.at.getTime(),
});
