import { describe, expect, it } from 'vitest';
import {
  CLOCK_BACKWARDS_TOLERANCE_MS,
  STREAM_FUTURE_TOLERANCE_MS,
  clockCheck,
  sequenceContinues,
} from './rules';
import { groupFilter, parseTopic, stateTopic, topicOf } from './topics';

const SHIP = '7d3c5a1e-9b2f-4c8e-8a7d-1f2e3d4c5b6a';
const SOURCE = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';

describe('Sparkplug topics', () => {
  it('reads the parts of node and device topics, and writes them back', () => {
    const ddata = `spBv1.0/psdu/DDATA/${SHIP}/${SOURCE}`;
    expect(parseTopic(ddata)).toEqual({ groupId: 'psdu', type: 'DDATA', edgeNodeId: SHIP, deviceId: SOURCE });
    expect(topicOf(parseTopic(ddata)!)).toBe(ddata);
    expect(parseTopic(`spBv1.0/psdu/NBIRTH/${SHIP}`)).toEqual({
      groupId: 'psdu',
      type: 'NBIRTH',
      edgeNodeId: SHIP,
      deviceId: null,
    });
    expect(groupFilter('g1')).toBe('spBv1.0/g1/#');
    expect(stateTopic('psdu-portal')).toBe('spBv1.0/STATE/psdu-portal');
  });

  it('answers null for anything else', () => {
    for (const topic of [
      'spBv1.0/STATE/psdu-portal',
      `spBv1.0/psdu/DDATA/${SHIP}`,
      `spBv1.0/psdu/NDATA/${SHIP}/${SOURCE}`,
      `spBv1.0/psdu/XDATA/${SHIP}`,
      `spAv1.0/psdu/NDATA/${SHIP}`,
      `spBv1.0/psdu/DDATA/${SHIP}/${SOURCE}/more`,
      `spBv1.0//NDATA/${SHIP}`,
      'spBv1.0/psdu/DDATA//x',
    ])
      expect(parseTopic(topic), topic).toBeNull();
  });
});

describe('sequence numbers', () => {
  it('continue by one and wrap after 255', () => {
    expect(sequenceContinues(0, 1)).toBe(true);
    expect(sequenceContinues(254, 255)).toBe(true);
    expect(sequenceContinues(255, 0)).toBe(true);
  });
  it('a gap, a repeat or no known previous message do not continue', () => {
    expect(sequenceContinues(3, 5)).toBe(false);
    expect(sequenceContinues(3, 3)).toBe(false);
    expect(sequenceContinues(255, 1)).toBe(false);
    expect(sequenceContinues(null, 7)).toBe(false);
  });
});

describe('the clock check', () => {
  const now = Date.UTC(2026, 10, 28, 12);
  it('refuses samples beyond the tolerance ahead of the portal, not those within it', () => {
    expect(clockCheck({ time: now + STREAM_FUTURE_TOLERANCE_MS + 1, isHistorical: false }, null, now)).toBe(
      'future',
    );
    expect(clockCheck({ time: now + STREAM_FUTURE_TOLERANCE_MS, isHistorical: false }, null, now)).toBeNull();
    expect(clockCheck({ time: now + 24 * 3600_000, isHistorical: true }, null, now)).toBe('future');
  });
  it('flags a live sample well before the latest live one, never a historical one', () => {
    const latest = now - 1000;
    expect(
      clockCheck({ time: latest - CLOCK_BACKWARDS_TOLERANCE_MS - 1, isHistorical: false }, latest, now),
    ).toBe('clockBackwards');
    expect(
      clockCheck({ time: latest - CLOCK_BACKWARDS_TOLERANCE_MS, isHistorical: false }, latest, now),
    ).toBeNull();
    expect(clockCheck({ time: latest - 3600_000, isHistorical: true }, latest, now)).toBeNull();
  });
});
