import type {
  DmConverse,
  EphemeralMessage,
  Group,
  Member,
  PresenceStatus,
  PublicUser,
  SlashCommand,
  UnreadEntry,
  UserStatus,
} from '@im/protocol';
import { accountStore } from './account-state.ts';
import type { FileInfo } from '../api/upload.ts';
import type { CommandNote } from './command-sends.ts';
import type { ConverseMessages } from './messages.ts';
import type { Route } from './route.ts';

/** displaced: the server closed this window's socket as the oldest of too many (SOCKETS_PER_USER). */
export type ConnectionState = 'connecting' | 'online' | 'reconnecting' | 'offline' | 'displaced';

export interface MemberList {
  items: Member[];
  nextCursor: string | null;
  loading: boolean;
}

export interface Notice {
  id: number;
  text: string;
  kind: 'error' | 'info';
}

/** Everything the app shows, in one store; actions live in the modules that own each concern. */
export interface AppState {
  token: string | null;
  me: PublicUser | null;
  /** Named in the server's ADMIN_USERNAMES: the admin console is offered. */
  serverAdmin: boolean;
  connection: ConnectionState;
  groups: Record<string, Group>;
  groupOrder: string[];
  /** The list of my groups came in once: a group link not in it is one I am not in. */
  groupsLoaded: boolean;
  dms: Record<string, DmConverse>;
  dmOrder: string[];
  users: Record<string, PublicUser>;
  members: Record<string, MemberList>;
  presence: Record<string, boolean>;
  /** userId → what others see of their status (away, do not disturb, custom text), from GET /api/presence and events. */
  statuses: Record<string, PresenceStatus>;
  /** My own status (do not disturb, schedule, custom text), as the server last said. */
  myStatus: UserStatus | null;
  converses: Record<string, ConverseMessages>;
  unread: Record<string, UnreadEntry>;
  /** converseId → userId → when the indicator expires (ms since epoch). */
  typing: Record<string, Record<string, number>>;
  files: Record<string, FileInfo | 'missing'>;
  route: Route;
  notices: Notice[];
  /**
   * The personal feed token issued in this session: the server shows a token
   * only once, so after a reload there is none until a new one is made.
   */
  feedToken: string | null;
  /** groupId → the group's slash commands, as the composer offers them (loaded on first use). */
  commands: Record<string, SlashCommand[]>;
  /** converseId → answers only I can see (`message:ephemeral`): never stored, gone on reload. */
  ephemeral: Record<string, EphemeralMessage[]>;
  /** converseId → my slash commands still running or failed, shown above the composer. */
  commandNotes: Record<string, CommandNote[]>;
}

export const initialState = (): AppState => ({
  token: null,
  me: null,
  serverAdmin: false,
  connection: 'connecting',
  groups: {},
  groupOrder: [],
  groupsLoaded: false,
  dms: {},
  dmOrder: [],
  users: {},
  members: {},
  presence: {},
  statuses: {},
  myStatus: null,
  converses: {},
  unread: {},
  typing: {},
  files: {},
  route: { name: 'home' },
  notices: [],
  feedToken: null,
  commands: {},
  ephemeral: {},
  commandNotes: {},
});

// Everything but the screen in the address bar, which the next sign-in here opens.
export const useStore = accountStore('app', initialState, { keep: ['route'] });

export const getState = useStore.getState;
export const setState = useStore.setState;

let noticeId = 0;
/** Shows a short message at the bottom of the screen for a few seconds. */
export function notify(text: string, kind: Notice['kind'] = 'error'): void {
  noticeId += 1;
  const id = noticeId;
  setState((s) => ({ notices: [...s.notices, { id, text, kind }].slice(-4) }));
  setTimeout(() => setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) })), 6000);
}
