export { createIntegrationService } from './integration.service.ts';
