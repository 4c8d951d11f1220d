/**
 * The words Chronicle prints around a document, on its share page and in its PDF, in the language
 * of the report's locale: English, German, French, Spanish, Japanese and Korean (billing.md §3: the
 * locale is how a document is printed). The document's own text is the template's; the built-in
 * templates' words are packages/document phrases.ts, whose languages (`documentLanguage`) these
 * are. A locale of another language reads as English.
 */
import { documentLanguage, type DocumentLanguage } from '../../packages/document/src/index.js';

export interface DocumentLabels {
  period: string;
  owner: string;
  version: string;
  generated: string;
  /** `v3 · Generated 1 Dec 2026 …`: a PDF footer's stamp. */
  stamp(version: number, generatedAt: string): string;
  /** `Page 2 of 5`. */
  page(current: number, count: number): string;
  /** Before a share page's PDF and CSV links. */
  download: string;
  /** A share page's footer. */
  frozenCopy: string;
  /** The note on a link that follows the newest version; `nextAt` is a formatted instant, trusted HTML. */
  follows(nextAt: string | null): string;
  /** The mail that carries a version to an outside address (a scheduled run's e-mail); plain text. */
  mail: AddressMailWords;
}

/** The words of the mail a client gets: everything but the report's own name, period and message. */
export interface AddressMailWords {
  /** `Ada sent you “November” for 1 Nov 2026 – 30 Nov 2026.` */
  sentYou: (owner: string, name: string, period: string) => string;
  pdfAttached: string;
  linkFollows: string;
  linkFixed: string;
  viewReport: string;
  /** Why the address gets the mail. */
  why: (owner: string, address: string) => string;
  unsubscribe: string;
  /** Under the button: the link written out. */
  orOpen: (href: string) => string;
}

