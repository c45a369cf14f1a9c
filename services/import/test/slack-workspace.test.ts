import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workspaceOf } from '../src/sources/slack/workspace.ts';

describe('the workspace of a Slack export', () => {
  it('is named by the export file, without the tail Slack adds', () => {
    for (const path of [
      '/x/Acme Corp Slack export Jan 1 2020 - Mar 3 2024.zip',
      '/x/Acme Corp Slack export Jan 1 2020 - Mar 3 2024/',
      'Acme Corp-slack-export.zip',
    ])
      assert.equal(workspaceOf(path, [], []).name, 'Acme Corp', path);
    assert.equal(workspaceOf('/x/team-archive.zip', [], []).name, 'team-archive');
  });

  it('comes from its team id, else its default or oldest channel, else its name', () => {
    const channels = [
      { id: 'C3', created: 300 },
      { id: 'C2', created: 200 },
      { id: 'C9', created: 900, is_general: true },
    ];
    assert.equal(workspaceOf('a.zip', [{ id: 'U1' }, { id: 'U2', team_id: 'T1' }], channels).origin, 'T1');
    assert.equal(workspaceOf('a.zip', [], [{ id: 'C1', context_team_id: 'T2' }]).origin, 'T2');
    assert.equal(workspaceOf('a.zip', [], channels).origin, 'channel:C9');
    assert.equal(workspaceOf('a.zip', [], channels.slice(0, 2)).origin, 'channel:C2');
    assert.equal(workspaceOf('/x/Acme Slack export.zip', [], []).origin, 'Acme');
  });
});
