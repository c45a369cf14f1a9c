import { Histogram } from 'prom-client';
import type { AppContext, ServiceFactory } from '@im/sdk';
import { ConverseAccessResolver } from './access.ts';
import { converseActions } from './converse-actions.ts';
import { messageActions } from './message-actions.ts';
import { MessageWriter } from './message-writer.ts';
import { chatModels } from './models.ts';

/** Converses (group panels and DMs) and their messages, reactions and read positions. */
export const createChatService: ServiceFactory = (app: AppContext) => {
  const models = chatModels(app.mongo!);
  // How well group commit coalesces: messages per batch written.
  const batchSize = new Histogram({
    name: 'im_chat_write_batch_size',
    help: 'Messages written per insertMany batch',
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500],
    registers: [app.metrics],
  });
  const writer = new MessageWriter(
    models,
    {
      windowMs: app.config.chatWriteWindowMs,
      maxBatch: app.config.chatWriteMaxBatch,
      onBatch: (written) => batchSize.observe(written),
    },
    app.logger,
  );
  const deps = {
    app,
    models,
    writer,
    access: new ConverseAccessResolver(models),
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
