import { z } from 'zod';
import { ALERT_MESSAGES, alertSettingsSchema, type AlertSettings } from '../alerts';
import { fieldErrors, type FieldErrors } from './errors';

/** The alert settings form (profile and organization screens): the field keys the form shows messages under. */
export type AlertSettingsField =
  'email' | 'ships' | 'eventTypes' | 'classifications' | 'channels' | 'reminderHours' | 'quietHours';

const email = z.email(ALERT_MESSAGES.emailInvalid);

/**
 * The profile's Alerts form: with own settings the schema's rules, and an address when E-mail is ticked; with the
 * organization's defaults only the address (if typed) must be one.
 */
export function validateAlertSubscription(values: {
  email: string;
  useDefaults: boolean;
  settings: AlertSettings;
}): FieldErrors<AlertSettingsField> {
  const errors: FieldErrors<AlertSettingsField> = {};
  const address = values.email.trim();
  if (address && !email.safeParse(address).success) errors.email = ALERT_MESSAGES.emailInvalid;
  if (values.useDefaults) return errors;
  Object.assign(errors, fieldErrors(alertSettingsSchema, values.settings));
  if (!address && values.settings.channels.includes('email')) errors.email ??= ALERT_MESSAGES.emailRequired;
  return errors;
}

/** The organization's defaults form: the settings' rules (unless the portal's defaults) and the reminder hours. */
export function validateAlertDefaults(values: {
  useDefaults: boolean;
  settings: AlertSettings;
  reminderHours: string;
}): FieldErrors<AlertSettingsField> {
  const errors: FieldErrors<AlertSettingsField> = values.useDefaults
    ? {}
    : fieldErrors(alertSettingsSchema, values.settings);
  const hours = Number(values.reminderHours.trim());
  if (!values.reminderHours.trim() || !Number.isInteger(hours) || hours < 1 || hours > 168)
    errors.reminderHours = ALERT_MESSAGES.reminderHours;
  return errors;
}
