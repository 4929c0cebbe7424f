/** What a recalculation recomputes on one ship. */
export interface FacilityPlan {
  facilityId: string;
  from: number;
  to: number;
  measurementFieldIds: string[];
  reportFieldIds: string[];
}

/**
 * Sub-step "clip to the data" (pure): a calculation's validity within a ship's data ([first, last] sample), as
 * [from, to); null when they do not meet.
 */
export function clipToData(
  range: { data_timestamp_min: Date | null; data_timestamp_max: Date | null },
  validFrom: Date | null,
  validTo: Date | null,
): { from: number; to: number } | null {
  const from = Math.max(
    new Date(range.data_timestamp_min!).getTime(),
    validFrom ? new Date(validFrom).getTime() : -Infinity,
  );
  const to = Math.min(
    new Date(range.data_timestamp_max!).getTime() + 1,
    validTo ? new Date(validTo).getTime() : Infinity,
  );
  return to > from ? { from, to } : null;
}

/**
 * Sub-step "dependent fields" (pure): a measurement field and every field that reads it, directly or through others,
 * among a ship's approved calculations; and the report fields that read any of them.
 */
export function dependentFields(
  fieldId: string,
  approved: readonly { measurement_field_id: string; input_ids: string[] | null }[],
  reportInputs: readonly { report_field_id: string; input_ids: string[] | null }[],
): { fields: string[]; reportFields: string[] } {
  const fields = new Set([fieldId]);
  for (let grew = true; grew;) {
    grew = false;
    for (const a of approved) {
      if (!fields.has(a.measurement_field_id) && (a.input_ids ?? []).some((id) => fields.has(id))) {
        fields.add(a.measurement_field_id);
        grew = true;
      }
    }
  }
  const reportFields = reportInputs
    .filter((r) => (r.input_ids ?? []).some((id) => fields.has(id)))
    .map((r) => r.report_field_id);
  return { fields: [...fields], reportFields };
}

/** Sub-step "per ship" (pure): the plans of a recalculation, one per ship: the widest period, every field once. */
export class FacilityPlans {
  private readonly plans = new Map<string, FacilityPlan>();

  add(facilityId: string, from: number, to: number, measurementFieldIds: string[], reportFieldIds: string[]) {
    const plan = this.plans.get(facilityId) ?? {
      facilityId,
      from,
      to,
      measurementFieldIds: [],
      reportFieldIds: [],
    };
    plan.from = Math.min(plan.from, from);
    plan.to = Math.max(plan.to, to);
    plan.measurementFieldIds = [...new Set([...plan.measurementFieldIds, ...measurementFieldIds])];
    plan.reportFieldIds = [...new Set([...plan.reportFieldIds, ...reportFieldIds])];
    this.plans.set(facilityId, plan);
  }

  all(): FacilityPlan[] {
    return [...this.plans.values()];
  }
}
