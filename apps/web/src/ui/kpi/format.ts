import { formatByFormat } from '@portal/contracts/rules';

/**
 * A report field's number as a widget prints it, by the field's format (Percent, Tonnes, Ratio): the one rule of
 * packages/contracts (formatByFormat), so a percent below 100 never reads 100.0 and no floating-point noise shows.
 */
export function formatFieldValue(
  value: number | null | undefined,
  format: string | null | undefined,
): string {
  return formatByFormat(value, format);
}
