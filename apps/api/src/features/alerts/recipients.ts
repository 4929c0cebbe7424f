import type { Kysely } from 'kysely';
import {
  alertSettingsSchema,
  DEFAULT_ALERT_SETTINGS,
  type AlertChannel,
  type AlertDelivery,
  type AlertSettings,
  type AlertSettingsSource,
  type AlertSnapshot,
  type QuietHours,
} from '@portal/contracts/alerts';
import { subscriptionTakesShip, subscriptionWants } from '@portal/contracts/rules';
import { ZONE_WARNING_ALERT_KIND, type ZoneWarningSnapshot } from '@portal/contracts/zone-warnings';
import type { Database } from '../../db/schema';
import { organizationsSeeingFacility, usersSeeingFacility } from '../access/policy';

/** A user's settings in force: their own, else their organization's defaults, else the portal's. */
export function effectiveSettings(
  own: unknown,
  organization: unknown,
): { settings: AlertSettings; source: AlertSettingsSource } {
  for (const [stored, source] of [
    [own, 'own'],
    [organization, 'organization'],
  ] as const) {
    if (stored === null || stored === undefined) continue;
    const parsed = alertSettingsSchema.safeParse(stored);
    if (parsed.success) return { settings: parsed.data, source };
  }
  return { settings: DEFAULT_ALERT_SETTINGS, source: 'default' };
}

export interface Recipient {
  userId: string;
  /** The address of the e-mail channel; null: no e-mail (none given). */
  email: string | null;
  channels: AlertChannel[];
  delivery: AlertDelivery;
  /** When e-mails that come as they happen wait (none: they go at once). */
  quietHours: QuietHours | null;
}

/**
 * Who gets an alert, decided when it is fanned out: the users who may see the ship (the access policy) whose
 * settings take the ship and want the event (or, for a zone warning, zone warnings: on unless turned off), on their channels; e-mail only to those with an address. A reminder
 * is escalated to the UserAdmins of the ship's organization whatever they chose (in the portal at least), and
 * never waits for a digest.
 */
export async function recipientsOf(
  db: Kysely<Database>,
  alert: { facilityId: string; kind: string; snapshot: AlertSnapshot | ZoneWarningSnapshot },
): Promise<Recipient[]> {
  const [users, organizations, ship] = await Promise.all([
    db
      .selectFrom('users as u')
      .leftJoin('alert_subscriptions as s', 's.user_id', 'u.id')
      .leftJoin('organization_alert_defaults as d', 'd.organization_id', 'u.organization_id')
      .select([
        'u.id',
        'u.role',
        'u.organization_id',
        's.email',
        's.settings as own',
        'd.settings as defaults',
      ])
      .where('u.id', 'in', usersSeeingFacility(db, alert.facilityId))
      .orderBy('u.id')
      .execute(),
    organizationsSeeingFacility(db, alert.facilityId).execute(),
    db
      .selectFrom('facilities')
      .select('primary_organization_id')
      .where('id', '=', alert.facilityId)
      .executeTakeFirst(),
  ]);
  const shipOrganizations = organizations.map((o) => o.id);
  const reminder = alert.kind === 'reminder';
  const recipients: Recipient[] = [];
  for (const user of users) {
    const { settings } = effectiveSettings(user.own, user.defaults);
    const wanted =
      settings.channels.length > 0 &&
      subscriptionTakesShip(settings, { facilityId: alert.facilityId, organizationIds: shipOrganizations }) &&
      (alert.kind === ZONE_WARNING_ALERT_KIND
        ? settings.zoneWarnings !== false
        : subscriptionWants(settings, alert.snapshot as AlertSnapshot));
    const escalated =
      reminder && user.role === 'UserAdmin' && user.organization_id === ship?.primary_organization_id;
    if (!wanted && !escalated) continue;
    let channels: AlertChannel[] = [...settings.channels];
    if (escalated && !channels.includes('in-app')) channels = [...channels, 'in-app'];
    if (!user.email) channels = channels.filter((c) => c !== 'email');
    if (!channels.length) continue;
    recipients.push({
      userId: user.id,
      email: user.email,
      channels,
      delivery: reminder ? 'immediate' : settings.delivery,
      quietHours: settings.quietHours ?? null,
    });
  }
  return recipients;
}
