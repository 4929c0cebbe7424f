/** The kinds of unit loggers write for their channels, recognised however a logger spells them. */

export type UnitKind =
  | 'kg/h'
  | '%'
  | 'ppm'
  | 'kW'
  | 'deg'
  | 'ug/L'
  | 'NTU'
  | 'pH'
  /** Washwater flow: DOMAIN.md's t/h; a logger's m3/h is the same kind (seawater is about 1.025 t/m3). */
  | 't/h'
  | 'degC'
  | 'bar'
  | 'mbar'
  | 'kn'
  | 'rpm'
  | 'L/h'
  | 'none';

const UNIT_PATTERNS: [RegExp, UnitKind][] = [
  [/^kg ?\/ ?h(r|our)?$|^kgh$|^kg per h(our)?$/, 'kg/h'],
  [/^%( ?(m\/m|v\/v|vol|mass|wt|weight))?$|^pct$|^percent$|^(vol|mass|wt) ?%$/, '%'],
  [/^ppmv?$/, 'ppm'],
  [/^kw$/, 'kW'],
  [/^(deg|degrees?|°)$/, 'deg'],
  [/^(u|µ|μ)g ?\/ ?l$|^ugl$|^ppb$/, 'ug/L'],
  [/^(ntu|fnu)$/, 'NTU'],
  [/^ph$/, 'pH'],
  [/^(m3|m³|t) ?\/ ?h$|^m3h$|^tph$/, 't/h'],
  [/^(°c|degc|deg c|c|celsius)$/, 'degC'],
  [/^bar$/, 'bar'],
  [/^mbar$/, 'mbar'],
  [/^(kn|kts?|knots?)$/, 'kn'],
  [/^(rpm|1\/min)$/, 'rpm'],
  [/^(l ?\/ ?h|lh)$/, 'L/h'],
  [/^(-|)$/, 'none'],
];

/** The kind of a unit as loggers write it ('kg/h', 'KGH', '% m/m', 'µg/l', '°'), or null when it is not one we know. */
export function unitKind(unit: string | null | undefined): UnitKind | null {
  if (unit === null || unit === undefined) return null;
  const text = unit.trim().toLowerCase();
  for (const [pattern, kind] of UNIT_PATTERNS) if (pattern.test(text)) return kind;
  return null;
}
