import { describe, expect, it } from 'vitest';
import { fromLocalInput, nextMondayMorning, sendLaterChoices, toLocalInput, tomorrowMorning } from './later-times.ts';

describe('the times "Send later" and "Remind me" offer', () => {
  it('puts tomorrow 9:00 on the next day, whatever the hour now', () => {
    const lateEvening = new Date(2026, 2, 31, 23, 30);
    expect(tomorrowMorning(lateEvening)).toEqual(new Date(2026, 3, 1, 9, 0));
  });

  it('puts Monday 9:00 on the coming Monday, a week ahead when it is Monday already', () => {
    const wednesday = new Date(2026, 10, 25, 14, 0);
    expect(nextMondayMorning(wednesday)).toEqual(new Date(2026, 10, 30, 9, 0));
    const sunday = new Date(2026, 10, 29, 8, 0);
    expect(nextMondayMorning(sunday)).toEqual(new Date(2026, 10, 30, 9, 0));
    const mondayEarly = new Date(2026, 10, 30, 7, 0);
    expect(nextMondayMorning(mondayEarly)).toEqual(new Date(2026, 11, 7, 9, 0));
  });

  it('offers in 1 hour, tomorrow and Monday, all in the future', () => {
    const now = new Date(2026, 10, 28, 10, 15);
    const choices = sendLaterChoices(now);
    expect(choices.map((c) => c.label)).toEqual(['In 1 hour', 'Tomorrow 9:00', 'Monday 9:00']);
    expect(choices[0]!.at).toEqual(new Date(2026, 10, 28, 11, 15));
    for (const c of choices) expect(c.at.getTime()).toBeGreaterThan(now.getTime());
  });

  it('reads back what a date and time field shows, and nothing from an empty one', () => {
    const at = new Date(2026, 0, 5, 7, 3);
    expect(toLocalInput(at)).toBe('2026-01-05T07:03');
    expect(fromLocalInput(toLocalInput(at))).toEqual(at);
    expect(fromLocalInput('')).toBeNull();
  });
});
