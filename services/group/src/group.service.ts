import type { AppContext, ServiceFactory } from '@im/sdk';

/** The group service. For now it only joins the broker, so topology, discovery and readiness can be tested; its actions come with the domain work. */
export const createGroupService: ServiceFactory = (app: AppContext) => ({
  name: 'group',
  async started() {
    app.logger.debug({ service: 'group' }, 'service started');
  },
});
