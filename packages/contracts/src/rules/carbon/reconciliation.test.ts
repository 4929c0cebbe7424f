import { describe, expect, it } from 'vitest';
import { reconcile, RECONCILIATION_THRESHOLD_PERCENT } from './reconciliation';

const DAY = 86_400_000;
const FROM = Date.UTC(2026, 2, 1);
const TO = Date.UTC(2026, 3, 1);

describe('BDN reconciliation', () => {
  it('compares the flow meters with ROB at the start + bunkered - ROB at the end, per fuel type', () => {
    const result = reconcile({
      from: FROM,
      to: TO,
      flowMeterTonnes: { HFO: 1_010, MDO_MGO: 98 },
      bdns: [
        { at: FROM + 5 * DAY, fuelType: 'HFO', massTonnes: 800 },
        { at: FROM + 20 * DAY, fuelType: 'HFO', massTonnes: 400 },
        // Outside the period: not counted.
        { at: TO + DAY, fuelType: 'HFO', massTonnes: 999 },
        { at: FROM + 6 * DAY, fuelType: 'MDO_MGO', massTonnes: 50 },
      ],
      soundings: [
        { at: FROM, fuelType: 'HFO', robTonnes: 600 },
        { at: TO - 2 * 3_600_000, fuelType: 'HFO', robTonnes: 790 },
        { at: FROM + 3_600_000, fuelType: 'MDO_MGO', robTonnes: 150 },
        { at: TO, fuelType: 'MDO_MGO', robTonnes: 110 },
      ],
    });
    const hfo = result.rows.find((r) => r.fuelType === 'HFO')!;
    expect(hfo.bunkeredTonnes).toBe(1_200);
    expect(hfo.bdnTonnes).toBe(600 + 1_200 - 790);
    expect(hfo.differencePercent).toBeCloseTo(((1_010 - 1_010) / 1_010) * 100, 9);
    expect(hfo.flagged).toBe(false);
    const mgo = result.rows.find((r) => r.fuelType === 'MDO_MGO')!;
    expect(mgo.bdnTonnes).toBe(90);
    expect(mgo.differencePercent).toBeCloseTo(((98 - 90) / 90) * 100, 9);
    expect(mgo.flagged).toBe(true);
    expect(result.total.bdnTonnes).toBe(1_100);
    expect(result.total.differencePercent).toBeCloseTo(((1_108 - 1_100) / 1_100) * 100, 9);
    expect(result.total.flagged).toBe(false);
  });

  it('flags only a difference above 5 %, either way', () => {
    const at = (flow: number) =>
      reconcile({
        from: FROM,
        to: TO,
        flowMeterTonnes: { HFO: flow },
        bdns: [],
        soundings: [
          { at: FROM, fuelType: 'HFO', robTonnes: 1_100 },
          { at: TO, fuelType: 'HFO', robTonnes: 100 },
        ],
      }).rows[0]!;
    expect(RECONCILIATION_THRESHOLD_PERCENT).toBe(5);
    expect(at(1_050).flagged).toBe(false);
    expect(at(1_050.1).flagged).toBe(true);
    expect(at(950).flagged).toBe(false);
    expect(at(949.9).flagged).toBe(true);
  });

  it('names the missing sounding instead of comparing, and shows a bunkered fuel no meter measured', () => {
    const result = reconcile({
      from: FROM,
      to: TO,
      flowMeterTonnes: { HFO: 500 },
      bdns: [{ at: FROM + DAY, fuelType: 'LFO', massTonnes: 100 }],
      soundings: [{ at: FROM - 3 * DAY, fuelType: 'HFO', robTonnes: 100 }],
    });
    const hfo = result.rows.find((r) => r.fuelType === 'HFO')!;
    // The sounding is three days before the period: too far to be its start.
    expect(hfo.missing).toEqual(['robStart', 'robEnd']);
    expect(hfo.differencePercent).toBeNull();
    const lfo = result.rows.find((r) => r.fuelType === 'LFO')!;
    expect(lfo.flowMeterTonnes).toBe(0);
    expect(lfo.bunkeredTonnes).toBe(100);
    expect(result.total.bdnTonnes).toBeNull();
  });
});
