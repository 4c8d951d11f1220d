/**
 * The words a PDF prints around the document (the title block's labels and the footer), in the
 * report's locale, by its language: English, German, French and Spanish. Japanese stays English
 * for now: the embedded font has no Japanese glyphs (docs/decisions.md "The PDF export"), and
 * labels it cannot draw would be worse than English ones. The document's own text is the template's.
 */
export interface PdfLabels {
  period: string;
  owner: string;
  version: string;
  generated: string;
  /** `v3 · Generated 1 Dec 2026 …`: the footer's stamp. */
  stamp(version: number, generatedAt: string): string;
  /** `Page 2 of 5`. */
  page(current: number, count: number): string;
}

const LABELS: Record<string, PdfLabels> = {
  en: {
    period: 'Period',
    owner: 'Owner',
    version: 'Version',
    generated: 'Generated',
    stamp: (v, at) => `v${v} · Generated ${at}`,
    page: (n, of) => `Page ${n} of ${of}`,
  },
  de: {
    period: 'Zeitraum',
    owner: 'Verantwortlich',
    version: 'Version',
    generated: 'Erstellt',
    stamp: (v, at) => `v${v} · Erstellt ${at}`,
    page: (n, of) => `Seite ${n} von ${of}`,
  },
  fr: {
    period: 'Période',
    owner: 'Responsable',
    version: 'Version',
    generated: 'Généré',
    stamp: (v, at) => `v${v} · Généré le ${at}`,
    page: (n, of) => `Page ${n} sur ${of}`,
  },
  es: {
    period: 'Periodo',
    owner: 'Responsable',
    version: 'Versión',
    generated: 'Generado',
    stamp: (v, at) => `v${v} · Generado el ${at}`,
    page: (n, of) => `Página ${n} de ${of}`,
  },
};

export function pdfLabels(locale: string): PdfLabels {
  let language = 'en';
  try {
    language = new Intl.Locale(locale).language;
  } catch {
    // An unreadable tag reads as English, as the rest of the PDF does.
  }
  return LABELS[language] ?? (LABELS.en as PdfLabels);
}
