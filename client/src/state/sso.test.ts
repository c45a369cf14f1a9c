import { describe, expect, it } from 'vitest';
import { parseSsoLanding, ssoErrorText } from './sso.ts';

describe('single sign-on landing', () => {
  it('takes the code out of the query and keeps the rest', () => {
    const { landing, rest } = parseSsoLanding('?oidc=abc_DEF-123&tab=2');
    expect(landing).toEqual({ code: 'abc_DEF-123' });
    expect(rest).toBe('tab=2');
  });

  it('reads a link code and an error reason as a sentence', () => {
    expect(parseSsoLanding('?oidcLink=xyz').landing).toEqual({ linkCode: 'xyz' });
    const { landing, rest } = parseSsoLanding('?oidcError=denied');
    expect(landing.error).toBe(ssoErrorText('denied'));
    expect(landing.error).toMatch(/cancelled/);
    expect(rest).toBe('');
  });

  it('says something sensible for a reason it does not know, and nothing when there is none', () => {
    expect(ssoErrorText('<script>')).toBe('Single sign-on did not work. Please try again.');
    expect(parseSsoLanding('?q=1').landing).toEqual({});
  });
});
