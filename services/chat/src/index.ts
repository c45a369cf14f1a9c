export { createChatService } from './chat.service.ts';
