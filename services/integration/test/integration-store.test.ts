import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestEnv, type TestEnv } from '@im/testkit';
import mongoose, { Types } from 'mongoose';
import { IntegrationDirectory } from '../src/directory.ts';
import { integrationModels, type IntegrationModels } from '../src/models.ts';
import { IntegrationStore } from '../src/store/integration-store.ts';

/**
 * The store's writes on their own (no broker, so no `integration.changed`
 * drops anything): the directory is read first so the group is cached, then
 * written, then read again.
 */
describe('integration store: the directory is fresh after each write', () => {
  let env: TestEnv;
  let connection: mongoose.Connection;
  let models: IntegrationModels;
  let directory: IntegrationDirectory;
  let store: IntegrationStore;
  before(async () => {
    env = await openTestEnv(import.meta.url);
    connection = await mongoose.createConnection(env.mongoUrl).asPromise();
    models = integrationModels(connection);
    await Promise.all(Object.values(models).map((m) => m.createIndexes()));
    directory = new IntegrationDirectory(models);
    store = new IntegrationStore(models, directory);
  });
  after(async () => {
    await connection?.close();
    await env?.close();
  });

  it('hooks, commands and bots: made, suspended, turned off, deleted', async () => {
    const groupId = new Types.ObjectId();
    const group = groupId.toHexString();
    const maker = new Types.ObjectId();
    const made = { groupId, secret: 'x'.repeat(8), createdBy: maker, createdAt: new Date() };
    assert.equal((await directory.forGroup(group)).outgoing.length, 0);

    const botId = new Types.ObjectId();
    await store.insertBot({ _id: botId, groupId });
    assert.ok((await directory.forGroup(group)).botIds.has(botId.toHexString()));

    const hookId = new Types.ObjectId();
    await store.insertOutgoing({ ...made, _id: hookId, name: 'h', url: 'http://h', triggerWords: [], botId });
    assert.equal((await directory.forGroup(group)).outgoing.length, 1);
    await store.updateOutgoing(group, { _id: hookId }, { $set: { disabled: true } });
    assert.equal((await directory.forGroup(group)).outgoing[0]?.disabled, true);
    await store.updateOutgoingOnce(group, { _id: hookId }, { $unset: { disabled: 1 } });
    assert.equal((await directory.forGroup(group)).outgoing[0]?.disabled, undefined);

    const commandId = new Types.ObjectId();
    await store.insertCommand({ ...made, _id: commandId, trigger: 'deploy', url: 'http://c', botId });
    assert.ok((await directory.forGroup(group)).commands.has('deploy'));

    // The maker lost the right: both are suspended, and no longer in the directory.
    assert.equal(
      await store.updateHooksAndCommands(group, { createdBy: maker }, { $set: { suspendedAt: new Date() } }),
      2,
    );
    assert.equal((await directory.forGroup(group)).outgoing.length, 0);
    // A suspended command stays known (so it can answer that it is suspended), as suspended.
    assert.ok((await directory.forGroup(group)).commands.get('deploy')?.suspendedAt);

    await store.deleteCommand(group, commandId.toHexString());
    assert.equal((await directory.forGroup(group)).commands.size, 0);
    await store.deleteBot(group, botId.toHexString());
    assert.equal((await directory.forGroup(group)).botIds.size, 0);
  });
});
