/**
 * The words a PDF prints around the document (the title block's labels and the footer), in the
 * report's locale, by its language: English, German, French, Spanish, Japanese and Korean.
 * Japanese and Korean need a fallback font (pdf-fonts.ts): where the PDF has none that draws
 * them, the labels are English, as labels printed as empty boxes would be worse. The document's
 * own text is the template's.
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
  ja: {
    period: '期間',
    owner: '担当者',
    version: 'バージョン',
    generated: '作成日時',
    stamp: (v, at) => `v${v} · ${at} 作成`,
    page: (n, of) => `${n} / ${of} ページ`,
  },
  ko: {
    period: '기간',
    owner: '담당자',
    version: '버전',
    generated: '생성 일시',
    stamp: (v, at) => `v${v} · ${at} 생성`,
    page: (n, of) => `${n} / ${of} 페이지`,
  },
};

/** Every word a set of labels prints. */
const wordsOf = (labels: PdfLabels): string =>
  [labels.period, labels.owner, labels.version, labels.generated, labels.stamp(1, ''), labels.page(1, 1)].join(' ');

/**
 * The labels for `locale`'s language, or English where there are none or where `drawable` (can
 * the PDF's fonts draw this text?) says the language's words would not print.
 */
export function pdfLabels(locale: string, drawable: (text: string) => boolean = () => true): PdfLabels {
  let language = 'en';
  try {
    language = new Intl.Locale(locale).language;
  } catch {
    // An unreadable tag reads as English, as the rest of the PDF does.
  }
  const english = LABELS.en as PdfLabels;
  const labels = LABELS[language];
  return labels && drawable(wordsOf(labels)) ? labels : english;
}
