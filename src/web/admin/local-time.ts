/**
 * Release times as a manager types them: `<input type="datetime-local">` holds a wall-clock time of
 * the browser's time zone ("2026-12-01T15:00"); the API takes and gives moments (ISO with offset).
 * The back office's pages render in the browser only (client loaders), so the zone is the manager's.
 */

const two = (value: number) => String(value).padStart(2, '0');

/** A moment as the datetime-local input shows it in this browser's zone; '' for none. */
export function localInputValue(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** What a datetime-local input holds, as a moment for the API; '' stays '' (none). */
export function momentOfLocalInput(value: string): string {
  if (value === '') return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** This browser's time zone as a person reads it: "Europe/Moscow, GMT+03:00". */
export function localTimeZoneLabel(locale: string): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const offset = new Intl.DateTimeFormat(locale, { timeZoneName: 'longOffset' })
    .formatToParts(new Date())
    .find((part) => part.type === 'timeZoneName')?.value;
  return offset && offset !== zone ? `${zone}, ${offset}` : zone;
}
