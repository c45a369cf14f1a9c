export { createChatService } from './chat.service.ts';
// For the capacity benchmark's dataset, written in the service's own shapes.
export { chatModels, type MessageDoc, type ReactionDoc } from './models.ts';
export { mentionedUsernames } from './mentions.ts';
