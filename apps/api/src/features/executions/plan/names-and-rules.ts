import type { Kysely } from 'kysely';
import { DEFAULT_EVENT_RULES, eventRulesSchema, type EventRules } from '@portal/contracts/events';
import type { Database } from '../../../db/schema';

/** Sub-step "report field names": report field id -> `<report> <field>`, for errors. */
export async function loadReportFieldNames(
  db: Kysely<Database>,
  fieldIds: readonly string[],
): Promise<Map<string, string>> {
  if (fieldIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('report_fields')
    .select(['id', 'name', 'report_id'])
    .where('id', 'in', [...fieldIds])
    .execute();
  return new Map(rows.map((r) => [r.id, `${r.report_id} ${r.name}`]));
}

/** The organization's stored event rules over the defaults; the defaults when the stored ones are not valid. */
export function eventRulesOf(stored: unknown): EventRules {
  const rules = eventRulesSchema.safeParse({
    ...DEFAULT_EVENT_RULES,
    ...((stored as object | undefined) ?? {}),
  });
  return rules.success ? rules.data : DEFAULT_EVENT_RULES;
}

/** Sub-step "event rules": the compliance event rules in force for an organization. */
export async function loadEventRules(db: Kysely<Database>, organizationId: string): Promise<EventRules> {
  const row = await db
    .selectFrom('organization_event_rules')
    .select('rules')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return eventRulesOf(row?.rules);
}
