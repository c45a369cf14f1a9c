/** socket.io room names: every socket of a user, of a group's members, of a converse's members. */
export const userRoom = (userId: string) => `u:${userId}`;
export const groupRoom = (groupId: string) => `g:${groupId}`;
export const converseRoom = (converseId: string) => `c:${converseId}`;
