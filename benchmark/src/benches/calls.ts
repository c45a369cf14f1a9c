// What a call costs the server: a LiveKit server (the one setup builds) on
// loopback, N people in one room, each publishing a 640x360 camera at 24 fps
// and a microphone (LiveKit's native client, @livekit/rtc-node, with moving
// synthetic frames so the encoder produces a real stream). Two shapes:
// `mesh`, everyone receives everyone (a call of N people with cameras on),
// and `viewer`, one more person receives all N and the publishers receive
// nothing (what taking in N streams costs, with the clients' decoding kept
// small). Measured per N over a steady window after a warm-up:
// livekit-server's CPU (from /proc), its RSS, and what it received and
// forwarded (its Prometheus counters), beside this process's own CPU (it
// encodes and decodes for everyone, on the same machine: when it runs out of
// cores, fewer tracks are subscribed than expected and the run says so).
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { freePort, startLiveKit, type LiveKitServerHandle } from '@im/dev-servers';
import {
  AudioFrame,
  AudioSource,
  dispose,
  LocalAudioTrack,
  LocalVideoTrack,
  Room,
  TrackPublishOptions,
  TrackSource,
  VideoBufferType,
  VideoFrame,
  VideoSource,
} from '@livekit/rtc-node';
import { AccessToken } from 'livekit-server-sdk';
import { benchArgs, intListOption, intOption } from '../lib/args.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { table, writeResult } from '../lib/report.ts';
import { mib } from '../lib/rss-sampler.ts';
import { round } from '../lib/stats.ts';

const WIDTH = 640;
const HEIGHT = 360;
const FPS = 24;
/** Distinct frames cycled through: a bar moving over a gradient, so every frame differs from the last. */
const FRAME_LOOP = 48;
const AUDIO_RATE = 48_000;
const AUDIO_FRAME_MS = 10;
const ROOM = 'bench-call';

/** Clock ticks per second of /proc's CPU counters (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

type Shape = 'mesh' | 'viewer';

/** How long everyone may take to receive everyone before the run goes on without them. */
const SUBSCRIBE_DEADLINE_MS = 30_000;

/** Nothing of a run may wait for ever on an overloaded machine. */
const STEP_TIMEOUT_MS = 15_000;
/**
 * Joining takes longer as the call grows: the clients of everyone already in
 * it encode and decode on the same cores (the 8th of 8 has taken over 15 s).
 */
const JOIN_TIMEOUT_MS = 90_000;

