import type { Model } from 'mongoose';
import type { GroupDoc, GroupModels, MemberDoc, UserGroupDoc } from '../models.ts';

/** The query methods of a collection: what a handler may call on one the store owns. */
export type Reads<T> = Pick<Model<T>, 'find' | 'findOne' | 'findById' | 'exists' | 'countDocuments' | 'aggregate'>;

/**
 * The collections as handlers see them: groups, members and user groups are
 * read-only here (the membership cache is derived from them, so their writes
 * are the store's alone); the rest are plain models.
 */
export type HandlerModels = Omit<GroupModels, 'groups' | 'members' | 'userGroups'> & {
  groups: Reads<GroupDoc>;
  members: Reads<MemberDoc>;
  userGroups: Reads<UserGroupDoc>;
};
