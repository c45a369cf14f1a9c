import type { AppContext, ServiceFactory } from '@im/sdk';

/** The file service. For now it only joins the broker, so topology, discovery and readiness can be tested; its actions come with the domain work. */
export const createFileService: ServiceFactory = (app: AppContext) => ({
  name: 'file',
  async started() {
    app.logger.debug({ service: 'file' }, 'service started');
  },
});
