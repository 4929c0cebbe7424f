import { NO_DATA, RATIO_BAR_COLOURS, RATIO_MARGIN_BANDS } from '@portal/contracts/rules';
import { BAND_COLOURS } from './options';

/** What a gauge shows, as far as its text alternative needs (a needle may be absent without data). */
export interface DescribedGauge {
  min: number;
  max: number;
  needle: number | null | undefined;
  text: string;
  bands: [number, string][];
  label?: (axisValue: number) => string;
}

const COLOUR_NAMES: Record<string, string> = {
  [BAND_COLOURS.bad]: 'red',
  [BAND_COLOURS.warn]: 'yellow',
  [BAND_COLOURS.good]: 'green',
  [BAND_COLOURS.neutral]: 'grey',
  [BAND_COLOURS.info]: 'blue',
  ...Object.fromEntries(Object.entries(RATIO_BAR_COLOURS).map(([name, colour]) => [colour, name])),
};

const trimmed = (value: number) => String(Number(value.toFixed(2)));

/**
 * The text alternative of a gauge for screen readers: the value and the band its needle is in, e.g.
 * "Marpol compliance: 97.3 %, green band (95 to 100)" or "SO2/CO2 ratio: 28.8 %, Optimal (50 to 10)".
 * A band of the SO2/CO2 margin has the spec's name; the others are named by their colour, as a sighted user sees them.
 */
export function gaugeTextAlternative(title: string, gauge: DescribedGauge): string {
  const needle = gauge.needle;
  if (needle === null || needle === undefined || gauge.text === NO_DATA || gauge.bands.length === 0)
    return `${title}: ${gauge.text}`;
  const found = gauge.bands.findIndex(([upTo]) => needle <= upTo + 1e-9);
  const index = found < 0 ? gauge.bands.length - 1 : found;
  const from = index === 0 ? gauge.min : gauge.bands[index - 1]![0];
  const [to, colour] = gauge.bands[index]!;
  const show = (axisValue: number) => gauge.label?.(axisValue) || trimmed(axisValue);
  const named = RATIO_MARGIN_BANDS.find((b) => String(b.from) === show(from) && String(b.to) === show(to));
  const band = named ? named.label : `${COLOUR_NAMES[colour] ?? 'a'} band`;
  return `${title}: ${gauge.text}, ${band} (${show(from)} to ${show(to)})`;
}
