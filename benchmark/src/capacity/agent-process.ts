// One client process of the capacity run: holds many simulated users (each
// its own socket; HTTP over one keep-alive pool) and answers the
// coordinator over IPC. Started by agents.ts with fork().
import { now } from '../swarm/protocol.ts';
import { HttpClient } from './agent-client.ts';
import type { AgentCommand, AgentReply, FinishReport } from './agent-protocol.ts';
import { Recorder } from './agent-recorder.ts';
import { SimUser, type UserEnv } from './agent-user.ts';
import { ACTION_KINDS, type ActionKind } from './config.ts';

const recorder = new Recorder();
const users = new Map<number, SimUser>();
let env: UserEnv | undefined;
let missedTimer: NodeJS.Timeout | undefined;

function init(cmd: Extract<AgentCommand, { type: 'init' }>): void {
  const { config, dataset } = cmd;
  const weights = ACTION_KINDS.map((k) => config.actions[k]);
  const total = weights.reduce((s, w) => s + w, 0);
  const pickAction = (): ActionKind => {
    let x = Math.random() * total;
    for (let i = 0; i < ACTION_KINDS.length; i += 1) {
      x -= weights[i]!;
      if (x < 0) return ACTION_KINDS[i]!;
    }
    return ACTION_KINDS.findLast((_, i) => weights[i]! > 0)!;
  };
  const groupsOfUser = new Map<number, number[]>();
  const groupOfConverse = new Map<string, number>();
  dataset.groups.forEach((g, gi) => {
    for (const m of g.memberIndexes) {
      const list = groupsOfUser.get(m);
      if (list) list.push(gi);
      else groupsOfUser.set(m, [gi]);
    }
    for (const c of g.converseIds) groupOfConverse.set(c, gi);
  });
  env = {
    http: new HttpClient(recorder, config.requestTimeoutSeconds * 1000),
    recorder,
    config,
    dataset,
    runTag: cmd.runTag,
    startedAt: cmd.startedAt,
    pickAction,
    groupsOf: (i) => groupsOfUser.get(i) ?? [],
    groupOfConverse: (c) => groupOfConverse.get(c),
  };
  const graceMs = config.gapGraceSeconds * 1000;
  missedTimer = setInterval(() => {
    const at = now();
    let n = 0;
    for (const u of users.values()) n += u.countOverdue(at, graceMs);
    if (n > 0) recorder.missed(n);
  }, 1_000);
}

const connectedCount = () => [...users.values()].filter((u) => u.connected).length;

async function handle(cmd: AgentCommand): Promise<AgentReply> {
  switch (cmd.type) {
    case 'init':
      init(cmd);
      return { type: 'ready' };
    case 'add':
      for (const slot of cmd.users) {
        if (users.has(slot.index)) continue;
        const user = new SimUser(slot, env!);
        users.set(slot.index, user);
        user.start(slot.delayMs);
      }
      return { type: 'added', users: users.size };
    case 'remove':
      // They finish their current action in the background, then close: the coordinator does not wait.
      for (const index of cmd.indexes) {
        const user = users.get(index);
        if (!user) continue;
        users.delete(index);
        void user.halt().then(() => user.close());
      }
      return { type: 'removed', users: users.size };
    case 'window':
      return recorder.take(users.size, connectedCount());
    case 'quiesce': {
      clearInterval(missedTimer);
      await Promise.all([...users.values()].map((u) => u.halt()));
      return { type: 'quiet', inFlight: [...users.values()].filter((u) => u.busy).length };
    }
    case 'finish': {
      // Gaps counted after the last window belong to the end's figures.
      const leftover = recorder.take(users.size, connectedCount()).missed;
      const report: FinishReport = {
        type: 'finished',
        usersChecked: 0,
        missedAtEnd: leftover,
        lost: 0,
        lostSamples: [],
        checkErrors: 0,
        cpuMicros: 0,
      };
      const list = [...users.values()];
      let next = 0;
      const lane = async () => {
        while (next < list.length) {
          const check = await list[next++]!.finalCheck();
          if (check.checked) report.usersChecked += 1;
          if (check.error) report.checkErrors += 1;
          report.missedAtEnd += check.missedAtEnd;
          report.lost += check.lost;
          for (const s of check.lostSamples) if (report.lostSamples.length < 5) report.lostSamples.push(s);
        }
      };
      await Promise.all(Array.from({ length: 16 }, lane));
      users.clear();
      await env?.http.close();
      const cpu = process.cpuUsage();
      report.cpuMicros = cpu.user + cpu.system;
      return report;
    }
  }
}

process.on('message', (raw: AgentCommand & { reqId: number }) => {
  const { reqId } = raw;
  handle(raw).then(
    (reply) => process.send!({ ...reply, reqId }),
    (err: unknown) =>
      process.send!({
        type: 'failed',
        message: err instanceof Error ? (err.stack ?? err.message) : String(err),
        reqId,
      }),
  );
});
// The coordinator's end is this process's end.
process.on('disconnect', () => process.exit(0));
