export { createGroupService } from './group.service.ts';
