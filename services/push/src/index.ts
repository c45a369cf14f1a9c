export { createPushService } from './push.service.ts';
