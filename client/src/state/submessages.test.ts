import type { Submessage } from '@im/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { applySubmessage, reduceWidget, useSubmessages, type WidgetReducer } from './submessages.ts';

afterEach(() => useSubmessages.setState({ byMessage: {} }));

const MESSAGE = 'm'.repeat(24);
let n = 0;
const sub = (content: unknown, senderId = 'a'.repeat(24)): Submessage => {
  n += 1;
  return {
    id: n.toString(16).padStart(24, '0'),
    messageId: MESSAGE,
    converseId: 'c'.repeat(24),
    senderId,
    content: typeof content === 'string' ? content : JSON.stringify(content),
    createdAt: new Date(Date.UTC(2026, 10, 1, 9, n)).toISOString(),
  };
};

/** A to-do list, as a later widget would define it: nothing of it is on the server. */
type Todo = Array<{ text: string; done: boolean }>;
const todo: WidgetReducer<Todo> = (state, event) => {
  const e = event as { type?: string; text?: string; index?: number };
  if (e.type === 'add' && typeof e.text === 'string') return [...state, { text: e.text, done: false }];
  if (e.type === 'done' && typeof e.index === 'number' && state[e.index])
    return state.map((item, i) => (i === e.index ? { ...item, done: true } : item));
  return state;
};

describe('submessages reduced into a widget', () => {
  it('folds the events in order, skipping what it does not understand', () => {
    const events = [
      sub({ type: 'add', text: 'milk' }),
      sub('not json'),
      sub({ type: 'x' }),
      sub({ type: 'add', text: 'eggs' }),
    ];
    events.push(sub({ type: 'done', index: 1 }));
    expect(reduceWidget(events, todo, [])).toEqual([
      { text: 'milk', done: false },
      { text: 'eggs', done: true },
    ]);
  });

  it('keeps each submessage once, in the order the server gave them, however they arrive', () => {
    const first = sub({ type: 'add', text: 'a' });
    const second = sub({ type: 'add', text: 'b' });
    applySubmessage(second);
    applySubmessage(first);
    applySubmessage(second);
    const held = useSubmessages.getState().byMessage[MESSAGE]!;
    expect(held.map((s) => s.id)).toEqual([first.id, second.id]);
    expect(reduceWidget(held, todo, []).map((i) => i.text)).toEqual(['a', 'b']);
  });
});
