// Heap snapshots of a server process and what grew between two of them.
// The server runs with `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=DIR`;
// SIGUSR2 makes it collect garbage and write a `.heapsnapshot` (V8's JSON
// format: flat arrays of nodes and edges described by `snapshot.meta`).
// The summary groups objects as a heap profiler's comparison view does (by
// constructor), plain objects by their first property names so `Object`
// says which objects, and lists the largest Maps and Sets by who holds them.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const snapshotsIn = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot'));

/**
 * Signals every pid for a snapshot into `dir` (their --diagnostic-dir) and
 * waits until each file is written (the writer is synchronous: done when the
 * files stop growing). Returns the new files, moved to `keepAs` if given.
 */
export async function takeHeapSnapshots(pids: number[], dir: string, keepAs?: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const before = new Set(snapshotsIn(dir));
  for (const pid of pids) process.kill(pid, 'SIGUSR2');
  const fresh = () => snapshotsIn(dir).filter((f) => !before.has(f));
  const size = () => fresh().reduce((total, f) => total + statSync(join(dir, f)).size, 0);
  let last = -1;
  for (let waited = 0; waited < 300_000; waited += 1000) {
    await pause(1000);
    const now = size();
    if (fresh().length >= pids.length && now === last && now > 0) break;
    last = now;
  }
  const files = fresh();
  if (!keepAs) return files.map((f) => join(dir, f));
  mkdirSync(keepAs, { recursive: true });
  return files.map((f) => {
    renameSync(join(dir, f), join(keepAs, f));
    return join(keepAs, f);
  });
}

export interface HeapGroup {
  /** Constructor or kind, e.g. `Socket`, `Object {author,content,…}`, `(string)`, `closure onTimeout`. */
  name: string;
  count: number;
  bytes: number;
}

export interface HeapCollection {
  /** Who holds it: retainers' classes and properties, nearest first, e.g. `RecentTail.entries < ChatService.tail`. */
  heldBy: string;
  kind: 'Map' | 'Set';
  /** Bytes of its hash table (grows with its entries). */
  tableBytes: number;
}

export interface HeapSummary {
  totalBytes: number;
  nodes: number;
  groups: HeapGroup[];
  /** The 40 largest Maps and Sets. */
  collections: HeapCollection[];
  /** The 30 largest single objects (at least 64 KiB: backing stores, buffers, strings). */
  largest: Array<{ what: string; bytes: number; heldBy: string }>;
}

interface SnapshotJson {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const KEY_LENGTH = 90;

/** Reads one snapshot file into its summary. */
export function summarizeHeapSnapshot(file: string): HeapSummary {
  const json = JSON.parse(readFileSync(file, 'utf8')) as SnapshotJson;
  const { meta } = json.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const nType = meta.node_fields.indexOf('type');
  const nName = meta.node_fields.indexOf('name');
  const nSize = meta.node_fields.indexOf('self_size');
  const nEdges = meta.node_fields.indexOf('edge_count');
  const eType = meta.edge_fields.indexOf('type');
  const eName = meta.edge_fields.indexOf('name_or_index');
  const eTo = meta.edge_fields.indexOf('to_node');
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const { nodes, edges, strings } = json;
  const count = nodes.length / nf;

  // Where each node's edges start.
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i += 1) {
    firstEdge[i] = e;
    e += nodes[i * nf + nEdges]! * ef;
    firstEdge[i + 1] = e;
  }
  const edgeName = (e: number) => {
    const type = edgeTypes[edges[e + eType]!];
    const raw = edges[e + eName]!;
    return type === 'element' || type === 'hidden' ? String(raw) : strings[raw]!;
  };
  const typeOf = (i: number) => nodeTypes[nodes[i * nf + nType]!]!;
  const nameOf = (i: number) => strings[nodes[i * nf + nName]!]!;

  const keyOf = (i: number): string => {
    const type = typeOf(i);
    const name = nameOf(i);
    if (type === 'object') {
      if (name !== 'Object') return name.slice(0, KEY_LENGTH);
      const props: string[] = [];
      for (let e = firstEdge[i]!; e < firstEdge[i + 1]! && props.length < 6; e += ef) {
        if (edgeTypes[edges[e + eType]!] === 'property') props.push(edgeName(e));
      }
      return `Object {${props.sort().join(',')}}`.slice(0, KEY_LENGTH);
    }
    if (type === 'closure') return `closure ${name || '(anonymous)'}`.slice(0, KEY_LENGTH);
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') return '(string)';
    if (type === 'number' || type === 'heap number') return '(number)';
    return `(${type}) ${name}`.slice(0, KEY_LENGTH);
  };

