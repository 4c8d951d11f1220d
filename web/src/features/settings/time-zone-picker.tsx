/**
 * A searchable list of time zones: the IANA zones the browser knows (Intl.supportedValuesOf), plus
 * UTC. The server accepts any zone name its own Intl knows and stores the canonical spelling
 * (docs/api.md, "Users and tokens"), so every name offered here is one it takes.
 */
import { useMemo, useState } from 'react';
import { Field, InputField } from '../../components/ui/ui.js';

interface Zone {
  name: string;
  /** `GMT+05:30` now. */
  offset: string;
  /** Lower-case words to search: the name's parts and the offset. */
  words: string;
}

/** UTC first, then the browser's zones in order; `current` too when the browser does not list it. */
export function zoneNames(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const names = new Set(['UTC', ...known]);
  if (current) names.add(current);
  return ['UTC', ...[...names].filter((n) => n !== 'UTC').sort()];
}

function describe(name: string, now: Date): Zone {
  let offset = '';
  try {
    offset =
      new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset' })
        .formatToParts(now)
        .find((p) => p.type === 'timeZoneName')?.value ?? '';
  } catch {
    // A zone this browser cannot format (the saved one, from a newer server) is offered without its offset.
  }
  return { name, offset, words: `${name} ${offset}`.toLowerCase().replace(/[_/]/g, ' ') };
}

/** Whether every word typed appears in the zone's name or offset (`new york`, `kolkata`, `+05:30`). */
function matches(zone: Zone, search: string): boolean {
  const words = search.toLowerCase().replace(/[_/]/g, ' ').split(/\s+/).filter(Boolean);
  return words.every((w) => zone.words.includes(w));
}

export function TimeZonePicker({ value, onChange }: { value: string; onChange: (zone: string) => void }) {
  const [search, setSearch] = useState('');
  // The list is made once per picker: some 400 zones, each with its offset now.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const zones = useMemo(() => zoneNames(value).map((name) => describe(name, new Date())), []);
  const found = search.trim() ? zones.filter((z) => matches(z, search)) : zones;
  return (
    <div className="tz-picker">
      <InputField
        label="Search time zones"
        type="search"
        hint="A city, region or offset, e.g. Berlin, New York or +05:30."
        autoComplete="off"
        value={search}
        onChange={setSearch}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            event.currentTarget.closest('.tz-picker')?.querySelector('select')?.focus();
          }
        }}
      />
      <Field label="Time zone" hint={`Chosen: ${value}. Report periods and the times on the Time screen use it.`}>
        {(id, describedBy, invalid) => (
          <select
            id={id}
            size={8}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={value}
            onChange={(e) => {
              onChange(e.target.value);
            }}
          >
            {found.map((z) => (
              <option key={z.name} value={z.name}>
                {z.name.replace(/_/g, ' ')}
                {z.offset ? ` (${z.offset})` : ''}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p className="hint" role="status">
        {search.trim()
          ? found.length === 0
            ? `No time zone matches “${search.trim()}”. Try a larger city nearby, or an offset like +02:00.`
            : `${found.length} of ${zones.length} time zones match.`
          : ''}
      </p>
    </div>
  );
}
