import type { DndSchedule } from '@im/protocol';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { appLocale } from '../messages/format.ts';
import { changeMyStatus } from '../../state/status.ts';
import { useStore } from '../../state/store.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { StatusLine } from '../common/StatusLine.tsx';
import { useAction } from '../common/useAction.ts';

/** Day 0 (Sunday) to 6 by the language's short names: 7 January 2024 was a Sunday. */
const dayNames = (): string[] => {
  const f = new Intl.DateTimeFormat(appLocale(), { weekday: 'short', timeZone: 'UTC' });
  return [0, 1, 2, 3, 4, 5, 6].map((day) => f.format(new Date(Date.UTC(2024, 0, 7 + day))));
};
const WEEKDAYS = [1, 2, 3, 4, 5];
const deviceZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Quiet hours that repeat (do not disturb from a time to a time on chosen days, in a time zone), in Settings. */
export function DndScheduleSection() {
  const { t } = useTranslation();
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
    if (await run(() => changeMyStatus({ schedule }))) setMessage(on ? t('status.dnd.saved') : t('status.dnd.off'));
  };
  return (
    <form className="form dnd-schedule" onSubmit={(e) => void save(e)} aria-label={t('status.dnd.title')}>
      <h3>{t('status.dnd.title')}</h3>
      <p className="hint">{t('status.dnd.hint')}</p>
      <label className="check">
        <input type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} />
        {t('status.dnd.auto')}
      </label>
      {on && (
        <>
          <div className="row">
            <label>
              {t('status.dnd.from')}
              <input type="time" value={start} required onChange={(e) => setStart(e.target.value)} />
            </label>
            <label>
              {t('status.dnd.to')}
              <input type="time" value={end} required onChange={(e) => setEnd(e.target.value)} />
            </label>
          </div>
          <label>
            {t('status.dnd.zone')}
            <input value={timeZone} required onChange={(e) => setTimeZone(e.target.value)} />
          </label>
          <div className="row" role="group" aria-label={t('status.dnd.days')}>
            {dayNames().map((name, day) => (
              <label key={name} className="check">
                <input type="checkbox" checked={days.includes(day)} onChange={() => toggleDay(day)} />
                {name}
              </label>
            ))}
            <button type="button" onClick={() => setDays(WEEKDAYS)}>
              {t('status.dnd.weekdays')}
            </button>
          </div>
        </>
      )}
      <ErrorLine error={error} />
      <StatusLine message={message} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || (on && days.length === 0)}>
          {t('status.dnd.apply')}
        </button>
      </div>
    </form>
  );
}
