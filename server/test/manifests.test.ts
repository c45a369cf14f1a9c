import assert from 'node:assert/strict';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Manifest {
  name: string;
  exports?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Manifest;
const rootManifest = read(join(root, 'package.json')) as Manifest & { workspaces: string[] };
const workspaces = rootManifest.workspaces
  .flatMap((pattern) => globSync(`${pattern}/package.json`, { cwd: root }))
  .map((file) => ({ dir: join(root, dirname(file)), manifest: read(join(root, file)) }));

/** Packages a file imports (bare specifiers only, by package name; node: built-ins left out). */
function importsOf(file: string, { runtimeOnly = false } = {}): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...[...text.matchAll(/^\s*(?:import|export)\s([^'"]*?)\sfrom\s+['"]([^'"]+)['"]/gm)]
      // `import type` / `export type` are erased before the code runs.
      .filter((m) => !runtimeOnly || !/^type\s/.test(m[1]!.trim()))
      .map((m) => m[2]!),
    ...[...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
  ];
  return specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('/') && !s.startsWith('node:') && !builtinModules.includes(s))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

/** The workspaces whose manifests the Dockerfile copies before `npm ci --omit=dev`: what the image installs. */
function imageWorkspaces(): Set<string> {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  return new Set([...dockerfile.matchAll(/^COPY\s+(\S+)\/package\.json\s/gm)].map((m) => m[1]!));
}

// Scripts run by npm (not by the server) that may use their workspace's dev dependencies.
const DEV_SCRIPTS = new Set(['gateway/src/api/generate-response-schemas.ts', 'gateway/src/api/generate-api-client.ts']);

// Repository tooling every workspace may use (type checking, lint, the test runner's types).
const TOOLING = new Set(Object.keys((rootManifest as Manifest).devDependencies ?? {}));

describe('workspace manifests', () => {
  it('export only files that exist', () => {
    for (const { dir, manifest } of workspaces) {
      for (const [key, target] of Object.entries(manifest.exports ?? {}))
        assert.ok(existsSync(join(dir, target)), `${manifest.name} exports ${key} -> ${target}, which does not exist`);
    }
  });

  it('declare every package their code imports', () => {
    const missing: string[] = [];
    for (const { dir, manifest } of workspaces) {
      const declared = new Set([
        manifest.name,
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.devDependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
        ...TOOLING,
      ]);
      const files = globSync('**/*.{ts,tsx}', { cwd: dir, exclude: (f) => /node_modules|dist|dist-types/.test(f) });
      for (const file of files) {
        for (const name of importsOf(join(dir, file))) {
          if (!declared.has(name)) missing.push(`${manifest.name}: ${file} imports ${name}`);
        }
      }
    }
    assert.deepEqual(missing, []);
  });

  it("let the image's code load only what npm ci --omit=dev installs", () => {
    const inImage = imageWorkspaces();
    const byName = new Map(workspaces.map((w) => [w.manifest.name, w]));
    const missing: string[] = [];
    for (const { dir, manifest } of workspaces) {
      const at = relative(root, dir);
      if (!inImage.has(at)) continue;
      const runtime = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {})]);
      for (const file of globSync('src/**/*.{ts,tsx}', { cwd: dir })) {
        if (DEV_SCRIPTS.has(`${at}/${file}`)) continue;
        for (const name of importsOf(join(dir, file), { runtimeOnly: true })) {
          if (!runtime.has(name)) missing.push(`${manifest.name}: ${file} loads ${name}, not in its dependencies`);
        }
      }
      // A workspace it depends on must be in the image too.
      for (const dep of Object.keys(manifest.dependencies ?? {})) {
        const workspace = byName.get(dep);
        if (workspace && !inImage.has(relative(root, workspace.dir)))
          missing.push(`${manifest.name} depends on ${dep}, which the Dockerfile does not copy`);
      }
    }
    assert.deepEqual(missing, []);
    assert.ok(inImage.has('server'), 'the Dockerfile copies the composition root');
    assert.ok(!inImage.has('packages/testkit'), 'the Dockerfile leaves the test kit out');
    const cmd = /^CMD\s+\[\s*"node",\s*"([^"]+)"\s*\]/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'));
    assert.ok(cmd && existsSync(join(root, cmd[1]!)), `the image's CMD runs a file that exists (${cmd?.[1]})`);
  });

  it('keep the test kit out of what production code depends on', () => {
    // The benchmarks and the web client's browser tests are tools around the platform, not part of it.
    const tools = new Set(['@im/testkit', '@im/benchmark', '@im/client']);
    for (const { manifest } of workspaces) {
      if (tools.has(manifest.name)) continue;
      assert.equal(
        manifest.dependencies?.['@im/testkit'],
        undefined,
        `${manifest.name} depends on @im/testkit at run time`,
      );
    }
  });
});
