// The capacity run's clock and its decisions: every sampleSeconds it takes
// the client processes' figures and every node's metrics (one sample). In a
// bounded run it holds one user count until the end. In an unbounded run
// (Mattermost's method) it adds stepUsers every stepSeconds while every
// threshold holds over the step; when one breaks it removes a step and holds;
// a level held for windowSeconds with every threshold met is the supported
// user count, and the run ends there.
import type { AgentPool } from './agents.ts';
import type { CapacityConfig, Thresholds } from './config.ts';
import { Figures, round } from './figures.ts';
import type { ServerSampler } from './server-metrics.ts';
import { broken, checkThresholds, type Check } from './thresholds.ts';
import type { CapacityResult, CapacitySample } from './types.ts';

/** The run's settings as the report records them (`users`: bounded, the users; unbounded, the first level), plus what the decisions need. */
export interface Plan extends Omit<CapacityResult['options'], 'processes' | 'configPath' | 'serverRoot'> {
  mode: 'bounded' | 'unbounded';
  /** No more users than the dataset has. */
  maxUsers: number;
  thresholds: Thresholds;
  config: CapacityConfig;
}

type Level = CapacityResult['levels'][number];

export interface Timeline {
  samples: CapacitySample[];
  /** Per sample: its client figures (mergeable into any window). */
  figures: Figures[];
  levels: Level[];
  breaks: CapacityResult['breaks'];
  supportedUsers: number;
  converged: boolean;
  decision: string;
  /** Sample indexes the summary is made of. */
  summary: number[];
  checks: Check[];
  /** Seconds from the first users to the last sample. */
  seconds: number;
}

