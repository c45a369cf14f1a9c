import { RateLimiter, type AppContext, type ServiceFactory } from '@im/sdk';
import { ConverseAccessResolver } from './access.ts';
import { converseActions } from './converse-actions.ts';
import { messageActions } from './message-actions.ts';
import { MessageWriter } from './message-writer.ts';
import { chatModels } from './models.ts';

/** Converses (group panels and DMs) and their messages, reactions and read positions. */
export const createChatService: ServiceFactory = (app: AppContext) => {
  const models = chatModels(app.mongo!);
  const writer = new MessageWriter(
    models,
    { windowMs: app.config.chatWriteWindowMs, maxBatch: app.config.chatWriteMaxBatch },
    app.logger,
  );
  const deps = {
    app,
    models,
    writer,
    access: new ConverseAccessResolver(models),
    sendLimit: new RateLimiter(
      { name: 'send', points: 50, windowSeconds: 10 },
      { enabled: app.config.rateLimit === 'on', ...(app.redis ? { redis: app.redis } : {}) },
    ),
  };
  return {
    name: 'chat',
    async started() {
      await Promise.all(Object.values(models).map((m) => m.createIndexes()));
    },
    async stopped() {
      await writer.drain();
    },
    actions: { ...messageActions(deps), ...converseActions(deps) },
  };
};
