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
  /** Overrides of the config file's thresholds (e.g. an impossible one, to see a run step back). */
  thresholds?: Partial<CapacityThresholds>;
  /** Overrides of the config file's window (unbounded: how long a level is held to count), sampling period and client processes. */
  windowSeconds?: number;
  sampleSeconds?: number;
  processes?: number;
  /** What the database is, for the report (e.g. `mongo-java-server`), and its local process, whose CPU is sampled. */
  mongoKind?: string;
  databasePid?: number;
  /** Called with every sample as it is taken (a progress line). */
  onSample?: (sample: CapacitySample) => void;
  /** Extra configuration for every platform node (e.g. NODE_OPTIONS for heap snapshots). */
  serverEnv?: Record<string, string>;
  /** Called once the deployment is up, before the first user starts, with its gateways' base URLs. */
  onServerStarted?: (gateways: readonly string[]) => void;
}

/** The limits a run is judged by (capacity.config.json `thresholds`). */
export interface CapacityThresholds {
  /** Failed requests / requests (0.001 = 0.1%). */
  errorRate: number;
  requestP99Ms: number;
  requestAvgMs: number;
  /** Send to live delivery at the other members, p99. */
  broadcastP99Ms: number;
  /** Messages connected users did not get live within the grace period. */
  missedMessages: number;
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
  /** Users with a connected socket (the rest are logging in or reconnecting). */
  connectedUsers: number;
  /** Requests made (HTTP and socket acks, answered or not) and failed in the sample. */
  requests: number;
  errors: number;
  /** Gaps that stayed open past the grace period on connected sockets. */
  missedMessages: number;
  broadcastAvgMs: number;
  /** Live `message:new` deliveries timed, per second. */
  deliveriesPerSecond: number;
  /** Server resident memory (MiB, summed over nodes). */
  rssMiB: number;
  /** The database process's CPU (cores; NaN when it is not a local process). */
  dbCpuCores: number;
  /** The load generator's CPU (coordinator and client processes, cores). */
  loadCpuCores: number;
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
    missedMessages: number;
  };
  /**
   * Bounded: the whole run past its first `settleSeconds` (logins). Unbounded:
   * the stretch that decided `supportedUsers` (the held window, or the last
   * step that passed). `summaryFrom`/`summaryTo` say which seconds.
   */
  summary: Omit<CapacitySample, 't'> & { lostMessages: number; requests: number; errors: number };
  samples: CapacitySample[];
  /** Which threshold broke, when one did. */
  breaks: Array<{ t: number; users: number; threshold: string; value: number }>;
  machine: Record<string, unknown>;
  commit: string;
  /** Unbounded: a level was held for the whole window with every threshold met (else the run ended first). */
  converged: boolean;
  /** How `supportedUsers` was decided, in a sentence. */
  decision: string;
  summaryFrom: number;
  summaryTo: number;
  /** Each threshold over the summary's stretch: its value and whether it held. */
  checks: Array<{ threshold: string; value: number; limit: number; held: boolean }>;
  /** Live deliveries missing at some point (over the whole run, the end's check included), and a few lost ones. */
  missedMessages: number;
  lostSamples: string[];
  /** A few error descriptions from the whole run. */
  errorSamples: string[];
  /** Per request kind over the summary's stretch. */
  requestsByKind: Record<string, { count: number; errors: number; avgMs: number; p99Ms: number }>;
  /** Per request kind over the whole run (logins and warm-up included): requests answered, and failures (answered or not). */
  requestCounts: Record<string, { count: number; errors: number }>;
  /** Actions users started, by kind, over the whole run. */
  actions: Record<string, number>;
  /** Unbounded: each user level held, in order, and how it ended. */
  levels: Array<{ users: number; from: number; to: number; outcome: 'passed' | 'broke' | 'held' | 'ended' }>;
  /** What was run: the run's options (after defaults), the dataset, the configuration file's contents. */
  options: {
    users: number;
    durationSeconds: number;
    stepUsers: number;
    stepSeconds: number;
    windowSeconds: number;
    sampleSeconds: number;
    settleSeconds: number;
    processes: number;
    configPath: string;
    serverRoot?: string;
  };
  dataset: Pick<DatasetManifest, 'users' | 'groups' | 'messages' | 'seed'> & { dms: number };
  config: Record<string, unknown>;
  mongoKind: string;
  /** The run's wall time, seconds. */
  seconds: number;
  /** The load generator (coordinator and client processes) over the run. */
  loadGenerator: { processes: number; cpuSeconds: number; shareOfOneCore: number; shareOfMachine: number };
}
