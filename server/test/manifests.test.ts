import assert from 'node:assert/strict';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
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
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?\sfrom\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('/') && !s.startsWith('node:') && !builtinModules.includes(s))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

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
