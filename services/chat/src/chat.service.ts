import type { AppContext, ServiceFactory } from '@im/sdk';

/** The chat service. For now it only joins the broker, so topology, discovery and readiness can be tested; its actions come with the domain work. */
export const createChatService: ServiceFactory = (app: AppContext) => ({
  name: 'chat',
  async started() {
    app.logger.debug({ service: 'chat' }, 'service started');
  },
});
