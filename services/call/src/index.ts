export { createCallService } from './call.service.ts';