/** How long after a level change its samples are left out: `settleSeconds`, and after an addition until the last new user started plus one sample. */
export function settleFor(plan: Pick<Plan, 'settleSeconds' | 'sampleSeconds' | 'config'>, added: number): number {
  if (added <= 0) return plan.settleSeconds;
  return Math.max(plan.settleSeconds, added / plan.config.startRatePerSecond + plan.sampleSeconds);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export async function coordinate(
  plan: Plan,
  agents: AgentPool,
  sampler: ServerSampler,
  onSample: (s: CapacitySample) => void = () => undefined,
  onLevel: (message: string) => void = () => undefined,
): Promise<Timeline> {
  const samples: CapacitySample[] = [];
  const figures: Figures[] = [];
  /** Per sample: the index of the level it was taken at. */
  const levelOf: number[] = [];
  const levels: Level[] = [];
  const breaks: CapacityResult['breaks'] = [];
  const rate = plan.config.startRatePerSecond;

  const t0 = performance.now();
  const elapsed = () => (performance.now() - t0) / 1000;
  /** Per level: seconds after its start before samples count (added users log in first, `rate` a second). */
  const settleOf: number[] = [];
  const setLevel = async (users: number, at: number) => {
    const prev = levels.at(-1);
    if (prev) prev.to = round(at);
    settleOf.push(settleFor(plan, users - (prev?.users ?? 0)));
    levels.push({ users, from: round(at), to: NaN, outcome: 'ended' });
    await agents.setUsers(users, rate);
  };

  await sampler.read(); // the CPU baselines
  let ownCpu = process.cpuUsage();
  let agentCpu = 0;
  let lastAt = 0;
  await setLevel(Math.min(plan.users, plan.maxUsers), 0);

  let phase: 'rising' | 'holding' = 'rising';
  let converged = false;
  let summary: number[] = [];
  let checks: Check[] = [];
  let stop = false;

  /** Samples of the current level past its settling time (whole samples only), optionally the last `seconds` of them. */
  const settled = (seconds = Infinity) => {
    const li = levels.length - 1;
    const level = levels[li]!;
    const now = samples.at(-1)?.t ?? 0;
    return samples
      .map((s, i) => ({ s, i, start: i === 0 ? 0 : samples[i - 1]!.t }))
      .filter(({ i, start, s }) => levelOf[i] === li && start >= level.from + settleOf[li]! && s.t > now - seconds)
      .map(({ i }) => i);
  };
  const judge = (indexes: number[]) => checkThresholds(Figures.merge(indexes.map((i) => figures[i]!)), plan.thresholds);
  const describe = (cs: Check[]) => cs.map((c) => `${c.threshold} ${round(c.value, 4)} > ${c.limit}`).join(', ');

  for (let tick = 1; !stop; tick += 1) {
    await sleep(t0 + tick * plan.sampleSeconds * 1000 - performance.now());
    const reports = await agents.window();
    const server = await sampler.read();
    const t = elapsed();
    const dt = t - lastAt;
    lastAt = t;
    const f = new Figures();
    for (const r of reports) f.addReport(r);
    const cpu = process.cpuUsage(ownCpu);
    ownCpu = process.cpuUsage();
    const agentsNow = agents.cpuMicros;
    const loadCpuCores = (cpu.user + cpu.system + agentsNow - agentCpu) / 1e6 / dt;
    agentCpu = agentsNow;
    const sample: CapacitySample = {
      t: round(t),
      users: levels.at(-1)!.users,
      connectedUsers: reports.reduce((s, r) => s + r.connected, 0),
      ...f.clientFigures(dt),
      cpuCores: round(server.cpuCores, 2),
      heapMiB: round(server.heapMiB),
      rssMiB: round(server.rssMiB),
      eventLoopDelayMs: round(server.eventLoopDelayMs),
      sockets: server.sockets,
      dbCpuCores: round(server.dbCpuCores, 2),
      loadCpuCores: round(loadCpuCores, 2),
    };
    samples.push(sample);
    figures.push(f);
    levelOf.push(levels.length - 1);
    onSample(sample);

    const level = levels.at(-1)!;
    const age = t - level.from;
    const timeUp = t >= plan.durationSeconds - plan.sampleSeconds / 2;

    if (plan.mode === 'bounded') {
      if (timeUp) stop = true;
      continue;
    }

    // Unbounded: decide on the level.
    const stepBack = async (failed: Check[]) => {
      for (const c of failed)
        breaks.push({
          t: sample.t,
          users: level.users,
          threshold: c.threshold,
          value: round(c.value, c.threshold === 'errorRate' ? 6 : 1),
        });
      level.outcome = 'broke';
      const next = level.users - plan.stepUsers;
      onLevel(`${level.users} users: ${describe(failed)}; ${next > 0 ? `back to ${next}` : 'no lower level'}`);
      if (next <= 0) {
        stop = true;
        return;
      }
      phase = 'holding';
      await setLevel(next, t);
    };
    if (phase === 'rising') {
      if (age >= plan.stepSeconds - plan.sampleSeconds / 2) {
        const span = settled();
        const result = judge(span);
        const failed = broken(result);
        if (failed.length > 0) await stepBack(failed);
        else if (timeUp) {
          level.outcome = 'passed';
          onLevel(`${level.users} users held a step; the run's time is up`);
        } else if (level.users >= plan.maxUsers) {
          level.outcome = 'passed';
          onLevel(`${level.users} users held a step: every user of the dataset runs; holding`);
          phase = 'holding';
        } else {
          level.outcome = 'passed';
          const next = Math.min(plan.maxUsers, level.users + plan.stepUsers);
          onLevel(`${level.users} users held a step; adding ${next - level.users}`);
          await setLevel(next, t);
        }
      }
    } else {
      const heldFor = t - (level.from + settleOf[levels.length - 1]!);
      const span = settled(plan.windowSeconds);
      if (span.length > 0 && heldFor >= Math.min(plan.stepSeconds, plan.windowSeconds) - plan.sampleSeconds / 2) {
        const result = judge(span);
        const failed = broken(result);
        if (failed.length > 0) await stepBack(failed);
        else if (heldFor >= plan.windowSeconds - plan.sampleSeconds / 2) {
          level.outcome = 'held';
          converged = true;
          summary = span;
          checks = result;
          onLevel(`${level.users} users held for ${Math.round(heldFor)} s with every threshold met: supported`);
          stop = true;
        }
      }
    }
    if (timeUp) stop = true;
  }
  const end = samples.at(-1)?.t ?? 0;
  const last = levels.at(-1)!;
  last.to = end;

  let supportedUsers: number;
  let decision: string;
  if (plan.mode === 'bounded') {
    supportedUsers = last.users;
    summary = settled();
    if (summary.length === 0) summary = samples.map((_, i) => i);
    checks = judge(summary);
    const failed = broken(checks);
    converged = failed.length === 0;
    decision = `${converged ? 'Every threshold held' : `Broke ${describe(failed)}`} with ${supportedUsers} users, judged from ${settleOf[0]} s on (once every user had started) to ${Math.round(end)} s.`;
  } else if (converged) {
    supportedUsers = last.users;
    decision = `Held ${supportedUsers} users for ${plan.windowSeconds} s with every threshold met${
      breaks.length > 0 ? ` after ${breaks[0]!.threshold} broke at ${breaks[0]!.users}` : ''
    }.`;
  } else {
    // Out of time (or no level left): the highest level that passed a whole step below every level that broke.
    const lowestBroken = Math.min(...levels.filter((l) => l.outcome === 'broke').map((l) => l.users));
    const passed = levels.map((l, i) => ({ l, i })).filter(({ l }) => l.outcome === 'passed' && l.users < lowestBroken);
    const best = passed.reduce<{ l: Level; i: number } | undefined>(
      (b, p) => (!b || p.l.users >= b.l.users ? p : b),
      undefined,
    );
    supportedUsers = best?.l.users ?? 0;
    const li = best?.i ?? 0;
    summary = samples
      .map((s, i) => ({ s, i, start: i === 0 ? 0 : samples[i - 1]!.t }))
      .filter(({ i, start }) => levelOf[i] === li && start >= levels[li]!.from + settleOf[li]!)
      .map(({ i }) => i);
    if (summary.length === 0) summary = samples.map((_, i) => i).filter((i) => levelOf[i] === li);
    checks = judge(summary);
    decision = best
      ? `Not converged within ${plan.durationSeconds} s: ${supportedUsers} users is the highest level that held a whole step${
          Number.isFinite(lowestBroken) ? ` below the lowest that broke (${lowestBroken})` : ''
        }; a longer run would confirm it over ${plan.windowSeconds} s.`
      : `No level held a whole step with every threshold met${
          breaks.length > 0 ? ` (first: ${breaks[0]!.threshold} ${breaks[0]!.value} at ${breaks[0]!.users} users)` : ''
        }.`;
  }
  return {
    samples,
    figures,
    levels,
    breaks,
    supportedUsers,
    converged,
    decision,
    summary,
    checks,
    seconds: end,
  };
}
