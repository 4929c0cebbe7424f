import { describe, expect, it } from 'vitest';
import { parseUnLocodeCoordinates } from './coordinates';

describe('parseUnLocodeCoordinates', () => {
  it('reads degrees and minutes in all four quadrants', () => {
    // Rotterdam, New York, Santos, Sydney as UN/LOCODE writes them.
    expect(parseUnLocodeCoordinates('5155N 00429E')).toEqual({ lat: 51.91667, lon: 4.48333 });
    expect(parseUnLocodeCoordinates('4042N 07400W')).toEqual({ lat: 40.7, lon: -74 });
    expect(parseUnLocodeCoordinates('2357S 04619W')).toEqual({ lat: -23.95, lon: -46.31667 });
    expect(parseUnLocodeCoordinates('3352S 15113E')).toEqual({ lat: -33.86667, lon: 151.21667 });
  });

  it('reads the few entries written in decimal degrees', () => {
    expect(parseUnLocodeCoordinates('26.8128N 89.1903E')).toEqual({ lat: 26.8128, lon: 89.1903 });
  });

  it('places the equator and the prime meridian at 0, not -0', () => {
    const position = parseUnLocodeCoordinates('0000S 00000W')!;
    expect(Object.is(position.lat, 0) && Object.is(position.lon, 0)).toBe(true);
  });

  it('gives no position for empty, malformed or impossible values', () => {
    for (const value of ['', '   ', null, undefined, '5155N', '5155N 0429E', '5160N 00429E', '5155N 00460E'])
      expect(parseUnLocodeCoordinates(value), String(value)).toBeNull();
    expect(parseUnLocodeCoordinates('9100N 00000E')).toBeNull();
    expect(parseUnLocodeCoordinates('0000N 18100E')).toBeNull();
  });

  it('tolerates surrounding spaces and more than one space between the halves', () => {
    expect(parseUnLocodeCoordinates(' 5155N  00429E ')).toEqual({ lat: 51.91667, lon: 4.48333 });
  });
});
