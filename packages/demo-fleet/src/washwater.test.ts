import { describe, expect, it } from 'vitest';
import { isInNoDischargeZone } from '@portal/contracts/discharge-zones';
import { generateShipDay } from './generate';
import { DEMO_SHIPS } from './ships';

// The 60 days the living demo shows when it starts on 2026-11-24.
const DAYS = Array.from({ length: 60 }, (_, k) => new Date(Date.UTC(2026, 8, 25) + k * 86_400_000));

function washwaterOf(key: string) {
  const ship = DEMO_SHIPS.find((s) => s.key === key)!;
  let openInZone = 0;
  let closedInZone = 0;
  let lowPh = 0;
  let discharging = 0;
  const modes = new Set<number>();
  for (const day of DAYS) {
    const { samples } = generateShipDay(ship, day);
    const c = samples.channels;
    samples.timestamps.forEach((t, i) => {
      const mode = c.SCRUBBER_MODE![i]!;
      modes.add(mode);
      const open = mode === 1 && c.WASHWATER_FLOW![i]! > 0;
      if (open) discharging++;
      if (open && c.WASHWATER_PH![i]! < 6.5) lowPh++;
      if (isInNoDischargeZone(c.LONGITUDE![i]!, c.LATITUDE![i]!, t)) {
        if (open) openInZone++;
        else if (c.SCRUBBER_RUNNING![i] === 1) closedInZone++;
      }
    });
  }
  return { openInZone, closedInZone, lowPh, discharging, modes };
}

describe('demo fleet washwater', () => {
  it('logs SCRUBBER_MODE as DOMAIN.md: 0 closed loop, 1 open loop, with the inlet values beside the discharge', () => {
    const { samples } = generateShipDay(DEMO_SHIPS[2]!, DAYS[0]!);
    for (const mode of samples.channels.SCRUBBER_MODE!) expect([0, 1]).toContain(mode);
    const inlet = samples.channels.WASHWATER_PH_INLET!;
    expect(Math.min(...inlet)).toBeGreaterThan(7.9);
    expect(Math.max(...inlet)).toBeLessThan(8.3);
    expect(samples.channels.WASHWATER_PAH_INLET!.every((v) => v >= 0 && v < 2)).toBe(true);
    expect(samples.channels.WASHWATER_TURBIDITY_INLET!.every((v) => v >= 0 && v < 2)).toBe(true);
  });

  it('switches the hybrid ships to closed loop in no-discharge zones, but Straits Pioneer forgets in the Suez Canal', () => {
    const kestrel = washwaterOf('pacific_kestrel');
    expect(kestrel.closedInZone).toBeGreaterThan(0);
    expect(kestrel.openInZone).toBe(0);
    const tern = washwaterOf('baltic_tern');
    expect(tern.openInZone).toBe(0);
    const pioneer = washwaterOf('straits_pioneer');
    expect(pioneer.openInZone).toBeGreaterThan(60);
    expect(pioneer.closedInZone).toBeGreaterThan(0);
  }, 60_000);

  it('gives Atlantic Meridian a pH probe that drifts below 6.5 towards its calibration, and no other ship low pH', () => {
    const meridian = washwaterOf('atlantic_meridian');
    expect(meridian.discharging).toBeGreaterThan(10_000);
    expect(meridian.lowPh).toBeGreaterThan(60);
    expect(meridian.modes).toEqual(new Set([1]));
    expect(washwaterOf('gulf_horizon').lowPh).toBe(0);
  }, 60_000);
});
