export { createPushService } from './push.service.ts';
// For the capacity benchmark's dataset, written in the service's own shapes.
export { pushModels, type NotificationDoc } from './models.ts';
