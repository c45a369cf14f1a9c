export { createUserService } from './user.service.ts';
// For the capacity benchmark's dataset: its accounts, and their passwords hashed as the service hashes them.
export { userModel } from './models.ts';
export { createPasswordHasher } from './password.ts';
