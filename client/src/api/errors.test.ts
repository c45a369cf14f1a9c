import { describe, expect, it } from 'vitest';
import { ApiRequestError, describeError } from './errors.ts';

describe('describeError', () => {
  it('turns the moderation codes into sentences', () => {
    const said = (code: string, status = 403) => describeError(new ApiRequestError(status, code, 'terse'));
    expect(said('IM_ERR_BANNED')).toBe('You are banned from this group.');
    expect(said('IM_ERR_MUTED')).toBe('You are muted in this group for now.');
    expect(said('IM_ERR_REGISTRATION_CLOSED')).toBe('Registration is closed on this server.');
    expect(said('IM_ERR_ACCOUNT_DEACTIVATED', 401)).toBe(
      'This account has been deactivated by a server administrator.',
    );
  });

  it("keeps the server's message for other codes", () => {
    expect(describeError(new ApiRequestError(404, 'IM_ERR_NOT_FOUND', 'Not found'))).toBe('Not found');
  });
});
