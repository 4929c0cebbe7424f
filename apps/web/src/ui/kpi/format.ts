import { formatTonnes, NO_DATA } from '@portal/contracts/rules';

/** A report field's number as a widget prints it, by the field's format (Percent, Tonnes, Ratio). */
export function formatFieldValue(
  value: number | null | undefined,
  format: string | null | undefined,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_DATA;
  switch (format) {
    case 'Tonnes':
      return formatTonnes(value);
    case 'Percent':
      return `${value.toFixed(1)} %`;
    case 'Ratio':
      return value.toFixed(2);
    default:
      return String(Math.round(value * 100) / 100);
  }
}
