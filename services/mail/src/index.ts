export { createMailService } from './mail.service.ts';
