import { describe, expect, it } from 'vitest';
import { scalarHelpers as H } from './functions';

describe('DateTime members', () => {
  it('agree with the UTC calendar for dates from 1900 to 2100, leap days included', () => {
    const samples = [
      Date.UTC(2024, 1, 29, 23, 59, 59),
      Date.UTC(2000, 1, 29),
      Date.UTC(1900, 2, 1),
      Date.UTC(1969, 11, 31, 23, 0),
      Date.UTC(2100, 11, 31, 12, 30, 15),
    ];
    let seed = 42;
    for (let k = 0; k < 2000; k++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      samples.push(
        Date.UTC(1900, 0, 1) + Math.floor((seed / 2 ** 31) * (Date.UTC(2100, 0, 1) - Date.UTC(1900, 0, 1))),
      );
    }
    for (const t of samples) {
      const d = new Date(t);
      expect([H.year(t), H.month(t), H.day(t), H.hour(t), H.minute(t), H.second(t), H.dayOfWeek(t)]).toEqual([
        d.getUTCFullYear(),
        d.getUTCMonth() + 1,
        d.getUTCDate(),
        d.getUTCHours(),
        d.getUTCMinutes(),
        d.getUTCSeconds(),
        d.getUTCDay(),
      ]);
    }
  });

  it('are null for a null timestamp', () => {
    expect([H.year(NaN), H.month(NaN), H.day(NaN), H.hour(NaN), H.dayOfWeek(NaN)].every(Number.isNaN)).toBe(
      true,
    );
  });
});

describe('Math.Round', () => {
  it('rounds halves to the even neighbour like C#', () => {
    expect([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4, 2.6].map(H.round)).toEqual([0, 2, 2, -0, -2, -2, 2, 3]);
    expect(H.round2(2.125, 2)).toBe(2.12);
    expect(H.round2(2.375, 2)).toBe(2.38);
    expect(H.round2(1.005, 1)).toBe(1);
    expect(H.round2(1, 16)).toBeNaN();
  });
});

describe('three-valued logic', () => {
  const values = [1, 0, NaN];
  const name = (v: number) => (Number.isNaN(v) ? 'null' : v ? 'true' : 'false');
  it('and: false wins, then null', () => {
    const table = values.flatMap((a) => values.map((b) => `${name(a)}&${name(b)}=${name(H.and(a, b))}`));
    expect(table).toEqual([
      'true&true=true',
      'true&false=false',
      'true&null=null',
      'false&true=false',
      'false&false=false',
      'false&null=false',
      'null&true=null',
      'null&false=false',
      'null&null=null',
    ]);
  });
  it('or: true wins, then null', () => {
    const table = values.flatMap((a) => values.map((b) => `${name(a)}|${name(b)}=${name(H.or(a, b))}`));
    expect(table).toEqual([
      'true|true=true',
      'true|false=true',
      'true|null=true',
      'false|true=true',
      'false|false=false',
      'false|null=null',
      'null|true=true',
      'null|false=null',
      'null|null=null',
    ]);
  });
});
