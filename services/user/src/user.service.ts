import type { AppContext, ServiceFactory } from '@im/sdk';

/** The user service. For now it only joins the broker, so topology, discovery and readiness can be tested; its actions come with the domain work. */
export const createUserService: ServiceFactory = (app: AppContext) => ({
  name: 'user',
  async started() {
    app.logger.debug({ service: 'user' }, 'service started');
  },
});
