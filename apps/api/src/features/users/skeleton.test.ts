import { describe, expect, it } from 'vitest';
import { skeleton, usernamesLookAlike } from './skeleton';

describe('TR39 skeleton', () => {
  it('maps look-alike letters of other scripts to one prototype', () => {
    expect(skeleton('nоrth.admin')).toBe(skeleton('north.admin')); // Cyrillic о
    expect(skeleton('north.admіn')).toBe(skeleton('north.admin')); // Ukrainian і
    expect(skeleton('north.adrnin')).toBe(skeleton('north.admin')); // rn for m
  });

  it('drops default-ignorable characters such as the zero-width space', () => {
    expect(skeleton('north\u200b.admin')).toBe(skeleton('north.admin'));
  });

  it('keeps names that differ to the eye apart', () => {
    expect(skeleton('north.anna')).not.toBe(skeleton('north.olav'));
    expect(skeleton('Ольга')).not.toBe(skeleton('Olga'));
  });
});

describe('usernamesLookAlike', () => {
  it('finds look-alikes as written and regardless of case', () => {
    expect(usernamesLookAlike('NORTH.ADMІN', 'north.admin')).toBe(true);
    expect(usernamesLookAlike('Iohn', 'lohn')).toBe(true); // capital I and small l
    expect(usernamesLookAlike('south.lee', 'south.maria')).toBe(false);
  });
});
