// Message write throughput through the public API, with the group-commit
// batcher on (the default) and off (CHAT_WRITE_MAX_BATCH=1), same run, same
// machine; `--threads` adds thread replies (each send names one of ten roots
// per converse: the send plus one update of its root); `--private` adds sends
// into ten private panels (seen through a role every sender holds: the send
// path's check of who sees the panel); `--user-groups` adds sends that each
// mention `@team`, a user group of ten members (the send path's expansion of
// a handle; a server without user groups finds no such name and mentions
// nobody). The server is its own process; this
// process is the load. `--server-root` runs another checkout's server (before/after).
import { AccountPool, api, BenchGroup } from '../lib/api.ts';
import { benchArgs, intOption, serverRootOf } from '../lib/args.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { writeResult, table } from '../lib/report.ts';
import { percentile, round } from '../lib/stats.ts';
import { startTarget } from '../lib/target.ts';

/** What `--user-groups` sends write: `@team` (a user group of ten), the same ten by `@name`, or `@nobody`. */
type MentionKind = 'team' | 'names' | 'word';

interface ModeResult {
  mode: string;
  messages: number;
  seconds: number;
  messagesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  p100Ms: number;
  errors: number;
  /** With `--user-groups`: whether the server made `@team` (false: a server without user groups). */
  userGroupMade?: boolean;
}

async function measure(
  base: string,
  users: number,
  messages: number,
  concurrency: number,
  label: string,
  {
    threaded = false,
    privatePanels = false,
    mention,
  }: { threaded?: boolean; privatePanels?: boolean; mention?: MentionKind } = {},
): Promise<ModeResult> {
  const pool = new AccountPool(base);
  const accounts = await pool.ensure(users);
  const tokens = accounts.map((a) => a.token);
  const group = await BenchGroup.create(base, accounts[0]!, 'bench');
  await group.join(accounts);
  // Ten converses, so batches span several counters as they would in real use.
  const converses = privatePanels ? await group.privatePanels(10, accounts.slice(1)) : [group.converseId];
  for (let i = converses.length; i < 10; i += 1) {
    converses.push(
      (
        await api<{ converseId: string }>(base, 'POST', `/api/groups/${group.id}/panels`, tokens[0], {
          name: `p${i}`,
          type: 'text',
        })
      ).converseId,
    );
  }

  // `@team`: ten members (none of them every sender). A server without user groups answers 404: sends still say @team.
  let userGroupMade = false;
  const ten = accounts.slice(1, 11);
  if (mention === 'team') {
    const res = await fetch(`${base}/api/groups/${group.id}/user-groups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[0]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ handle: 'team', name: 'Team', memberIds: ten.map((a) => a.id) }),
    });
    await res.arrayBuffer();
    userGroupMade = res.status === 201;
  }
  const prefix =
    mention === 'team'
      ? '@team '
      : mention === 'names'
        ? `${ten.map((a) => `@${a.username}`).join(' ')} `
        : mention === 'word'
          ? '@nobody '
          : '';
  const text = (i: number) => `${prefix}message ${i} of the write benchmark`;

  // Thread roots: ten per converse, replied to in turn (so each root update competes with others).
  const roots: Array<{ converseId: string; id: string }> = [];
  if (threaded)
    for (const converseId of converses)
      for (let r = 0; r < 10; r += 1)
        roots.push({
          converseId,
          id: (
            await api<{ id: string }>(base, 'POST', `/api/converses/${converseId}/messages`, tokens[0], {
              content: `root ${r}`,
            })
          ).id,
        });
  const target = (i: number) => {
    if (!threaded) return { converseId: converses[i % converses.length]!, extra: {} };
    const root = roots[i % roots.length]!;
    return { converseId: root.converseId, extra: { threadId: root.id } };
  };

  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const sendOne = async (i: number) => {
    const started = performance.now();
    const { converseId, extra } = target(i);
    const res = await fetch(`${base}/api/converses/${converseId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[i % tokens.length]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: text(i), ...extra }),
    });
    await res.arrayBuffer();
    if (res.status !== 201) errors += 1;
    latencies.push(performance.now() - started);
  };
  const worker = async (total: number) => {
    while (next < total) await sendOne(next++);
  };
  // Warm up, then measure.
  await Promise.all(Array.from({ length: concurrency }, () => worker(500)));
  latencies.length = 0;
  next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, () => worker(messages)));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    mode: label,
    messages,
    seconds: round(seconds),
    messagesPerSecond: Math.round(messages / seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    p100Ms: round(percentile(latencies, 100)),
    errors,
    ...(mention === 'team' ? { userGroupMade } : {}),
  };
}

export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    messages: { type: 'string' },
    concurrency: { type: 'string' },
    users: { type: 'string' },
    threads: { type: 'boolean' },
    private: { type: 'boolean' },
    'user-groups': { type: 'boolean' },
    /** Another checkout's server (a worktree of an earlier commit, with its own node_modules): before/after. */
    'server-root': { type: 'string' },
  });
  const messages = intOption('messages', values.messages, 5000);
  const concurrency = intOption('concurrency', values.concurrency, 100);
  const users = intOption('users', values.users, 20);
  const load = new LoadCpu();
  const results: ModeResult[] = [];
  let mongoKind = '';
  const modes: Array<{
    label: string;
    env: Record<string, string>;
    threaded?: boolean;
    privatePanels?: boolean;
    mention?: MentionKind;
  }> = [
    { label: 'batched (default)', env: {} },
    { label: 'unbatched (CHAT_WRITE_MAX_BATCH=1)', env: { CHAT_WRITE_MAX_BATCH: '1', CHAT_WRITE_WINDOW_MS: '0' } },
    ...(values.threads ? [{ label: 'thread replies (batched)', env: {}, threaded: true }] : []),
    ...(values.private ? [{ label: 'private panels (batched)', env: {}, privatePanels: true }] : []),
    ...(values['user-groups']
      ? [
          { label: '@team: a user group of 10 (batched)', env: {}, mention: 'team' as const },
          { label: 'the same 10 by @name (batched)', env: {}, mention: 'names' as const },
          { label: '@nobody: no such handle or user (batched)', env: {}, mention: 'word' as const },
        ]
      : []),
  ];
  for (const { label, env, threaded, privatePanels, mention } of modes) {
    const target = await startTarget({ cluster: values.cluster, env, ...serverRootOf(values['server-root']) });
    mongoKind = target.mongoKind;
    try {
      process.stdout.write(`${label}: sending ${messages} messages, ${concurrency} in flight...\n`);
      results.push(
        await measure(target.gateways[0]!, users, messages, concurrency, label, { threaded, privatePanels, mention }),
      );
    } finally {
      await target.stop();
    }
  }
  process.stdout.write(
    table(
      results.map(({ userGroupMade, ...r }) => ({
        ...r,
        ...(userGroupMade !== undefined ? { userGroupMade: String(userGroupMade) } : {}),
      })),
    ),
  );
  writeResult(
    {
      benchmark: 'chat-writes',
      target: values.cluster ? 'cluster' : 'single',
      mongo: mongoKind,
      concurrency,
      users,
      ...(values['server-root'] ? { serverRoot: values['server-root'] } : {}),
      results,
    },
    { out: values.out, load },
  );
}
