export { createUserService } from './user.service.ts';
