import { openScheduled, useScheduled } from '../../state/scheduled.ts';

/** Above the composer: how many of my messages wait to be sent here, and the way to the list. */
export function ScheduledHint(props: { converseId: string }) {
  const items = useScheduled((s) => s.items);
  const here = items.filter((i) => i.converseId === props.converseId);
  if (here.length === 0) return null;
  const failed = here.filter((i) => i.status === 'failed').length;
  const waiting = here.length - failed;
  return (
    <div className="scheduled-hint" role="status" data-testid="scheduled-hint">
      {waiting > 0 && `${waiting} ${waiting === 1 ? 'message' : 'messages'} scheduled here`}
      {waiting > 0 && failed > 0 && ', '}
      {failed > 0 && `${failed} not sent`}{' '}
      <button type="button" className="link" onClick={() => openScheduled()}>
        See scheduled
      </button>
    </div>
  );
}
