// A git ref checked out beside this one, ready to run: `git worktree add` plus
// its npm packages, so two releases can be measured with the same tools.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Checkout {
  ref: string;
  commit: string;
  dir: string;
  /** How its packages were provided: linked to this checkout's (same lockfile) or installed. */
  packages: 'linked' | 'installed';
  remove(): Promise<void>;
}

/** The commit a ref names, or a clear error. */
export async function resolveRef(ref: string): Promise<string> {
  try {
    const { stdout } = await run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: REPO_ROOT });
    return stdout.trim();
  } catch {
    throw new Error(`'${ref}' is not a commit, branch or tag of this repository`);
  }
}

export async function checkoutRef(ref: string, parent: string, label: string): Promise<Checkout> {
  const commit = await resolveRef(ref);
  const dir = resolve(parent, `${label}-${commit.slice(0, 10)}`);
  mkdirSync(parent, { recursive: true });
  await run('git', ['worktree', 'add', '--detach', '--force', dir, commit], { cwd: REPO_ROOT });
  const remove = async () => {
    await run('git', ['worktree', 'remove', '--force', dir], { cwd: REPO_ROOT }).catch(() => undefined);
    await run('git', ['worktree', 'prune'], { cwd: REPO_ROOT }).catch(() => undefined);
  };
  try {
    const sameLock =
      existsSync(join(dir, 'package-lock.json')) &&
      readFileSync(join(dir, 'package-lock.json'), 'utf8') ===
        readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8');
    if (sameLock) linkPackages(dir);
    else await installPackages(dir);
    return { ref, commit, dir, packages: sameLock ? 'linked' : 'installed', remove };
  } catch (err) {
    await remove();
    throw err;
  }
}

/**
 * Same lockfile: the third-party packages are this checkout's (linked one by
 * one), while the workspace packages (`@im/*`, relative links) resolve inside
 * the worktree, so the worktree runs its own code.
 */
function linkPackages(dir: string): void {
  const source = join(REPO_ROOT, 'node_modules');
  const target = join(dir, 'node_modules');
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    if (entry.name === '@im') {
      mkdirSync(join(target, '@im'), { recursive: true });
      for (const pkg of readdirSync(join(source, '@im'))) {
        symlinkSync(readlinkSync(join(source, '@im', pkg)), join(target, '@im', pkg));
      }
      continue;
    }
    symlinkSync(join(source, entry.name), join(target, entry.name));
  }
}

async function installPackages(dir: string): Promise<void> {
  await run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
  });
}
