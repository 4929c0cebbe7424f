import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { DatePicker, type DatePickerProps } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker, type DateTimePickerProps } from '@mui/x-date-pickers/DateTimePicker';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The dayjs every picker uses (LocalizationProvider's dateLibInstance): with the utc and timezone plugins. */
export const utcDayjs = dayjs;

/** The spec's input formats: date-only YYYY-MM-DD; date and time YYYY.MM.DD HH:mm, 24-hour, UTC. */
export const DATE_PICKER_FORMAT = 'YYYY-MM-DD';
export const DATE_TIME_PICKER_FORMAT = 'YYYY.MM.DD HH:mm';

/** An instant as a picker value in UTC. */
export const toPickerValue = (value: Date | string) => dayjs.utc(value);

/** The UTC calendar day of a picker value as 'YYYY-MM-DD', or null when empty or not a day. */
export const pickerDayText = (value: Dayjs | null) =>
  value && value.isValid() ? value.utc().format('YYYY-MM-DD') : null;

/** The instant of a picker value as ISO text, or null when empty or invalid. */
export const pickerInstant = (value: Dayjs | null) =>
  value && value.isValid() ? value.utc().toISOString() : null;

/** A day picker in UTC with the spec's date-only format, whatever the browser's locale and zone. */
export function UtcDatePicker(props: DatePickerProps) {
  return <DatePicker format={DATE_PICKER_FORMAT} {...props} timezone="UTC" />;
}

/** A date and time picker in UTC on a 24-hour clock with the spec's format. */
export function UtcDateTimePicker(props: DateTimePickerProps) {
  return <DateTimePicker format={DATE_TIME_PICKER_FORMAT} ampm={false} {...props} timezone="UTC" />;
}

/** The spec's month format for a month picker. */
export const MONTH_PICKER_FORMAT = 'YYYY-MM';

/** The UTC calendar month of a picker value as 'YYYY-MM', or null when empty or not a month. */
export const pickerMonthText = (value: Dayjs | null) =>
  value && value.isValid() ? value.utc().format('YYYY-MM') : null;

/** A month picker (year, then month) in UTC with the format YYYY-MM. */
export function UtcMonthPicker(props: DatePickerProps) {
  return (
    <DatePicker
      format={MONTH_PICKER_FORMAT}
      views={['year', 'month']}
      openTo="month"
      {...props}
      timezone="UTC"
    />
  );
}
