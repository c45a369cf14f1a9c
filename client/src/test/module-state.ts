import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** A module-level binding that holds state between calls, and whether its module forgets it at sign-out. */
export interface ModuleState {
  /** `state/threads.ts#useThreads`, relative to the source root. */
  id: string;
  forgotten: boolean;
  /** Made by the session scope (accountStore, accountMap, accountSet): it registers itself. */
  madeInScope: boolean;
}

/** What the session scope makes: a store, Map or Set made with these is forgotten at sign-out by itself. */
const SELF_FORGETTING = new Set(['accountStore', 'accountMap', 'accountSet']);

const MUTATING_METHODS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill']);

/** Every source file under `root` that is not a test or test helper. */
export function sourceFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'test' ? [] : walk(full);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
    });
  return walk(root).sort();
}

const unwrap = (node: ts.Expression): ts.Expression =>
  ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)
    ? unwrap(node.expression)
    : node;

/** The identifier a call is made on: `create` for create<T>()(...) and create(...), `accountStore` for accountStore(...). */
function calleeName(node: ts.Expression): string | undefined {
  const inner = unwrap(node);
  if (!ts.isCallExpression(inner)) return undefined;
  const callee = unwrap(inner.expression);
  if (ts.isIdentifier(callee)) return callee.text;
  return calleeName(callee);
}

/** The identifier at the root of `a.b[c].d`. */
function rootName(node: ts.Expression): string | undefined {
  const inner = unwrap(node);
  if (ts.isIdentifier(inner)) return inner.text;
  if (ts.isPropertyAccessExpression(inner) || ts.isElementAccessExpression(inner)) return rootName(inner.expression);
  return undefined;
}

const isAssignment = (kind: ts.SyntaxKind) =>
  kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;

/**
 * The module-level bindings of one file that hold state: every `let`; a
 * `const` made with `new` (a Map, a Set, a timer table...) or zustand's
 * `create`; a `const` object or array literal the module changes in place.
 * Made with `accountStore`, `accountMap` or `accountSet`, or named inside a `forgetOnSignOut(...)` call of
 * the same module, it counts as forgotten at sign-out.
 */
export function moduleState(file: string, root: string): ModuleState[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const candidates = new Map<string, { literal: boolean; selfForgetting: boolean }>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const isLet = (statement.declarationList.flags & ts.NodeFlags.Let) !== 0;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name)) continue;
      const init = declaration.initializer ? unwrap(declaration.initializer) : undefined;
      const name = declaration.name.text;
      const made = init ? calleeName(init) : undefined;
      if (made && SELF_FORGETTING.has(made)) candidates.set(name, { literal: false, selfForgetting: true });
      else if (isLet || (init && ts.isNewExpression(init)) || made === 'create')
        candidates.set(name, { literal: false, selfForgetting: false });
      else if (init && (ts.isObjectLiteralExpression(init) || ts.isArrayLiteralExpression(init)))
        candidates.set(name, { literal: true, selfForgetting: false });
    }
  }
  const changed = new Set<string>();
  const forgotten = new Set<string>();
  const visit = (node: ts.Node, inForget: boolean): void => {
    if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind)) {
      const left = unwrap(node.left);
      if (!ts.isIdentifier(left)) {
        const name = rootName(left);
        if (name) changed.add(name);
      }
    }
    if (ts.isDeleteExpression(node)) {
      const name = rootName(node.expression);
      if (name) changed.add(name);
    }
    let forgetting = inForget;
    if (ts.isCallExpression(node)) {
      const callee = unwrap(node.expression);
      if (ts.isPropertyAccessExpression(callee) && MUTATING_METHODS.has(callee.name.text)) {
        const name = rootName(callee.expression);
        if (name) changed.add(name);
      }
      if (ts.isIdentifier(callee) && callee.text === 'forgetOnSignOut') forgetting = true;
    }
    if (inForget && ts.isIdentifier(node)) forgotten.add(node.text);
    ts.forEachChild(node, (child) => visit(child, forgetting));
  };
  visit(source, false);
  const at = relative(root, file).split('\\').join('/');
  return [...candidates]
    .filter(([name, c]) => !c.literal || changed.has(name))
    .map(([name, c]) => ({
      id: `${at}#${name}`,
      forgotten: c.selfForgetting || forgotten.has(name),
      madeInScope: c.selfForgetting,
    }));
}
