import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idParam, NO_SUCH_ID, withIds } from './params';

describe('idParam', () => {
  it('keeps a uuid and turns anything else into the id no object has', () => {
    const id = '3f2b8c9e-1d4a-4b6e-9f0a-2c5d7e8f9a1b';
    expect(idParam().parse(id)).toBe(id);
    for (const malformed of ['not-a-uuid', '', '1', `${id}x`, '../etc/passwd', 'x'.repeat(10_000)])
      expect(idParam().parse(malformed)).toBe(NO_SUCH_ID);
  });

  it('leaves what the text rule refuses for the text rule (its 400 names the problem)', () => {
    expect(idParam().parse('a\u0000b')).toBe('a\u0000b');
    expect(idParam().parse('\ud800')).toBe('\ud800');
  });

  it('checks the named keys of a params schema, optional ones staying optional', () => {
    const schema = withIds(
      z.object({ id: z.string(), ship: z.string().optional(), code: z.string() }),
      'id',
      'ship',
    );
    expect(schema.parse({ id: 'x', code: 'x' })).toEqual({ id: NO_SUCH_ID, code: 'x' });
    expect(schema.parse({ id: 'x', ship: 'y', code: 'x' })).toEqual({
      id: NO_SUCH_ID,
      ship: NO_SUCH_ID,
      code: 'x',
    });
  });
});
