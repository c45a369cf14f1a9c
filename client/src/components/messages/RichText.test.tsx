import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RichText } from './RichText.tsx';

const show = (text: string, extra: { mentionNames?: ReadonlySet<string>; myName?: string } = {}) =>
  render(<RichText text={text} {...extra} />).container;

describe('RichText (Markdown)', () => {
  it('renders emphasis, strike and inline code', () => {
    const box = show('**bold** *it* ~~gone~~ `x < y`');
    expect(box.querySelector('strong')?.textContent).toBe('bold');
    expect(box.querySelector('em')?.textContent).toBe('it');
    expect(box.querySelector('s')?.textContent).toBe('gone');
    expect(box.querySelector('code')?.textContent).toBe('x < y');
  });

  it("shows /shrug's stored text as the shrug itself, backslash kept and no italics", () => {
    // What the server stores for `/shrug no idea` (services/chat/src/slash.ts).
    const box = show('no idea ¯\\\\\\_(ツ)\\_/¯');
    expect(box.textContent).toBe('no idea ¯\\_(ツ)_/¯');
    expect(box.querySelector('em')).toBeNull();
  });

  it('renders lists and quotes', () => {
    const box = show('- one\n- two\n\n1. first\n2. second\n\n> quoted');
    expect([...box.querySelectorAll('ul > li')].map((li) => li.textContent)).toEqual(['one', 'two']);
    expect([...box.querySelectorAll('ol > li')].map((li) => li.textContent)).toEqual(['first', 'second']);
    expect(box.querySelector('blockquote')?.textContent).toBe('quoted');
  });

  it('highlights a fenced code block once the highlighter has loaded', async () => {
    const box = show('```js\nconst answer = 42; // yes\n```');
    const pre = box.querySelector('pre.code-block')!;
    expect(pre.textContent).toBe('const answer = 42; // yes');
    await waitFor(() => expect(pre.querySelector('code.hljs')).not.toBeNull());
    expect(pre.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(pre.querySelector('.hljs-comment')?.textContent).toBe('// yes');
    expect(pre.textContent).toBe('const answer = 42; // yes');
  });

  it('highlights code without markup injection', async () => {
    const box = show('```\n<img src=x onerror="alert(1)">\n```');
    await waitFor(() => expect(box.querySelector('code.hljs')).not.toBeNull());
    expect(box.querySelector('img')).toBeNull();
    expect(box.querySelector('pre')?.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it('hides a spoiler until it is clicked, and reveals it from the keyboard too', async () => {
    const user = userEvent.setup();
    const box = show('before ||the butler|| and ||*twist*||');
    const [first, second] = screen.getAllByRole('button', { name: /spoiler/i });
    expect(box.querySelectorAll('.spoiler.shown')).toHaveLength(0);
    await user.click(first!);
    expect(box.querySelector('.spoiler.shown')?.textContent).toBe('the butler');
    expect(screen.getAllByRole('button', { name: /spoiler/i })).toHaveLength(1);
    second!.focus();
    await user.keyboard('{Enter}');
    expect(box.querySelectorAll('.spoiler.shown')).toHaveLength(2);
    expect(box.querySelector('.spoiler.shown em')?.textContent).toBe('twist');
  });

  it('highlights a mention inside emphasis, mine differently', () => {
    const box = show('**hi @alice** and _@bob_, not a@bob.example or @carol or @alice_x', {
      mentionNames: new Set(['alice', 'bob']),
      myName: 'bob',
    });
    expect(box.querySelector('strong .mention')?.textContent).toBe('@alice');
    expect(box.querySelector('em .mention.me')?.textContent).toBe('@bob');
    expect(box.querySelectorAll('.mention')).toHaveLength(2);
    expect(box.textContent).toContain('a@bob.example or @carol or @alice_x');
  });

  it('leaves a javascript: link as inert text', () => {
    const box = show('[x](javascript:alert(1))');
    expect(box.querySelector('a')).toBeNull();
    expect(box.textContent).toBe('[x](javascript:alert(1))');
  });

  it('shows raw HTML as text', () => {
    const box = show('<img src=x onerror=alert(1)> <b>bold?</b>');
    expect(box.querySelector('img')).toBeNull();
    expect(box.querySelector('b')).toBeNull();
    expect(box.textContent).toBe('<img src=x onerror=alert(1)> <b>bold?</b>');
  });

  it('does not render images, and links a bare URL safely', () => {
    const box = show(
      '![pic](https://example.com/p.png) see https://example.com/page. and [docs](https://example.com/d)',
    );
    // The image is nothing a browser fetches: at most a link to it a reader may follow.
    expect(box.querySelector('img')).toBeNull();
    const links = [...box.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/p.png',
      'https://example.com/page',
      'https://example.com/d',
    ]);
    for (const a of links) {
      expect(a.getAttribute('rel')).toBe('nofollow noopener noreferrer ugc');
      expect(a.getAttribute('target')).toBe('_blank');
    }
  });

  it('keeps a /me action on one line', () => {
    const { container } = render(<RichText text={'waves **hard**'} inline />);
    expect(container.querySelector('p')).toBeNull();
    expect(container.querySelector('strong')?.textContent).toBe('hard');
  });
});
