// The contracts between the capacity benchmark's parts: the dataset generator
// (seed.ts), the load run (run.ts) and the release comparison (compare.ts).

/** What `npm run bench -- seed` is asked to make. Same options and seed: the same dataset. */
export interface SeedOptions {
  /** MongoDB URL including the database to fill. */
  mongoUrl: string;
  users: number;
  groups: number;
  messages: number;
  /** PRNG seed: every name, membership, message and reaction follows from it. */
  seed: number;
  /** Called as work progresses (for a progress bar). */
  onProgress?: (phase: string, done: number, total: number) => void;
}

/** Stored in the dataset's database (collection `bench_dataset`) and returned by the generator. */
export interface DatasetManifest {
  version: 1;
  seed: number;
  users: number;
  groups: number;
  messages: number;
  /** Every simulated user logs in as `${usernamePrefix}${index}` (index 0..users-1) with this password. */
  usernamePrefix: string;
  password: string;
  /** Groups with their members' indexes (into the user list), largest first. */
  groupList: Array<{ id: string; name: string; memberIndexes: number[]; converseIds: string[] }>;
  /** DMs by the two members' indexes. */
  dmList: Array<{ id: string; memberIndexes: [number, number] }>;
  createdAt: string;
  /** How long generating took, in seconds. */
  seconds: number;
  /** What was written, per kind (seed.ts fills it; optional so hand-made manifests stay valid). */
  counts?: DatasetCounts;
  /** The first and last message's createdAt (ISO): the dataset's history ends when it was generated. */
  messagesFrom?: string;
  messagesTo?: string;
  /** The argon2 memory cost of the users' password hash (each login verifies at this cost). */
  passwordHashMemoryKib?: number;
}

/** Documents of each kind in a seeded dataset. */
export interface DatasetCounts {
  users: number;
  groups: number;
  /** Group memberships (`members` documents). */
  members: number;
  panels: number;
  dms: number;
  /** `converses` documents: every DM, and every panel that has messages (a panel's counter appears with its first message). */
  converses: number;
  messages: number;
  /** Messages that mention someone. */
  mentions: number;
  replies: number;
  /** Messages with at least one reaction, and the reaction documents. */
  reactedMessages: number;
  reactions: number;
  /** File records, one per message with an attachment. */
  files: number;
  reads: number;
  /** Inbox entries: unread mentions and DMs. */
  notifications: number;
}

/** One capacity run against one deployment. */
export interface CapacityOptions {
  mode: 'bounded' | 'unbounded';
  cluster: boolean;
  /** The dataset: its database URL (already seeded) and manifest. */
  mongoUrl: string;
  dataset: DatasetManifest;
  /** Checkout whose server is measured (default: this one). The load generator is always this checkout's. */
  serverRoot?: string;
  /** Bounded: simulated users. Unbounded: the first step. */
  users: number;
  /** Bounded: the run's length. Unbounded: the upper bound on the whole run. */
  durationSeconds: number;
  /** Unbounded: users added per step and how long each step is held. */
  stepUsers?: number;
  stepSeconds?: number;
  /** The action mix and think times (benchmark/capacity.config.json). */
  configPath?: string;
}

export interface CapacitySample {
  /** Seconds since the load began. */
  t: number;
  users: number;
  requestsPerSecond: number;
  requestAvgMs: number;
  requestP99Ms: number;
  storeAvgMs: number;
  storeP99Ms: number;
  broadcastP99Ms: number;
  errorRate: number;
  /** Server side, summed over nodes (CPU in cores, heap in MiB, event-loop delay p99 in ms, sockets). */
  cpuCores: number;
  heapMiB: number;
  eventLoopDelayMs: number;
  sockets: number;
}

export interface CapacityResult {
  mode: 'bounded' | 'unbounded';
  deployment: 'single' | 'cluster';
  /** Unbounded: the users held with every threshold met over the last window. Bounded: the users run. */
  supportedUsers: number;
  thresholds: {
    errorRate: number;
    requestP99Ms: number;
    requestAvgMs: number;
    broadcastP99Ms: number;
  };
  /** Whole-run (bounded) or held-level (unbounded) figures. */
  summary: Omit<CapacitySample, 't'> & { lostMessages: number; requests: number; errors: number };
  samples: CapacitySample[];
  /** Which threshold broke, when one did. */
  breaks: Array<{ t: number; users: number; threshold: string; value: number }>;
  machine: Record<string, unknown>;
  commit: string;
}