const within = <T>(what: string, work: Promise<T>, timeoutMs = STEP_TIMEOUT_MS): Promise<T> =>
  Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: no answer in ${timeoutMs} ms`)), timeoutMs).unref(),
    ),
  ]);

interface Sample {
  shape: Shape;
  publishers: number;
  serverCpuPercentOfCore: number;
  serverRssMiB: number;
  forwardedMbitPerSecond: number;
  receivedMbitPerSecond: number;
  tracksSubscribed: number;
  tracksExpected: number;
  loadCpuPercentOfCore: number;
}

/** I420 frames of a vertical bar moving across a horizontal gradient. */
function syntheticFrames(): VideoFrame[] {
  const ySize = WIDTH * HEIGHT;
  const cSize = (WIDTH / 2) * (HEIGHT / 2);
  return Array.from({ length: FRAME_LOOP }, (_, i) => {
    const data = new Uint8Array(ySize + 2 * cSize);
    const barStart = Math.floor((i / FRAME_LOOP) * WIDTH);
    for (let y = 0; y < HEIGHT; y += 1) {
      for (let x = 0; x < WIDTH; x += 1) {
        const inBar = x >= barStart && x < barStart + 48;
        data[y * WIDTH + x] = inBar ? 235 : (x * 200) / WIDTH + ((y * 7 + i * 3) % 16);
      }
    }
    data.fill(128 + ((i * 5) % 40), ySize, ySize + cSize);
    data.fill(128 - ((i * 3) % 40), ySize + cSize);
    return new VideoFrame(data, WIDTH, HEIGHT, VideoBufferType.I420);
  });
}

/** 10 ms of a 440 Hz tone. */
function toneFrame(): AudioFrame {
  const samples = (AUDIO_RATE * AUDIO_FRAME_MS) / 1000;
  const data = new Int16Array(samples);
  for (let i = 0; i < samples; i += 1) data[i] = Math.round(Math.sin((2 * Math.PI * 440 * i) / AUDIO_RATE) * 8000);
  return new AudioFrame(data, AUDIO_RATE, 1, samples);
}

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/** livekit-server itself: the child of the test kit's tether that runs it. */
function serverPid(livekit: LiveKitServerHandle): number {
  const tether = livekit.process.pid!;
  const children = readFileSync(`/proc/${tether}/task/${tether}/children`, 'utf8').trim().split(/\s+/).map(Number);
  const found = children.find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('livekit-server');
    } catch {
      return false;
    }
  });
  if (!found) throw new Error('livekit-server process not found');
  return found;
}

/** Sums a counter family of LiveKit's Prometheus text by label filter. */
async function counter(base: string, name: string, labels: RegExp): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(STEP_TIMEOUT_MS) })).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) || !labels.test(line)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** One person in the call: camera and microphone published, everyone else received. */
class Participant {
  readonly room = new Room();
  #timers: NodeJS.Timeout[] = [];

  /** Joins; publishes camera and microphone unless `frames` is undefined (a viewer). */
  async join(url: string, token: string, receive: boolean, frames?: VideoFrame[], tone?: AudioFrame): Promise<void> {
    await within('joining', this.room.connect(url, token, { autoSubscribe: receive, dynacast: true }), JOIN_TIMEOUT_MS);
    if (!frames || !tone) return;
    const video = new VideoSource(WIDTH, HEIGHT);
    const audio = new AudioSource(AUDIO_RATE, 1);
    const camera = new TrackPublishOptions();
    camera.source = TrackSource.SOURCE_CAMERA;
    camera.simulcast = true;
    const microphone = new TrackPublishOptions();
    microphone.source = TrackSource.SOURCE_MICROPHONE;
    await this.room.localParticipant!.publishTrack(LocalVideoTrack.createVideoTrack('camera', video), camera);
    await this.room.localParticipant!.publishTrack(LocalAudioTrack.createAudioTrack('microphone', audio), microphone);
    let n = 0;
    this.#timers.push(
      setInterval(() => {
        video.captureFrame(frames[n % frames.length]!, BigInt(n) * BigInt(Math.round(1_000_000 / FPS)));
        n += 1;
      }, 1000 / FPS),
      setInterval(() => void audio.captureFrame(tone).catch(() => undefined), AUDIO_FRAME_MS),
    );
  }

  subscribed(): number {
    let n = 0;
    for (const p of this.room.remoteParticipants.values())
      for (const t of p.trackPublications.values()) if (t.track) n += 1;
    return n;
  }

  async leave(): Promise<void> {
    for (const t of this.#timers) clearInterval(t);
    await within('leaving', this.room.disconnect());
  }
}

const token = (livekit: LiveKitServerHandle, identity: string) => {
  const t = new AccessToken(livekit.apiKey, livekit.apiSecret, { identity, ttl: '1h' });
  t.addGrant({ room: ROOM, roomJoin: true, canPublish: true, canSubscribe: true });
  return t.toJwt();
};

async function measure(shape: Shape, count: number, warmupSeconds: number, seconds: number): Promise<Sample> {
  const prometheusPort = await freePort();
  const livekit = await startLiveKit({ prometheusPort });
  const metrics = `http://127.0.0.1:${prometheusPort}`;
  const pid = serverPid(livekit);
  const frames = syntheticFrames();
  const tone = toneFrame();
  const people = Array.from({ length: count + (shape === 'viewer' ? 1 : 0) }, () => new Participant());
  try {
    for (const [i, person] of people.entries()) {
      const publishes = i < count;
      const receives = shape === 'mesh' || !publishes;
      const identity = publishes ? `person-${i + 1}` : 'viewer';
      const grant = await token(livekit, identity);
      if (publishes) await person.join(livekit.url, grant, receives, frames, tone);
      else await person.join(livekit.url, grant, receives);
    }
    const expected = shape === 'mesh' ? count * (count - 1) * 2 : count * 2;
    const subscribed = () => people.reduce((sum, p) => sum + p.subscribed(), 0);
    // Everyone receiving what they should before the clock starts (or a deadline, on a machine out of CPU).
    const deadline = Date.now() + SUBSCRIBE_DEADLINE_MS;
    while (subscribed() < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    process.stdout.write(`  ${people.length} in the call; warming up ${warmupSeconds} s\n`);
    await new Promise((r) => setTimeout(r, warmupSeconds * 1000));
    const tracks = subscribed();
    if (tracks < expected)
      process.stdout.write(`  warning: ${tracks} of ${expected} tracks subscribed (the clients ran out of CPU?)\n`);
    const startCpu = cpuSeconds(pid);
    const startOut = await counter(metrics, 'livekit_packet_bytes', /direction="outgoing"/);
    const startIn = await counter(metrics, 'livekit_packet_bytes', /direction="incoming"/);
    const load = process.cpuUsage();
    const started = performance.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const elapsed = (performance.now() - started) / 1000;
    const own = process.cpuUsage(load);
    const out = await counter(metrics, 'livekit_packet_bytes', /direction="outgoing"/);
    const inn = await counter(metrics, 'livekit_packet_bytes', /direction="incoming"/);
    return {
      shape,
      publishers: count,
      serverCpuPercentOfCore: round(((cpuSeconds(pid) - startCpu) / elapsed) * 100),
      serverRssMiB: round(mib(rssBytes(pid))),
      forwardedMbitPerSecond: round(((out - startOut) * 8) / elapsed / 1e6, 2),
      receivedMbitPerSecond: round(((inn - startIn) * 8) / elapsed / 1e6, 2),
      tracksSubscribed: tracks,
      tracksExpected: expected,
      loadCpuPercentOfCore: round(((own.user + own.system) / 1e6 / elapsed) * 100),
    };
  } finally {
    for (const person of people) await person.leave().catch(() => undefined);
    await livekit.stop();
  }
}

