import type { DndSchedule } from '@im/protocol';
import { useEffect, useState, type FormEvent } from 'react';
import { changeMyStatus } from '../../state/status.ts';
import { useStore } from '../../state/store.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { StatusLine } from '../common/StatusLine.tsx';
import { useAction } from '../common/useAction.ts';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const WEEKDAYS = [1, 2, 3, 4, 5];
const deviceZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Quiet hours that repeat (do not disturb from a time to a time on chosen days, in a time zone), in Settings. */
export function DndScheduleSection() {
  const saved = useStore((s) => s.myStatus?.schedule ?? null);
  const [on, setOn] = useState(saved !== null);
  const [start, setStart] = useState(saved?.start ?? '22:00');
  const [end, setEnd] = useState(saved?.end ?? '08:00');
  const [timeZone, setTimeZone] = useState(saved?.timeZone ?? deviceZone());
  const [days, setDays] = useState<number[]>(saved?.days ?? [0, 1, 2, 3, 4, 5, 6]);
  const [message, setMessage] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  useEffect(() => {
    setOn(saved !== null);
    if (!saved) return;
    setStart(saved.start);
    setEnd(saved.end);
    setTimeZone(saved.timeZone);
    setDays(saved.days ?? [0, 1, 2, 3, 4, 5, 6]);
  }, [saved]);

  const toggleDay = (day: number) =>
    setDays((now) => (now.includes(day) ? now.filter((d) => d !== day) : [...now, day].sort((a, b) => a - b)));
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const schedule: DndSchedule | null = on ? { start, end, timeZone, ...(days.length < 7 ? { days } : {}) } : null;
    if (await run(() => changeMyStatus({ schedule }))) setMessage(on ? 'Schedule saved.' : 'Schedule turned off.');
  };
  return (
    <form className="form dnd-schedule" onSubmit={(e) => void save(e)} aria-label="Do not disturb schedule">
      <h3>Do not disturb schedule</h3>
      <p className="hint">No push and no notifications during these hours; messages still wait in your inbox.</p>
      <label className="check">
        <input type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} />
        Turn on do not disturb automatically
      </label>
      {on && (
        <>
          <div className="row">
            <label>
              From
              <input type="time" value={start} required onChange={(e) => setStart(e.target.value)} />
            </label>
            <label>
              To
              <input type="time" value={end} required onChange={(e) => setEnd(e.target.value)} />
            </label>
          </div>
          <label>
            Time zone
            <input value={timeZone} required onChange={(e) => setTimeZone(e.target.value)} />
          </label>
          <div className="row" role="group" aria-label="Days">
            {DAYS.map((name, day) => (
              <label key={name} className="check">
                <input type="checkbox" checked={days.includes(day)} onChange={() => toggleDay(day)} />
                {name}
              </label>
            ))}
            <button type="button" onClick={() => setDays(WEEKDAYS)}>
              Weekdays
            </button>
          </div>
        </>
      )}
      <ErrorLine error={error} />
      <StatusLine message={message} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || (on && days.length === 0)}>
          Apply schedule
        </button>
      </div>
    </form>
  );
}
