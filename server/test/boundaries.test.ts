import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The boundary messages the lint reports for `code` written at `file` (relative to the repository). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

/** The lint rules of eslint.config.js that keep the package boundaries, shown failing a violating file. */
describe('package boundaries (lint)', () => {
  it('refuses a library under packages/ that imports a service, the gateway or server', async () => {
    for (const code of [
      "import { chatEndpoints } from '@im/service-chat/endpoints';\nexport const x = chatEndpoints;\n",
      "import { API_ENDPOINTS } from '@im/gateway/endpoints';\nexport const x = API_ENDPOINTS;\n",
      "import { startNode } from '@im/server';\nexport const x = startNode;\n",
      "import { createChatService } from '../../../services/chat/src/chat.service.ts';\nexport const x = createChatService;\n",
      "export const load = () => import('@im/gateway');\n",
      "export const load = () => import('../../../server/src/node.ts');\n",
    ]) {
      const errors = await boundaryErrors('packages/sdk/src/violation.ts', code);
      assert.equal(errors.length, 1, code);
      assert.match(errors[0]!, /packages\/ (are|must not)/);
      // Its tests, the test kit and any other file under packages/ are held to the same rule.
      for (const file of [
        'packages/sdk/test/violation.test.ts',
        'packages/testkit/src/violation.ts',
        'packages/sdk/x.mjs',
      ])
        assert.equal((await boundaryErrors(file, code)).length, 1, `${file}: ${code}`);
    }
  });

  it('refuses the test kit in production code, and allows it in tests', async () => {
    for (const code of [
      "import { openTestEnv } from '@im/testkit';\nexport const x = openTestEnv;\n",
      "export const load = () => import('@im/testkit');\n",
    ]) {
      for (const file of [
        'server/src/violation.ts',
        'gateway/src/violation.ts',
        'services/chat/src/violation.ts',
        'packages/sdk/src/violation.ts',
        'packages/dev-servers/src/violation.ts',
      ]) {
        const errors = await boundaryErrors(file, code);
        assert.equal(errors.length, 1, `${file}: ${code}`);
        assert.match(errors[0]!, /must not import the test kit/);
      }
      for (const file of ['server/test/ok.test.ts', 'packages/sdk/test/ok.test.ts', 'gateway/test/ok.test.ts'])
        assert.deepEqual(await boundaryErrors(file, code), [], file);
    }
  });

  it('refuses a service that imports another, by package or by path', async () => {
    const cases: [file: string, code: string][] = [
      [
        'services/chat/src/violation.ts',
        "import { groupModels } from '@im/service-group';\nexport const x = groupModels;\n",
      ],
      ['services/chat/src/violation.ts', "import { x } from '@im/service-group/endpoints';\nexport const y = x;\n"],
      ['services/chat/src/violation.ts', "export const load = () => import('@im/service-user');\n"],
      [
        'services/chat/src/violation.ts',
        "import { groupModels } from '../../group/src/models.ts';\nexport const x = groupModels;\n",
      ],
      ['services/chat/src/violation.ts', "export const load = () => import('../../group/src/models.ts');\n"],
      ['services/chat/violation.ts', "import { x } from '../user/src/index.ts';\nexport const y = x;\n"],
      [
        'services/import/src/sources/discord/violation.ts',
        "import { x } from '../../../../chat/src/a.ts';\nexport const y = x;\n",
      ],
      ['services/chat/test/violation.test.ts', "import { x } from '../../group/src/a.ts';\nexport const y = x;\n"],
      // A package, too, is imported by its name, not its files.
      [
        'services/chat/src/violation.ts',
        "import { call } from '../../../packages/sdk/src/index.ts';\nexport const x = call;\n",
      ],
    ];
    for (const [file, code] of cases) {
      const errors = await boundaryErrors(file, code);
      assert.equal(errors.length, 1, `${file}: ${code}`);
      assert.match(errors[0]!, /A service must not import/);
    }
    // Within its own folder, at any depth, a service imports freely (its tests too, and the test kit there).
    for (const [file, code] of [
      [
        'services/import/src/sources/discord/ok.ts',
        "import { x } from '../../source/types.ts';\nexport const y = x;\n",
      ],
      [
        'services/chat/src/ok.ts',
        "import { x } from './models.ts';\nimport { call } from '@im/sdk';\nexport const y = [x, call];\n",
      ],
      [
        'services/chat/test/ok.test.ts',
        "import { x } from '../src/models.ts';\nimport { openTestEnv } from '@im/testkit';\nexport const y = [x, openTestEnv];\n",
      ],
    ])
      assert.deepEqual(await boundaryErrors(file!, code!), [], file);
  });

  it("refuses the benchmark reaching into services' files, and allows their packages", async () => {
    for (const [file, code] of [
      [
        'benchmark/src/capacity/violation.ts',
        "import { chatModels } from '../../../services/chat/src/models.ts';\nexport const x = chatModels;\n",
      ],
      [
        'benchmark/test/violation.test.ts',
        "import { m } from '../../services/chat/src/mentions.ts';\nexport const x = m;\n",
      ],
      ['benchmark/src/violation.ts', "export const load = () => import('../../services/import/test/generator.ts');\n"],
    ]) {
      const errors = await boundaryErrors(file!, code!);
      assert.equal(errors.length, 1, `${file}: ${code}`);
      assert.match(errors[0]!, /benchmark must not import services' files/);
    }
    assert.deepEqual(
      await boundaryErrors(
        'benchmark/src/capacity/ok.ts',
        "import { chatModels } from '@im/service-chat';\nimport { x } from '../lib/api.ts';\nexport const y = [chatModels, x];\n",
      ),
      [],
    );
  });

  it('passes code that keeps to them', async () => {
    assert.deepEqual(
      await boundaryErrors(
        'packages/sdk/src/clean.ts',
        "import type { Message } from '@im/protocol';\nexport type X = Message;\nexport const load = () => [import('@im/dev-servers'), import('./servers.ts')];\n",
      ),
      [],
    );
    assert.deepEqual(
      await boundaryErrors(
        'server/src/clean.ts',
        "import { startMongo } from '@im/dev-servers';\nimport { createChatService } from '@im/service-chat';\nexport const x = [startMongo, createChatService, import('@im/gateway')];\n",
      ),
      [],
    );
  });
});
