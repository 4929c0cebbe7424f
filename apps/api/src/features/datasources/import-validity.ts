/**
 * The validity of the calculations an imported configuration copies (import configuration, spec part 2 section 7).
 * The source ship's calculations are valid from the source's first data day; on the target ship they must cover its
 * data from `validFrom` on (its earliest data, or the date picked in the import dialog), or the target's older data
 * silently gets no values.
 */

export interface Validity {
  approved: boolean;
  validFrom: Date | null;
  validTo: Date | null;
}

/**
 * Per measurement field: the approved calculations whose validity ends at or before `validFrom` are left out (they
 * only ever applied to the source ship's past), and the first of the others is valid from `validFrom` (moved back to
 * cover older data, or forward to start there); the later ones keep their validity, so a change the source ship
 * approved later changes the target's values at the same time. Calculations not approved are copied as they are.
 * Answers, per calculation in the order given, its new validity or null when it is left out.
 */
export function importedValidity<T extends Validity & { fieldId: string }>(
  calculations: readonly T[],
  validFrom: Date,
): (Pick<Validity, 'validFrom' | 'validTo'> | null)[] {
  const from = validFrom.getTime();
  const time = (d: Date | null, none: number) => (d ? d.getTime() : none);
  const out: (Pick<Validity, 'validFrom' | 'validTo'> | null)[] = calculations.map((c) =>
    c.approved && time(c.validTo, Infinity) <= from ? null : { validFrom: c.validFrom, validTo: c.validTo },
  );
  const firstOfField = new Map<string, number>();
  calculations.forEach((c, i) => {
    if (!c.approved || out[i] === null) return;
    const first = firstOfField.get(c.fieldId);
    if (first === undefined || time(c.validFrom, -Infinity) < time(calculations[first]!.validFrom, -Infinity))
      firstOfField.set(c.fieldId, i);
  });
  for (const i of firstOfField.values()) out[i] = { validFrom, validTo: calculations[i]!.validTo };
  return out;
}
