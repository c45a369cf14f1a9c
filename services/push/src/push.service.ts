import type { AppContext, ServiceFactory } from '@im/sdk';

/** The push service. For now it only joins the broker, so topology, discovery and readiness can be tested; its actions come with the domain work. */
export const createPushService: ServiceFactory = (app: AppContext) => ({
  name: 'push',
  async started() {
    app.logger.debug({ service: 'push' }, 'service started');
  },
});
