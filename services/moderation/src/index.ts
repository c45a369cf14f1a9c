export { createModerationService } from './moderation.service.ts';
