import { describe, expect, it } from 'vitest';
import { ciiTrajectory } from '@portal/contracts/rules/carbon';
import { niceStep, trajectoryOption } from './cii-chart';

describe('the CII trajectory chart', () => {
  const trajectory = ciiTrajectory({ shipType: 'BULK_CARRIER', dwt: 58_100, gt: null }, 6);

  it('stacks the rating bands so that each band ends at its boundary of the year', () => {
    const option = trajectoryOption(trajectory) as {
      series: { name: string; data: (number | null)[] }[];
      yAxis: { min: number; max: number; interval: number };
    };
    const bands = option.series.slice(0, 5);
    expect(bands.map((b) => b.name)).toEqual(['Rating A', 'Rating B', 'Rating C', 'Rating D', 'Rating E']);
    trajectory.forEach((t, i) => {
      let top = 0;
      const tops = bands.map((b) => (top += b.data[i]!));
      tops.slice(0, 4).forEach((v, k) => expect(v).toBeCloseTo(t.boundaries[k]!, 9));
      // The E band reaches the axis' end; the A band starts at the axis' start.
      expect(tops[4]).toBeCloseTo(option.yAxis.max, 9);
    });
    const { min, max, interval } = option.yAxis;
    expect(min).toBeLessThan(Math.min(...trajectory.map((t) => t.boundaries[0])));
    expect(max).toBeGreaterThan(6);
    // The axis' ends are on its steps.
    expect(Math.abs(min / interval - Math.round(min / interval))).toBeLessThan(1e-9);
    expect(Math.abs(max / interval - Math.round(max / interval))).toBeLessThan(1e-9);
  });

  it('draws the required line and the attained value with its rating each year', () => {
    const option = trajectoryOption(trajectory) as { series: { name: string; data: (number | null)[] }[] };
    expect(option.series.find((s) => s.name === 'Required')!.data).toEqual(trajectory.map((t) => t.required));
    expect(option.series.find((s) => s.name === 'Attained')!.data).toEqual([6, 6, 6, 6, 6]);
  });

  it('steps the axis by 1, 2 or 5 times a power of ten', () => {
    expect([niceStep(3), niceStep(1.2), niceStep(0.9), niceStep(40), niceStep(0)]).toEqual([
      0.5, 0.2, 0.2, 10, 1,
    ]);
  });
});
