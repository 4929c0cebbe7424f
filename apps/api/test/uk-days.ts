import { DAY, generateRows, type Phase } from './carbon-month';

/**
 * Four days of a bulk carrier in the Irish Sea around the start of the UK ETS maritime (issue "Step 5 of 7", part UK),
 * in the style of carbon-month.ts: at berth in Liverpool from 30 June 2026 (the day before the scheme starts) to
 * 1 July 16:00, Liverpool -> Heysham (two ports in Great Britain: 100 %), at berth in Heysham, Heysham -> Belfast
 * (Great Britain - Northern Ireland: 50 %), at berth in Belfast, then out to sea until the data ends (no arrival:
 * not covered). The auxiliary engines burn MGO at berth, HFO at sea; the boiler MGO; the main engines HFO.
 */

export const UK_T0 = Date.UTC(2026, 5, 30);
export const UK_T_END = UK_T0 + 4 * DAY;
/** The scheme's first day (UK_ETS_MARITIME_START), restated here from DOMAIN.md: "UK ETS maritime (from 2026-07-01)". */
export const UK_START = Date.UTC(2026, 6, 1);

/** Berths nearest to their port's UN/LOCODE point (GBLIV, GBHYM, GBBEL) of the shipped reference. */
export const LIVERPOOL_BERTH: [number, number] = [53.418, -3.002];
export const HEYSHAM_BERTH: [number, number] = [54.032, -2.918];
export const BELFAST_BERTH: [number, number] = [54.984, -5.92];

export const UK_PHASES: Phase[] = [
  { mode: 'stay', at: LIVERPOOL_BERTH, hours: 40, euBerth: true },
  {
    mode: 'river',
    route: [LIVERPOOL_BERTH, [53.45, -3.08], [53.6, -3.3], [53.95, -3.1], [54.02, -2.95], HEYSHAM_BERTH],
    speedKn: 10,
  },
  { mode: 'stay', at: HEYSHAM_BERTH, hours: 20, euBerth: true, mark: 'heysham' },
  {
    mode: 'sea',
    route: [HEYSHAM_BERTH, [54.0, -3.1], [54.2, -4.3], [54.7, -5.4], [54.95, -5.8], BELFAST_BERTH],
    speedKn: 12.5,
  },
  { mode: 'stay', at: BELFAST_BERTH, hours: 16, euBerth: true, mark: 'belfast' },
  {
    mode: 'sea',
    route: [BELFAST_BERTH, [55.3, -6.5], [56.0, -8.0], [56.5, -10.0], [57.0, -14.0]],
    speedKn: 12.5,
  },
];

export function generateUkDays() {
  const { rows, marks } = generateRows(UK_PHASES, UK_T0, UK_T_END, 52);
  // A few empty cells, held by the last value within 5 minutes as in the month.
  rows.forEach((r, i) => {
    if (i % 97 === 0) r.me = NaN;
  });
  return { rows, marks };
}
