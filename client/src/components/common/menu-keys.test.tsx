import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useMenu } from './useMenu.ts';

function Menu() {
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  return (
    <div ref={ref}>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        Options
      </button>
      {open && (
        <div role="menu">
          <button type="button" role="menuitem">
            One
          </button>
          <button type="button" role="menuitem" disabled>
            Off
          </button>
          <button type="button" role="menuitemradio" aria-checked="false">
            Two
          </button>
          <button type="button" role="menuitem">
            Three
          </button>
        </div>
      )}
    </div>
  );
}

describe('menus by keyboard', () => {
  it('open on the first item, move with the arrows, Home and End, and give focus back on Escape', () => {
    render(<Menu />);
    const button = screen.getByRole('button', { name: 'Options' });
    fireEvent.click(button);
    const focusedName = () => document.activeElement?.textContent;
    expect(focusedName()).toBe('One');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(focusedName()).toBe('Two');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(focusedName()).toBe('Three');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(focusedName()).toBe('One');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(focusedName()).toBe('Three');
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(focusedName()).toBe('One');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});
