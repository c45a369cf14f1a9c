import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

const restricted = async (file: string, code: string) => {
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
};

/** The web app takes API paths from the typed client (eslint.config.js): a hand-written one fails the lint. */
describe('API paths in the web app (lint)', () => {
  it('refuses an /api/ path written in a string or a template', async () => {
    for (const code of [
      "export const groups = () => fetch('/api/groups');\n",
      'export const group = (id: string) => fetch(`/api/groups/${id}`);\n',
    ]) {
      const errors = await restricted('client/src/state/violation.ts', code);
      assert.equal(errors.length, 1, code);
      assert.match(errors[0]!, /api\.call/);
    }
  });

  it("passes the typed client's calls and paths", async () => {
    const code =
      "import { api, apiPath } from '../api/api.ts';\nexport const x = [api.call('group.list'), apiPath('file.download', { fileId: 'f' })];\n";
    assert.deepEqual(await restricted('client/src/state/clean.ts', code), []);
  });
});