export async function run(argv: string[]): Promise<void> {
  const args = benchArgs(argv, {
    publishers: { type: 'string' },
    seconds: { type: 'string' },
    'warmup-seconds': { type: 'string' },
    shapes: { type: 'string' },
  });
  const shapes = (args.shapes ?? 'mesh,viewer').split(',').map((s) => s.trim());
  if (shapes.some((s) => s !== 'mesh' && s !== 'viewer')) {
    process.stderr.write(`--shapes takes mesh and/or viewer (got ${JSON.stringify(args.shapes)})\n`);
    process.exit(2);
  }
  // Each Room listens on the native client's one emitter.
  EventEmitter.defaultMaxListeners = 100;
  const counts = intListOption('publishers', args.publishers, [2, 4, 8]);
  // LiveKit adds each track's bytes to its counters every 5 s: a long window keeps that step small.
  const seconds = intOption('seconds', args.seconds, 60);
  const warmup = intOption('warmup-seconds', args['warmup-seconds'], 10);
  const load = new LoadCpu();
  const samples: Sample[] = [];
  for (const shape of shapes as Shape[])
    for (const count of counts) {
      process.stdout.write(
        `${shape}: ${count} people publishing ${WIDTH}x${HEIGHT}@${FPS} and a microphone, ${seconds} s\n`,
      );
      samples.push(await measure(shape, count, warmup, seconds));
    }
  await dispose();
  process.stdout.write(
    table(
      samples.map((s) => ({
        shape: s.shape,
        publishers: s.publishers,
        'livekit CPU % of a core': s.serverCpuPercentOfCore,
        'livekit RSS MiB': s.serverRssMiB,
        'forwarded Mbit/s': s.forwardedMbitPerSecond,
        'received Mbit/s': s.receivedMbitPerSecond,
        'tracks subscribed': `${s.tracksSubscribed}/${s.tracksExpected}`,
        'clients CPU % of a core': s.loadCpuPercentOfCore,
      })),
    ),
  );
  writeResult(
    {
      benchmark: 'calls',
      video: `${WIDTH}x${HEIGHT} at ${FPS} fps, simulcast`,
      audio: `${AUDIO_RATE} Hz mono`,
      seconds,
      warmupSeconds: warmup,
      samples,
    },
    { out: args.out, load },
  );
}
