import { describe, expect, it } from 'vitest';
import { ALERT_MESSAGES, DEFAULT_ALERT_SETTINGS } from '../alerts';
import { validateAlertDefaults, validateAlertSubscription } from './alerts';

describe('the Alerts forms', () => {
  it('asks for an address when E-mail is ticked, and checks one that is typed', () => {
    const own = { useDefaults: false, settings: DEFAULT_ALERT_SETTINGS };
    expect(validateAlertSubscription({ ...own, email: '' })).toEqual({
      email: 'Provide the e-mail address alerts go to, or untick E-mail',
    });
    expect(validateAlertSubscription({ ...own, email: 'anna@nordic.example' })).toEqual({});
    expect(validateAlertSubscription({ ...own, email: 'anna' })).toEqual({ email: 'E-mail must be valid' });
    expect(
      validateAlertSubscription({
        ...own,
        email: '',
        settings: { ...DEFAULT_ALERT_SETTINGS, channels: ['in-app'] },
      }),
    ).toEqual({});
    expect(
      validateAlertSubscription({ useDefaults: true, email: '', settings: DEFAULT_ALERT_SETTINGS }),
    ).toEqual({});
  });

  it('names a problem of the quiet hours on the quiet hours', () => {
    const quiet = (quietHours: { from: string; to: string; timeZone: string }) =>
      validateAlertSubscription({
        useDefaults: false,
        email: 'a@b.example',
        settings: { ...DEFAULT_ALERT_SETTINGS, quietHours },
      });
    expect(quiet({ from: '22:00', to: '06:00', timeZone: 'Europe/Oslo' })).toEqual({});
    expect(quiet({ from: '22:00', to: '22:00', timeZone: 'Europe/Oslo' })).toEqual({
      quietHours: ALERT_MESSAGES.quietSame,
    });
    expect(quiet({ from: '', to: '06:00', timeZone: 'Europe/Oslo' })).toEqual({
      quietHours: ALERT_MESSAGES.quietFrom,
    });
  });

  it("names each field's problem", () => {
    expect(
      validateAlertSubscription({
        useDefaults: false,
        email: 'a@b.example',
        settings: { ...DEFAULT_ALERT_SETTINGS, ships: { mode: 'selected', facilityIds: [] }, eventTypes: [] },
      }),
    ).toEqual({ ships: 'Choose at least one ship', eventTypes: 'Choose at least one event type' });
    expect(
      validateAlertDefaults({ useDefaults: true, settings: DEFAULT_ALERT_SETTINGS, reminderHours: '0' }),
    ).toEqual({ reminderHours: 'Must be a whole number of hours from 1 to 168' });
    expect(
      validateAlertDefaults({ useDefaults: false, settings: DEFAULT_ALERT_SETTINGS, reminderHours: '4' }),
    ).toEqual({});
  });
});
