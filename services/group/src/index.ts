export { createGroupService } from './group.service.ts';
// For the capacity benchmark's dataset, written in the service's own shapes.
export { groupModels } from './models.ts';
