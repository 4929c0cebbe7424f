import { describe, expect, it } from 'vitest';
import { ApiRequestError, serverFieldErrors } from './api';

describe("a refused request's field messages", () => {
  it("name the form's fields: the body's nesting and an item's index left out", () => {
    const cause = new ApiRequestError(400, {
      message: 'Bad Request',
      fields: { 'settings.ships.0': 'Choose a ship you see', email: 'E-mail must be valid' },
    } as never);
    expect(serverFieldErrors(cause, 'settings')).toEqual({
      ships: 'Choose a ship you see',
      email: 'E-mail must be valid',
    });
    expect(
      serverFieldErrors(
        new ApiRequestError(400, {
          message: 'x',
          fields: { 'rules.transientMinutes': 'Too small' },
        } as never),
        'rules',
      ),
    ).toEqual({ transientMinutes: 'Too small' });
  });

  it('are none for an answer without fields, or another failure', () => {
    expect(serverFieldErrors(new ApiRequestError(500, undefined))).toBeNull();
    expect(serverFieldErrors(new Error('offline'))).toBeNull();
  });
});
