/**
 * A short list of common locales, plus the saved one when it is not among them. The server accepts
 * any BCP 47 tag its own Intl supports and stores the canonical form (docs/api.md, "Users and
 * tokens"); every tag offered here is canonical already.
 */
import { Field } from '../../components/ui/ui.js';

export const COMMON_LOCALES = [
  'en',
  'en-US',
  'en-GB',
  'de-DE',
  'fr-FR',
  'es-ES',
  'it-IT',
  'nl-NL',
  'pt-BR',
  'pl-PL',
  'sv-SE',
  'ja-JP',
  'zh-CN',
] as const;

/** The common locales, with `current` first when the list lacks it. */
export function localeTags(current: string): string[] {
  const common: readonly string[] = COMMON_LOCALES;
  return current && !common.includes(current) ? [current, ...common] : [...common];
}

/** `British English (en-GB)`, or the tag alone when this browser cannot name it. */
function describe(tag: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag);
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}

export function LocalePicker({ value, onChange }: { value: string; onChange: (locale: string) => void }) {
  return (
    <Field
      label="Locale"
      hint={`Chosen: ${value}. The language and region of documents: their dates, numbers and money, and the built-in templates’ words.`}
    >
      {(id, describedBy, invalid) => (
        <select
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={value}
          onChange={(e) => {
            onChange(e.target.value);
          }}
        >
          {localeTags(value).map((tag) => (
            <option key={tag} value={tag}>
              {describe(tag)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
