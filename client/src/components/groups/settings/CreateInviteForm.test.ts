import { describe, expect, it } from 'vitest';
import { inviteOptions } from './CreateInviteForm.tsx';

describe('inviteOptions', () => {
  it('leaves max uses out when empty (unlimited) and checks it otherwise', () => {
    expect(inviteOptions(3600, '')).toEqual({ expiresInSec: 3600 });
    expect(inviteOptions(3600, ' 5 ')).toEqual({ expiresInSec: 3600, maxUses: 5 });
    for (const bad of ['0', '-1', '1.5', 'abc', '1000001']) expect(typeof inviteOptions(3600, bad)).toBe('string');
  });
});