  const groups = new Map<string, HeapGroup>();
  let totalBytes = 0;
  const collections: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const size = nodes[i * nf + nSize]!;
    totalBytes += size;
    const key = keyOf(i);
    const g = groups.get(key) ?? { name: key, count: 0, bytes: 0 };
    g.count += 1;
    g.bytes += size;
    groups.set(key, g);
    if (typeOf(i) === 'object' && (nameOf(i) === 'Map' || nameOf(i) === 'Set')) collections.push(i);
  }

  // One retainer per node (the first strong edge to it), to say who holds what.
  const retainerEdge = new Int32Array(count).fill(-1);
  const retainerNode = new Int32Array(count);
  for (let from = 0; from < count; from += 1) {
    for (let e = firstEdge[from]!; e < firstEdge[from + 1]!; e += ef) {
      const type = edgeTypes[edges[e + eType]!];
      if (type === 'weak' || type === 'shortcut') continue;
      const to = edges[e + eTo]! / nf;
      if (retainerEdge[to] === -1) {
        retainerEdge[to] = e;
        retainerNode[to] = from;
      }
    }
  }
  /** `Holder.property < Holder2.property < …`, up to four steps, system objects skipped over. */
  const heldByPath = (i: number): string => {
    const steps: string[] = [];
    for (let at = i, hops = 0; hops < 8 && steps.length < 4 && retainerEdge[at] !== -1; hops += 1) {
      const from = retainerNode[at]!;
      const key = keyOf(from);
      if (!key.startsWith('(') && !key.startsWith('system /')) steps.push(`${key}.${edgeName(retainerEdge[at]!)}`);
      at = from;
    }
    return steps.join(' < ').slice(0, 240) || '(root)';
  };

  // The largest Maps and Sets by their table.
  const tableBytes = (i: number) => {
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += ef) {
      if (edgeName(e) === 'table') return nodes[edges[e + eTo]! + nSize]!;
    }
    return 0;
  };
  const largest = collections
    .map((i) => ({ i, bytes: tableBytes(i) }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 40);
  // The largest single nodes (arrays' backing stores, buffers, long strings) and who holds them.
  const big: Array<{ i: number; size: number }> = [];
  for (let i = 0; i < count; i += 1) {
    const size = nodes[i * nf + nSize]!;
    if (size < 64 * 1024) continue;
    big.push({ i, size });
  }
  big.sort((a, b) => b.size - a.size);
  return {
    totalBytes,
    nodes: count,
    groups: [...groups.values()].sort((a, b) => b.bytes - a.bytes),
    collections: largest.map(({ i, bytes }) => ({
      heldBy: heldByPath(i),
      kind: nameOf(i) as 'Map' | 'Set',
      tableBytes: bytes,
    })),
    largest: big.slice(0, 30).map(({ i, size }) => ({ what: keyOf(i), bytes: size, heldBy: heldByPath(i) })),
  };
}

export interface HeapGrowth {
  name: string;
  countBefore: number;
  countAfter: number;
  bytesBefore: number;
  bytesAfter: number;
}

/** Groups that grew from `before` to `after`, most bytes first. */
export function heapGrowth(before: HeapSummary, after: HeapSummary, top = 25): HeapGrowth[] {
  const earlier = new Map(before.groups.map((g) => [g.name, g]));
  return after.groups
    .map((g) => {
      const b = earlier.get(g.name);
      return {
        name: g.name,
        countBefore: b?.count ?? 0,
        countAfter: g.count,
        bytesBefore: b?.bytes ?? 0,
        bytesAfter: g.bytes,
      };
    })
    .filter((g) => g.bytesAfter > g.bytesBefore)
    .sort((a, b) => b.bytesAfter - b.bytesBefore - (a.bytesAfter - a.bytesBefore))
    .slice(0, top);
}

/** The Maps and Sets whose table grew, by who holds them. */
export function collectionGrowth(
  before: HeapSummary,
  after: HeapSummary,
): Array<{ heldBy: string; kind: string; bytesBefore: number; bytesAfter: number }> {
  const key = (c: HeapCollection) => `${c.kind} ${c.heldBy}`;
  const earlier = new Map<string, number>();
  for (const c of before.collections) earlier.set(key(c), (earlier.get(key(c)) ?? 0) + c.tableBytes);
  const later = new Map<string, { heldBy: string; kind: string; bytes: number }>();
  for (const c of after.collections) {
    const k = key(c);
    const l = later.get(k) ?? { heldBy: c.heldBy, kind: c.kind, bytes: 0 };
    l.bytes += c.tableBytes;
    later.set(k, l);
  }
  return [...later.entries()]
    .map(([k, l]) => ({ heldBy: l.heldBy, kind: l.kind, bytesBefore: earlier.get(k) ?? 0, bytesAfter: l.bytes }))
    .filter((c) => c.bytesAfter > c.bytesBefore)
    .sort((a, b) => b.bytesAfter - b.bytesBefore - (a.bytesAfter - a.bytesBefore));
}
