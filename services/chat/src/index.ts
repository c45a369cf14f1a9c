export { createChatService } from './chat.service.ts';
export type { UserRooms } from './converse-actions.ts';
