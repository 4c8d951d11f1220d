/**
 * ISO 4217 currency codes (docs/api.md "Workspaces and projects"). The list is the runtime's own
 * (`Intl.supportedValuesOf('currency')`, from the ICU data Node ships), so a code Chronicle accepts
 * is one Node can also format; docs/decisions.md "Currencies come from the runtime" says why.
 */
const CODES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** Whether `code` is an ISO 4217 code the runtime knows, spelled in capitals (`EUR`, not `eur`). */
export function isCurrencyCode(code: string): boolean {
  return CODES.has(code);
}
