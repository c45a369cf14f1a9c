import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface UserDoc {
  _id: Types.ObjectId;
  /** Lower-case; unique. Freed (rewritten) when the account is deleted. */
  username: string;
  nickname: string;
  /** Lower-case nickname, for indexed prefix search. */
  nicknameLower: string;
  avatar?: string;
  passwordHash: string;
  status: 'active' | 'banned' | 'deleted';
  createdAt: Date;
}

const userSchema = new Schema<UserDoc>(
  {
    username: { type: String, required: true },
    nickname: { type: String, required: true },
    nicknameLower: { type: String, required: true },
    avatar: { type: String },
    passwordHash: { type: String, required: true },
    status: { type: String, required: true, enum: ['active', 'banned', 'deleted'], default: 'active' },
  },
  { timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);
userSchema.index({ username: 1 }, { unique: true });
userSchema.index({ nicknameLower: 1 });

export type UserModel = Model<UserDoc>;

export const userModel = (connection: Connection): UserModel => modelOn(connection, 'User', userSchema);
