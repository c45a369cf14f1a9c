import { randomUUID } from 'node:crypto';
import type { CommandAccepted, CommandRequestBody, CommandResponse, EphemeralMessage } from '@im/protocol';
import {
  announce,
  EVENTS,
  OutboundRefusedError,
  type ActionParams,
  type ActionResult,
  type Params,
  type Ctx,
  notFound,
} from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type { IntegrationDeps } from './deps.ts';
import type { CommandDoc } from './models.ts';
import { integrationParams as p } from './params.ts';
import { postAsBot } from './post-as-bot.ts';
import { parseAnswer } from './answer.ts';
import { newSecret, signedHeaders } from './signing.ts';

/** How long a send waits for a command's answer before it says "working…". */
const COMMAND_DEADLINE_MS = 3_000;
/** A response URL takes late answers for this long. */
const RESPONSE_URL_TTL_SEC = 30 * 60;
const ANSWER_BYTES = 64 * 1024;

const failed = (why: string) => ({ status: 'failed' as const, why });

/** Where a command's answers go: kept under its response URL's token. */
interface Reply {
  groupId: string;
  converseId: string;
  userId: string;
  botId: string;
  trigger: string;
}

/**
 * Runs slash commands: a signed POST to the command's URL, whose answer
 * (within 3 s, later as it comes, or through the response URL for 30
 * minutes) is posted by the command's bot (`in_channel`) or shown to the
 * caller alone (`message:ephemeral`).
 */
export const commandRunner = (deps: IntegrationDeps) => {
  const { directory, outbound, responses, publicUrl } = deps;

  const deliver = async (broker: ServiceBroker, reply: Reply, answer: CommandResponse): Promise<void> => {
    if (answer.responseType === 'in_channel') {
      await postAsBot(broker, { botId: reply.botId, groupId: reply.groupId }, reply.converseId, answer.text);
      return;
    }
    const message: EphemeralMessage = {
      id: randomUUID(),
      converseId: reply.converseId,
      authorId: reply.botId,
      content: answer.text,
      createdAt: new Date().toISOString(),
      command: reply.trigger,
    };
    announce(broker, EVENTS.ephemeral, { userId: reply.userId, message });
  };

  /** Shown to the caller only: why a command that had answered "working" gave nothing after all. */
  const explain = (broker: ServiceBroker, reply: Reply, why: string) =>
    deliver(broker, reply, { text: `/${reply.trigger} failed: ${why}`, responseType: 'ephemeral' });

  /** The call, and what became of it: answered (and delivered), or failed and why. */
  const call = async (broker: ServiceBroker, command: CommandDoc, reply: Reply, text: string) => {
    const token = newSecret();
    await responses.set(token, JSON.stringify(reply), RESPONSE_URL_TTL_SEC);
    const timestamp = Math.floor(Date.now() / 1000);
    const body: CommandRequestBody = {
      command: command.trigger,
      text,
      userId: reply.userId,
      groupId: reply.groupId,
      converseId: reply.converseId,
      responseUrl: `${publicUrl}/hooks/respond/${token}`,
      timestamp,
    };
    const raw = JSON.stringify(body);
    try {
      const res = await outbound.request(new URL(command.url), {
        method: 'POST',
        headers: signedHeaders(command.secret, raw, timestamp, randomUUID()),
        body: raw,
        maxBytes: ANSWER_BYTES,
      });
      if (res.status < 200 || res.status >= 300) return failed(`its server answered ${res.status}`);
      const answer = parseAnswer(res.body);
      if (answer) await deliver(broker, reply, answer);
      return { status: 'answered' as const };
    } catch (err) {
      return failed(err instanceof OutboundRefusedError ? 'its address is not allowed' : 'its server did not answer');
    }
  };

  return {
    runCommand: {
      visibility: 'public' as const,
      params: p.runCommand,
      async handler(ctx: Ctx<ActionParams<'integration.runCommand'>>): Promise<ActionResult<'integration.runCommand'>> {
        const { groupId, converseId, userId, trigger, text } = ctx.params;
        const command = (await directory.forGroup(groupId)).commands.get(trigger);
        if (!command) return null;
        const reply: Reply = { groupId, converseId, userId, botId: command.botId.toHexString(), trigger };
        // Its maker is no longer an admin of the group: its server is not called until an admin renews it.
        if (command.suspendedAt) {
          await explain(ctx.broker, reply, 'it is suspended until an admin of the group renews its secret');
          return { command: trigger, status: 'answered' } satisfies CommandAccepted;
        }
        const running = call(ctx.broker, command, reply, text);
        // Past the deadline the send answers "working"; the answer is still delivered when it comes,
        // and a failure then is explained to the caller (within it, the answer itself says "failed").
        let timer: NodeJS.Timeout | undefined;
        const outcome = await Promise.race([
          running,
          new Promise<{ status: 'working' }>(
            (resolve) => (timer = setTimeout(() => resolve({ status: 'working' }), COMMAND_DEADLINE_MS)),
          ),
        ]);
        clearTimeout(timer);
        if (outcome.status === 'working')
          void running.then((late) =>
            late.status === 'failed' ? explain(ctx.broker, reply, late.why).catch(() => undefined) : undefined,
          );
        return { command: trigger, status: outcome.status } satisfies CommandAccepted;
      },
    },

    /** `POST /hooks/respond/:token`: a late (or further) answer within 30 minutes. */
    respond: {
      params: p.respond,
      rateLimit: 'hook' as const,
      async handler(ctx: Ctx<Params<typeof p.respond>>): Promise<Record<string, never>> {
        const stored = await responses.get(ctx.params.token);
        if (!stored) throw notFound('response URL');
        const reply = JSON.parse(stored) as Reply;
        await deliver(ctx.broker, reply, {
          text: ctx.params.text,
          ...(ctx.params.responseType ? { responseType: ctx.params.responseType } : {}),
        });
        return {};
      },
    },
  };
};
