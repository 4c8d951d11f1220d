/**
 * A report's options (the API's `ReportOptionsInput`; docs/web.md "The report form's options"):
 * how billable minutes are rounded, whether amounts show, which entries the report covers, how
 * durations print and the locale; the form's fields for them, and the same options in words for
 * the report page.
 */
import { useState } from 'react';
import type { ReportOptions, Rounding } from '../../lib/api.js';
import { CheckField, SelectField } from '../../components/ui/ui.js';
import { LocalePicker } from '../settings/locale-picker.js';

type RoundingMode = Rounding['mode'];
type RoundingStep = Extract<Rounding, { minutes: number }>['minutes'];

const MODES: readonly (readonly [RoundingMode, string])[] = [
  ['none', 'None'],
  ['up', 'Up'],
  ['down', 'Down'],
  ['nearest', 'Nearest'],
];
const STEPS: readonly RoundingStep[] = [1, 5, 6, 10, 15, 30, 60];
const ENTRIES: readonly (readonly [ReportOptions['billable'], string])[] = [
  ['all', 'All entries'],
  ['billable', 'Billable only'],
  ['nonBillable', 'Non-billable only'],
];
const DURATIONS: readonly (readonly [ReportOptions['durationFormat'], string])[] = [
  ['hm', '1h 30m'],
  ['decimal', '1.50 hours'],
];

/** The options a new report starts with: the API's defaults, in the owner's locale. */
export function defaultOptions(locale: string): ReportOptions {
  return { rounding: { mode: 'none' }, hideAmounts: false, billable: 'all', durationFormat: 'hm', locale };
}

const minutesText = (minutes: number) => `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;

/** The option of `choices` whose value is `value`, as its own type (a select only gives strings). */
function pick<T extends string | number>(choices: readonly T[], value: string): T | undefined {
  return choices.find((c) => String(c) === value);
}

/** The Options part of the report form; the rounding step shows only while a mode rounds. */
export function ReportOptionsFields({ value, onChange }: { value: ReportOptions; onChange: (options: ReportOptions) => void }) {
  // The step chosen last, kept while rounding is off so that turning it back on restores it.
  const [step, setStep] = useState<RoundingStep>(value.rounding.mode === 'none' ? 15 : value.rounding.minutes);
  const set = (patch: Partial<ReportOptions>) => {
    onChange({ ...value, ...patch });
  };
  const round = (mode: RoundingMode, minutes: RoundingStep) => {
    setStep(minutes);
    set({ rounding: mode === 'none' ? { mode } : { mode, minutes } });
  };
  return (
    <fieldset className="stack report-options">
      <legend>Options</legend>
      <div className="field-pair">
        <SelectField
          label="Rounding"
          value={value.rounding.mode}
          onChange={(mode) => {
            round(
              pick(
                MODES.map(([m]) => m),
                mode,
              ) ?? 'none',
              step,
            );
          }}
          options={MODES}
        />
        {value.rounding.mode !== 'none' && (
          <SelectField
            label="To a multiple of"
            value={String(step)}
            onChange={(minutes) => {
              round(value.rounding.mode, pick(STEPS, minutes) ?? step);
            }}
            options={STEPS.map((s) => [String(s), minutesText(s)] as const)}
          />
        )}
      </div>
      <CheckField
        checked={!value.hideAmounts}
        onChange={(show) => {
          set({ hideAmounts: !show });
        }}
        hint="Rates and amounts appear only when every chosen workspace lets you see its rates."
      >
        Show amounts
      </CheckField>
      <div className="field-pair">
        <SelectField
          label="Entries"
          value={value.billable}
          onChange={(billable) => {
            set({
              billable:
                pick(
                  ENTRIES.map(([b]) => b),
                  billable,
                ) ?? 'all',
            });
          }}
          options={ENTRIES}
        />
        <SelectField
          label="Durations"
          value={value.durationFormat}
          onChange={(format) => {
            set({
              durationFormat:
                pick(
                  DURATIONS.map(([d]) => d),
                  format,
                ) ?? 'hm',
            });
          }}
          options={DURATIONS}
        />
      </div>
      <LocalePicker
        value={value.locale}
        onChange={(locale) => {
          set({ locale });
        }}
      />
    </fieldset>
  );
}

/**
 * The options that differ from the defaults, in words: "Rounded up to 15 minutes · amounts hidden ·
 * billable entries only · decimal hours · de-DE", or null when all are the defaults. The locale is
 * named when it is not `viewerLocale` (the reader's own; for the owner, the default).
 */
export function describeOptions(options: ReportOptions, viewerLocale: string): string | null {
  const { rounding } = options;
  const parts = [
    rounding.mode === 'up' ? `rounded up to ${minutesText(rounding.minutes)}` : null,
    rounding.mode === 'down' ? `rounded down to ${minutesText(rounding.minutes)}` : null,
    rounding.mode === 'nearest' ? `rounded to the nearest ${minutesText(rounding.minutes)}` : null,
    options.hideAmounts ? 'amounts hidden' : null,
    options.billable === 'billable' ? 'billable entries only' : null,
    options.billable === 'nonBillable' ? 'non-billable entries only' : null,
    options.durationFormat === 'decimal' ? 'decimal hours' : null,
    options.locale === viewerLocale ? null : options.locale,
  ].filter((part) => part !== null);
  const [first, ...rest] = parts;
  if (first === undefined) return null;
  // A sentence's first word, but never a locale tag ("de-DE", not "De-DE").
  const opening = first === options.locale ? `Locale ${first}` : first.charAt(0).toUpperCase() + first.slice(1);
  return [opening, ...rest].join(' · ');
}
