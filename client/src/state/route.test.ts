import { describe, expect, it } from 'vitest';
import { parseRoute, routePath } from './route.ts';

describe('the pages of e-mailed links', () => {
  it('read the token from the query, and lose nothing on the way back', () => {
    const reset = parseRoute('/reset-password', '?token=a.b%2Bc');
    expect(reset).toEqual({ name: 'reset-password', token: 'a.b+c' });
    expect(parseRoute(...(routePath(reset).split('?') as [string, string]))).toEqual(reset);
    expect(parseRoute('/verify-email', '?token=xyz')).toEqual({ name: 'verify-email', token: 'xyz' });
    expect(parseRoute('/unsubscribe', '?token=u1')).toEqual({ name: 'unsubscribe', token: 'u1' });
    const claim = parseRoute('/claim', '?token=c.l-a_im');
    expect(claim).toEqual({ name: 'claim', token: 'c.l-a_im' });
    expect(routePath(claim)).toBe('/claim?token=c.l-a_im');
    expect(parseRoute('/verify-email')).toEqual({ name: 'verify-email', token: '' });
    expect(parseRoute('/reset-password/else', '?token=x')).toEqual({ name: 'home' });
  });
});

describe('a message permalink', () => {
  it('names the converse and the message, as the e-mails link to it', () => {
    const link = parseRoute('/c/c1', '?message=m9');
    expect(link).toEqual({ name: 'converse', converseId: 'c1', messageId: 'm9' });
    expect(routePath(link)).toBe('/c/c1?message=m9');
    expect(parseRoute('/c/c1')).toEqual({ name: 'converse', converseId: 'c1' });
    expect(routePath({ name: 'converse', converseId: 'c1' })).toBe('/c/c1');
  });
});
