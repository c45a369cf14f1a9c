import type { ImportJob } from '@im/protocol';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ImportJobView, progressText } from './ImportJobView.tsx';

const running: ImportJob = {
  id: 'j1',
  kind: 'mattermost',
  fileName: 'team.jsonl',
  status: 'running',
  progress: { phase: 'messages', messages: 1200, total: 5000 },
  groupIds: [],
  startedAt: '2026-01-01T00:00:00.000Z',
};

describe('ImportJobView', () => {
  it('shows the phase and the messages so far while it runs', () => {
    render(<ImportJobView job={running} />);
    expect(screen.getByTestId('import-progress').textContent).toBe(progressText(running));
    expect(progressText(running)).toBe('messages: 1,200 of 5,000 messages so far');
    expect(screen.getByTestId('import-status').textContent).toBe('Running');
    expect(screen.queryByTestId('import-summary')).toBeNull();
  });

  it('shows what it wrote and why things were skipped once done', () => {
    const done: ImportJob = {
      ...running,
      status: 'done',
      finishedAt: '2026-01-01T00:05:00.000Z',
      summary: { groups: 1, panels: 3, users: 4, messages: 5000, replies: 40, reactions: 12, files: 2, skipped: 9 },
      skippedReasons: { 'system message': 2, 'file missing from the export': 7 },
    };
    render(<ImportJobView job={done} />);
    expect(screen.queryByTestId('import-progress')).toBeNull();
    expect(screen.getByTestId('summary-messages').textContent).toBe('5,000');
    expect(screen.getByTestId('summary-skipped').textContent).toBe('9');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'file missing from the export: 7',
      'system message: 2',
    ]);
  });

  it("says why it failed in the server's words", () => {
    render(
      <ImportJobView
        job={{ ...running, status: 'failed', error: { code: 'X', message: 'Not a Mattermost export' } }}
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe('Not a Mattermost export');
    expect(screen.getByTestId('import-status').textContent).toBe('Failed');
  });
});