const LABELS = {
  en: {
    period: 'Period',
    owner: 'Owner',
    version: 'Version',
    generated: 'Generated',
    stamp: (v, at) => `v${v} · Generated ${at}`,
    page: (n, of) => `Page ${n} of ${of}`,
    download: 'Download',
    frozenCopy: 'Shared with Chronicle. A frozen copy of the version above: later edits to the report do not change this page.',
    follows: (at) => `This link always shows the newest version of the report.${at === null ? '' : ` The next is due ${at}.`}`,
    mail: {
      sentYou: (owner, name, period) => `${owner} sent you \u201c${name}\u201d for ${period}.`,
      pdfAttached: 'The PDF is attached.',
      linkFollows: 'The link always shows the newest version of the report.',
      linkFixed: 'The link shows this version of the report.',
      viewReport: 'View the report',
      why: (owner, address) => `You get this mail because ${owner} scheduled this report to be sent to ${address}.`,
      unsubscribe: 'Unsubscribe',
      orOpen: (href) => `Or open ${href}`,
    },
  },
  de: {
    period: 'Zeitraum',
    owner: 'Verantwortlich',
    version: 'Version',
    generated: 'Erstellt',
    stamp: (v, at) => `v${v} · Erstellt ${at}`,
    page: (n, of) => `Seite ${n} von ${of}`,
    download: 'Herunterladen',
    frozenCopy:
      'Geteilt mit Chronicle. Eine unveränderliche Kopie der obigen Version: Spätere Änderungen am Bericht ändern diese Seite nicht.',
    follows: (at) => `Dieser Link zeigt immer die neueste Version des Berichts.${at === null ? '' : ` Die nächste ist fällig am ${at}.`}`,
    mail: {
      sentYou: (owner, name, period) => `${owner} hat Ihnen \u201e${name}\u201c für ${period} gesendet.`,
      pdfAttached: 'Das PDF ist angehängt.',
      linkFollows: 'Der Link zeigt immer die neueste Version des Berichts.',
      linkFixed: 'Der Link zeigt diese Version des Berichts.',
      viewReport: 'Bericht ansehen',
      why: (owner, address) => `Sie erhalten diese E-Mail, weil ${owner} den Versand dieses Berichts an ${address} geplant hat.`,
      unsubscribe: 'Abmelden',
      orOpen: (href) => `Oder öffnen Sie ${href}`,
    },
  },
  fr: {
    period: 'Période',
    owner: 'Responsable',
    version: 'Version',
    generated: 'Généré',
    stamp: (v, at) => `v${v} · Généré le ${at}`,
    page: (n, of) => `Page ${n} sur ${of}`,
    download: 'Télécharger',
    frozenCopy:
      'Partagé avec Chronicle. Une copie figée de la version ci-dessus : les modifications ultérieures du rapport ne changent pas cette page.',
    follows: (at) => `Ce lien affiche toujours la dernière version du rapport.${at === null ? '' : ` La prochaine est prévue le ${at}.`}`,
    mail: {
      sentYou: (owner, name, period) => `${owner} vous a envoyé \u00ab\u00a0${name}\u00a0\u00bb pour ${period}.`,
      pdfAttached: 'Le PDF est joint.',
      linkFollows: 'Le lien affiche toujours la dernière version du rapport.',
      linkFixed: 'Le lien affiche cette version du rapport.',
      viewReport: 'Voir le rapport',
      why: (owner, address) => `Vous recevez ce message parce que ${owner} a programmé l’envoi de ce rapport à ${address}.`,
      unsubscribe: 'Se désabonner',
      orOpen: (href) => `Ou ouvrez ${href}`,
    },
  },
  es: {
    period: 'Periodo',
    owner: 'Responsable',
    version: 'Versión',
    generated: 'Generado',
    stamp: (v, at) => `v${v} · Generado el ${at}`,
    page: (n, of) => `Página ${n} de ${of}`,
    download: 'Descargar',
    frozenCopy:
      'Compartido con Chronicle. Una copia fija de la versión de arriba: los cambios posteriores en el informe no modifican esta página.',
    follows: (at) =>
      `Este enlace muestra siempre la versión más reciente del informe.${at === null ? '' : ` La próxima está prevista el ${at}.`}`,
    mail: {
      sentYou: (owner, name, period) => `${owner} le ha enviado \u00ab${name}\u00bb (${period}).`,
      pdfAttached: 'Se adjunta el PDF.',
      linkFollows: 'El enlace muestra siempre la versión más reciente del informe.',
      linkFixed: 'El enlace muestra esta versión del informe.',
      viewReport: 'Ver el informe',
      why: (owner, address) => `Recibe este correo porque ${owner} programó el envío de este informe a ${address}.`,
      unsubscribe: 'Cancelar la suscripción',
      orOpen: (href) => `O abra ${href}`,
    },
  },
  ja: {
    period: '期間',
    owner: '担当者',
    version: 'バージョン',
    generated: '作成日時',
    stamp: (v, at) => `v${v} · ${at} 作成`,
    page: (n, of) => `${n} / ${of} ページ`,
    download: 'ダウンロード',
    frozenCopy: 'Chronicle で共有されたレポートです。上記バージョンの固定コピーのため、後でレポートを編集してもこのページは変わりません。',
    follows: (at) => `このリンクは常にレポートの最新バージョンを表示します。${at === null ? '' : `次回は ${at} の予定です。`}`,
    mail: {
      sentYou: (owner, name, period) => `${owner} さんから「${name}」（${period}）が届きました。`,
      pdfAttached: 'PDF を添付しています。',
      linkFollows: 'このリンクは常にレポートの最新バージョンを表示します。',
      linkFixed: 'このリンクはこのバージョンのレポートを表示します。',
      viewReport: 'レポートを表示',
      why: (owner, address) => `${owner} さんがこのレポートを ${address} に送信するよう設定したため、このメールをお送りしています。`,
      unsubscribe: '配信停止',
      orOpen: (href) => `または次のアドレスを開いてください: ${href}`,
    },
  },
  ko: {
    period: '기간',
    owner: '담당자',
    version: '버전',
    generated: '생성 일시',
    stamp: (v, at) => `v${v} · ${at} 생성`,
    page: (n, of) => `${n} / ${of} 페이지`,
    download: '다운로드',
    frozenCopy: 'Chronicle로 공유된 보고서입니다. 위 버전의 고정된 사본이므로 나중에 보고서를 수정해도 이 페이지는 바뀌지 않습니다.',
    follows: (at) => `이 링크는 항상 보고서의 최신 버전을 보여 줍니다.${at === null ? '' : ` 다음 버전은 ${at}에 예정되어 있습니다.`}`,
    mail: {
      sentYou: (owner, name, period) => `${owner} 님이 보낸 보고서: \u201c${name}\u201d, ${period}.`,
      pdfAttached: 'PDF가 첨부되어 있습니다.',
      linkFollows: '이 링크는 항상 보고서의 최신 버전을 보여 줍니다.',
      linkFixed: '이 링크는 이 버전의 보고서를 보여 줍니다.',
      viewReport: '보고서 보기',
      why: (owner, address) => `${owner} 님이 이 보고서를 ${address} 주소로 보내도록 예약하여 이 메일을 받으셨습니다.`,
      unsubscribe: '수신 거부',
      orOpen: (href) => `또는 다음 주소를 여세요: ${href}`,
    },
  },
} satisfies Record<DocumentLanguage, DocumentLabels>;

/** The labels in `locale`'s language (a BCP 47 tag; English for a language without labels). */
export function documentLabels(locale: string): DocumentLabels {
  return LABELS[documentLanguage(locale)];
}
