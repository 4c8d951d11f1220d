/**
 * The words of Chronicle's own documents in the language of a report's locale: the built-in
 * templates' headings, columns and sentences (through the `t` filter, docs/templates.md), the
 * charts' titles and series, and the words a page prints around a chart. English, German, French,
 * Spanish, Japanese and Korean; a locale of another language reads as English.
 *
 * A phrase is looked up by its English text, which is also what an unknown phrase reads as. A
 * `{name}` in it is filled from the arguments of the same name; a phrase with plural forms picks
 * one by its `count` argument, as `Intl.PluralRules` does for the locale (French says "1 entrée"
 * and "0 entrée", Japanese has one form). The English forms are the English text the built-in
 * templates printed before they were translated, byte for byte.
 */
export type PhraseForms = string | { one: string; other: string };

const EN = {
  'Total:': 'Total:',
  '{count} entries': { one: '{count} entry', other: '{count} entries' },
  '{count} days': { one: '{count} day', other: '{count} days' },
  'in {entries} over {days}': 'in {entries} over {days}',
  'Billable:': 'Billable:',
  'Amount:': 'Amount:',
  'not billable:': 'not billable:',
  'Billable time is rounded up to {count} minutes per entry.': {
    one: 'Billable time is rounded up to {count} minute per entry.',
    other: 'Billable time is rounded up to {count} minutes per entry.',
  },
  'Billable time is rounded down to {count} minutes per entry.': {
    one: 'Billable time is rounded down to {count} minute per entry.',
    other: 'Billable time is rounded down to {count} minutes per entry.',
  },
  'Billable time is rounded to the nearest {count} minutes per entry.': {
    one: 'Billable time is rounded to the nearest {count} minute per entry.',
    other: 'Billable time is rounded to the nearest {count} minutes per entry.',
  },
  Note: 'Note',
  'Time tracked in {workspaces}.': 'Time tracked in {workspaces}.',
  'No time was tracked in this period.': 'No time was tracked in this period.',
  Date: 'Date',
  Time: 'Time',
  Person: 'Person',
  Project: 'Project',
  Description: 'Description',
  Tags: 'Tags',
  Duration: 'Duration',
  Billable: 'Billable',
  Amount: 'Amount',
  'Day total': 'Day total',
  Total: 'Total',
  'By project': 'By project',
  'By user': 'By user',
  'By tag': 'By tag',
  User: 'User',
  Tag: 'Tag',
  Entries: 'Entries',
  Hours: 'Hours',
  Share: 'Share',
  'No entries carry tags.': 'No entries carry tags.',
  'An entry with several tags counts towards each of them, so shares may add up to more than 100%.':
    'An entry with several tags counts towards each of them, so shares may add up to more than 100%.',
  'No project': 'No project',
  'No client': 'No client',
  Highlights: 'Highlights',
  'tracked in {entries} over {days}': 'tracked in {entries} over {days}',
  'Most time went to {project}: {duration} ({share}%)': 'Most time went to {project}: {duration} ({share}%)',
  'Busiest day: {weekday} {date}, {duration}': 'Busiest day: {weekday} {date}, {duration}',
  'Longest pieces of work:': 'Longest pieces of work:',
  'No description': 'No description',
  'Time by project': 'Time by project',
  'Time by tag': 'Time by tag',
  'None of this time is billable: mark projects billable by default, or entries billable, to invoice it.':
    'None of this time is billable: mark projects billable by default, or entries billable, to invoice it.',
  Client: 'Client',
  Rate: 'Rate',
  'Billable time': 'Billable time',
  'Total due in {currency}': 'Total due in {currency}',
  Timesheet: 'Timesheet',
  Summary: 'Summary',
  'Weekly status': 'Weekly status',
  'Invoice summary': 'Invoice summary',
  'Hours by day': 'Hours by day',
  'Hours by month': 'Hours by month',
  'Hours by year': 'Hours by year',
  'Hours by project': 'Hours by project',
  'Hours by person': 'Hours by person',
  'Amount by client ({currency})': 'Amount by client ({currency})',
  'Not billable': 'Not billable',
  'Other ({count} projects)': { one: 'Other ({count} project)', other: 'Other ({count} projects)' },
  'Other ({count} people)': { one: 'Other ({count} person)', other: 'Other ({count} people)' },
  'Other ({count} clients)': { one: 'Other ({count} client)', other: 'Other ({count} clients)' },
  Data: 'Data',
  Day: 'Day',
  Month: 'Month',
  Year: 'Year',
  'Column chart of {count} days, {from} to {to}': {
    one: 'Column chart of {count} day, {from} to {to}',
    other: 'Column chart of {count} days, {from} to {to}',
  },
  'Column chart of {count} months, {from} to {to}': {
    one: 'Column chart of {count} month, {from} to {to}',
    other: 'Column chart of {count} months, {from} to {to}',
  },
  'Column chart of {count} years, {from} to {to}': {
    one: 'Column chart of {count} year, {from} to {to}',
    other: 'Column chart of {count} years, {from} to {to}',
  },
  'Bar chart of {count} projects': { one: 'Bar chart of {count} project', other: 'Bar chart of {count} projects' },
  'Bar chart of {count} persons': { one: 'Bar chart of {count} person', other: 'Bar chart of {count} persons' },
  'Bar chart of {count} clients': { one: 'Bar chart of {count} client', other: 'Bar chart of {count} clients' },
  ', {first} and {second} stacked': ', {first} and {second} stacked',
  'Total {total}.': 'Total {total}.',
  'Largest: {label}, {value}.': 'Largest: {label}, {value}.',
} satisfies Record<string, PhraseForms>;

export type PhraseKey = keyof typeof EN;
type Catalog = Record<PhraseKey, PhraseForms>;

/** Every phrase Chronicle knows, by its English text. */
export const PHRASE_KEYS = Object.keys(EN) as PhraseKey[];

const DE: Catalog = {
  'Total:': 'Gesamt:',
  '{count} entries': { one: '{count} Eintrag', other: '{count} Einträge' },
  '{count} days': { one: '{count} Tag', other: '{count} Tage' },
  'in {entries} over {days}': '· {entries} · {days}',
  'Billable:': 'Abrechenbar:',
  'Amount:': 'Betrag:',
  'not billable:': 'nicht abrechenbar:',
  'Billable time is rounded up to {count} minutes per entry.': {
    one: 'Abrechenbare Zeit wird je Eintrag auf volle {count} Minute aufgerundet.',
    other: 'Abrechenbare Zeit wird je Eintrag auf volle {count} Minuten aufgerundet.',
  },
  'Billable time is rounded down to {count} minutes per entry.': {
    one: 'Abrechenbare Zeit wird je Eintrag auf volle {count} Minute abgerundet.',
    other: 'Abrechenbare Zeit wird je Eintrag auf volle {count} Minuten abgerundet.',
  },
  'Billable time is rounded to the nearest {count} minutes per entry.': {
    one: 'Abrechenbare Zeit wird je Eintrag auf volle {count} Minute gerundet.',
    other: 'Abrechenbare Zeit wird je Eintrag auf volle {count} Minuten gerundet.',
  },
  Note: 'Anmerkung',
  'Time tracked in {workspaces}.': 'Zeit erfasst in {workspaces}.',
  'No time was tracked in this period.': 'In diesem Zeitraum wurde keine Zeit erfasst.',
  Date: 'Datum',
  Time: 'Uhrzeit',
  Person: 'Person',
  Project: 'Projekt',
  Description: 'Beschreibung',
  Tags: 'Schlagwörter',
  Duration: 'Dauer',
  Billable: 'Abrechenbar',
  Amount: 'Betrag',
  'Day total': 'Tagessumme',
  Total: 'Gesamt',
  'By project': 'Nach Projekt',
  'By user': 'Nach Person',
  'By tag': 'Nach Schlagwort',
  User: 'Person',
  Tag: 'Schlagwort',
  Entries: 'Einträge',
  Hours: 'Stunden',
  Share: 'Anteil',
  'No entries carry tags.': 'Kein Eintrag hat Schlagwörter.',
  'An entry with several tags counts towards each of them, so shares may add up to more than 100%.':
    'Ein Eintrag mit mehreren Schlagwörtern zählt bei jedem von ihnen, daher können die Anteile zusammen mehr als 100 % ergeben.',
  'No project': 'Kein Projekt',
  'No client': 'Kein Kunde',
  Highlights: 'Überblick',
  'tracked in {entries} over {days}': 'erfasst · {entries} · {days}',
  'Most time went to {project}: {duration} ({share}%)': 'Die meiste Zeit ging an {project}: {duration} ({share} %)',
  'Busiest day: {weekday} {date}, {duration}': 'Arbeitsreichster Tag: {weekday}, {date}, {duration}',
  'Longest pieces of work:': 'Längste Arbeitsblöcke:',
  'No description': 'Ohne Beschreibung',
  'Time by project': 'Zeit nach Projekt',
  'Time by tag': 'Zeit nach Schlagwort',
  'None of this time is billable: mark projects billable by default, or entries billable, to invoice it.':
    'Nichts von dieser Zeit ist abrechenbar: Markieren Sie Projekte standardmäßig oder einzelne Einträge als abrechenbar, um sie in Rechnung zu stellen.',
  Client: 'Kunde',
  Rate: 'Satz',
  'Billable time': 'Abrechenbare Zeit',
  'Total due in {currency}': 'Fälliger Gesamtbetrag in {currency}',
  Timesheet: 'Stundenzettel',
  Summary: 'Zusammenfassung',
  'Weekly status': 'Wochenstatus',
  'Invoice summary': 'Rechnungsübersicht',
  'Hours by day': 'Stunden pro Tag',
  'Hours by month': 'Stunden pro Monat',
  'Hours by year': 'Stunden pro Jahr',
  'Hours by project': 'Stunden pro Projekt',
  'Hours by person': 'Stunden pro Person',
  'Amount by client ({currency})': 'Betrag pro Kunde ({currency})',
  'Not billable': 'Nicht abrechenbar',
  'Other ({count} projects)': { one: 'Sonstige ({count} Projekt)', other: 'Sonstige ({count} Projekte)' },
  'Other ({count} people)': { one: 'Sonstige ({count} Person)', other: 'Sonstige ({count} Personen)' },
  'Other ({count} clients)': { one: 'Sonstige ({count} Kunde)', other: 'Sonstige ({count} Kunden)' },
  Data: 'Daten',
  Day: 'Tag',
  Month: 'Monat',
  Year: 'Jahr',
  'Column chart of {count} days, {from} to {to}': {
    one: 'Säulendiagramm über {count} Tag, {from} bis {to}',
    other: 'Säulendiagramm über {count} Tage, {from} bis {to}',
  },
  'Column chart of {count} months, {from} to {to}': {
    one: 'Säulendiagramm über {count} Monat, {from} bis {to}',
    other: 'Säulendiagramm über {count} Monate, {from} bis {to}',
  },
  'Column chart of {count} years, {from} to {to}': {
    one: 'Säulendiagramm über {count} Jahr, {from} bis {to}',
    other: 'Säulendiagramm über {count} Jahre, {from} bis {to}',
  },
  'Bar chart of {count} projects': { one: 'Balkendiagramm mit {count} Projekt', other: 'Balkendiagramm mit {count} Projekten' },
  'Bar chart of {count} persons': { one: 'Balkendiagramm mit {count} Person', other: 'Balkendiagramm mit {count} Personen' },
  'Bar chart of {count} clients': 'Balkendiagramm mit {count} Kunden',
  ', {first} and {second} stacked': ', {first} und {second} gestapelt',
  'Total {total}.': 'Gesamt {total}.',
  'Largest: {label}, {value}.': 'Größter Wert: {label}, {value}.',
};

const FR: Catalog = {
  'Total:': 'Total :',
  '{count} entries': { one: '{count} entrée', other: '{count} entrées' },
  '{count} days': { one: '{count} jour', other: '{count} jours' },
  'in {entries} over {days}': 'en {entries} sur {days}',
  'Billable:': 'Facturable :',
  'Amount:': 'Montant :',
  'not billable:': 'non facturable :',
  'Billable time is rounded up to {count} minutes per entry.': {
    one: 'Le temps facturable de chaque entrée est arrondi à la minute supérieure.',
    other: 'Le temps facturable de chaque entrée est arrondi aux {count} minutes supérieures.',
  },
  'Billable time is rounded down to {count} minutes per entry.': {
    one: 'Le temps facturable de chaque entrée est arrondi à la minute inférieure.',
    other: 'Le temps facturable de chaque entrée est arrondi aux {count} minutes inférieures.',
  },
  'Billable time is rounded to the nearest {count} minutes per entry.': {
    one: 'Le temps facturable de chaque entrée est arrondi à la minute la plus proche.',
    other: 'Le temps facturable de chaque entrée est arrondi aux {count} minutes les plus proches.',
  },
  Note: 'Note',
  'Time tracked in {workspaces}.': 'Temps enregistré dans {workspaces}.',
  'No time was tracked in this period.': 'Aucun temps n’a été enregistré sur cette période.',
  Date: 'Date',
  Time: 'Heure',
  Person: 'Personne',
  Project: 'Projet',
  Description: 'Description',
  Tags: 'Étiquettes',
  Duration: 'Durée',
  Billable: 'Facturable',
  Amount: 'Montant',
  'Day total': 'Total du jour',
  Total: 'Total',
  'By project': 'Par projet',
  'By user': 'Par personne',
  'By tag': 'Par étiquette',
  User: 'Personne',
  Tag: 'Étiquette',
  Entries: 'Entrées',
  Hours: 'Heures',
  Share: 'Part',
  'No entries carry tags.': 'Aucune entrée n’a d’étiquette.',
  'An entry with several tags counts towards each of them, so shares may add up to more than 100%.':
    'Une entrée avec plusieurs étiquettes compte pour chacune d’elles : les parts peuvent donc dépasser 100 % au total.',
  'No project': 'Sans projet',
  'No client': 'Sans client',
  Highlights: 'Points clés',
  'tracked in {entries} over {days}': 'enregistrées en {entries} sur {days}',
  'Most time went to {project}: {duration} ({share}%)': 'La plus grande part du temps est allée à {project} : {duration} ({share} %)',
  'Busiest day: {weekday} {date}, {duration}': 'Jour le plus chargé : {weekday} {date}, {duration}',
  'Longest pieces of work:': 'Tâches les plus longues :',
  'No description': 'Sans description',
  'Time by project': 'Temps par projet',
  'Time by tag': 'Temps par étiquette',
  'None of this time is billable: mark projects billable by default, or entries billable, to invoice it.':
    'Aucun de ces temps n’est facturable : marquez des projets comme facturables par défaut, ou des entrées comme facturables, pour les facturer.',
  Client: 'Client',
  Rate: 'Taux',
  'Billable time': 'Temps facturable',
  'Total due in {currency}': 'Total dû en {currency}',
  Timesheet: 'Feuille de temps',
  Summary: 'Synthèse',
  'Weekly status': 'Point hebdomadaire',
  'Invoice summary': 'Récapitulatif de facturation',
  'Hours by day': 'Heures par jour',
  'Hours by month': 'Heures par mois',
  'Hours by year': 'Heures par année',
  'Hours by project': 'Heures par projet',
  'Hours by person': 'Heures par personne',
  'Amount by client ({currency})': 'Montant par client ({currency})',
  'Not billable': 'Non facturable',
  'Other ({count} projects)': { one: 'Autres ({count} projet)', other: 'Autres ({count} projets)' },
  'Other ({count} people)': { one: 'Autres ({count} personne)', other: 'Autres ({count} personnes)' },
  'Other ({count} clients)': { one: 'Autres ({count} client)', other: 'Autres ({count} clients)' },
  Data: 'Données',
  Day: 'Jour',
  Month: 'Mois',
  Year: 'Année',
  'Column chart of {count} days, {from} to {to}': {
    one: 'Histogramme de {count} jour, du {from} au {to}',
    other: 'Histogramme de {count} jours, du {from} au {to}',
  },
  'Column chart of {count} months, {from} to {to}': 'Histogramme de {count} mois, de {from} à {to}',
  'Column chart of {count} years, {from} to {to}': {
    one: 'Histogramme de {count} année, de {from} à {to}',
    other: 'Histogramme de {count} années, de {from} à {to}',
  },
  'Bar chart of {count} projects': { one: 'Diagramme en barres de {count} projet', other: 'Diagramme en barres de {count} projets' },
  'Bar chart of {count} persons': { one: 'Diagramme en barres de {count} personne', other: 'Diagramme en barres de {count} personnes' },
  'Bar chart of {count} clients': { one: 'Diagramme en barres de {count} client', other: 'Diagramme en barres de {count} clients' },
  ', {first} and {second} stacked': ', {first} et {second} empilés',
  'Total {total}.': 'Total {total}.',
  'Largest: {label}, {value}.': 'Plus grande valeur : {label}, {value}.',
};

const ES: Catalog = {
  'Total:': 'Total:',
  '{count} entries': { one: '{count} entrada', other: '{count} entradas' },
  '{count} days': { one: '{count} día', other: '{count} días' },
  'in {entries} over {days}': 'en {entries} durante {days}',
  'Billable:': 'Facturable:',
  'Amount:': 'Importe:',
  'not billable:': 'no facturable:',
  'Billable time is rounded up to {count} minutes per entry.': {
    one: 'El tiempo facturable de cada entrada se redondea hacia arriba al minuto.',
    other: 'El tiempo facturable de cada entrada se redondea hacia arriba a múltiplos de {count} minutos.',
  },
  'Billable time is rounded down to {count} minutes per entry.': {
    one: 'El tiempo facturable de cada entrada se redondea hacia abajo al minuto.',
    other: 'El tiempo facturable de cada entrada se redondea hacia abajo a múltiplos de {count} minutos.',
  },
  'Billable time is rounded to the nearest {count} minutes per entry.': {
    one: 'El tiempo facturable de cada entrada se redondea al minuto más cercano.',
    other: 'El tiempo facturable de cada entrada se redondea al múltiplo de {count} minutos más cercano.',
  },
  Note: 'Nota',
  'Time tracked in {workspaces}.': 'Tiempo registrado en {workspaces}.',
  'No time was tracked in this period.': 'No se registró tiempo en este periodo.',
  Date: 'Fecha',
  Time: 'Hora',
  Person: 'Persona',
  Project: 'Proyecto',
  Description: 'Descripción',
  Tags: 'Etiquetas',
  Duration: 'Duración',
  Billable: 'Facturable',
  Amount: 'Importe',
  'Day total': 'Total del día',
  Total: 'Total',
  'By project': 'Por proyecto',
  'By user': 'Por persona',
  'By tag': 'Por etiqueta',
  User: 'Persona',
  Tag: 'Etiqueta',
  Entries: 'Entradas',
  Hours: 'Horas',
  Share: 'Porcentaje',
  'No entries carry tags.': 'Ninguna entrada tiene etiquetas.',
  'An entry with several tags counts towards each of them, so shares may add up to more than 100%.':
    'Una entrada con varias etiquetas cuenta para cada una de ellas, por lo que los porcentajes pueden sumar más del 100 %.',
  'No project': 'Sin proyecto',
  'No client': 'Sin cliente',
  Highlights: 'Lo más destacado',
  'tracked in {entries} over {days}': 'registradas en {entries} durante {days}',
  'Most time went to {project}: {duration} ({share}%)': 'La mayor parte del tiempo fue para {project}: {duration} ({share} %)',
  'Busiest day: {weekday} {date}, {duration}': 'Día con más trabajo: {weekday} {date}, {duration}',
  'Longest pieces of work:': 'Tareas más largas:',
  'No description': 'Sin descripción',
  'Time by project': 'Tiempo por proyecto',
  'Time by tag': 'Tiempo por etiqueta',
  'None of this time is billable: mark projects billable by default, or entries billable, to invoice it.':
    'Nada de este tiempo es facturable: marca proyectos como facturables por defecto, o entradas como facturables, para facturarlo.',
  Client: 'Cliente',
  Rate: 'Tarifa',
  'Billable time': 'Tiempo facturable',
  'Total due in {currency}': 'Total a pagar en {currency}',
  Timesheet: 'Hoja de horas',
  Summary: 'Resumen',
  'Weekly status': 'Estado semanal',
  'Invoice summary': 'Resumen de facturación',
  'Hours by day': 'Horas por día',
  'Hours by month': 'Horas por mes',
  'Hours by year': 'Horas por año',
  'Hours by project': 'Horas por proyecto',
  'Hours by person': 'Horas por persona',
  'Amount by client ({currency})': 'Importe por cliente ({currency})',
  'Not billable': 'No facturable',
  'Other ({count} projects)': { one: 'Otros ({count} proyecto)', other: 'Otros ({count} proyectos)' },
  'Other ({count} people)': { one: 'Otros ({count} persona)', other: 'Otros ({count} personas)' },
  'Other ({count} clients)': { one: 'Otros ({count} cliente)', other: 'Otros ({count} clientes)' },
  Data: 'Datos',
  Day: 'Día',
  Month: 'Mes',
  Year: 'Año',
  'Column chart of {count} days, {from} to {to}': {
    one: 'Gráfico de columnas de {count} día, del {from} al {to}',
    other: 'Gráfico de columnas de {count} días, del {from} al {to}',
  },
  'Column chart of {count} months, {from} to {to}': {
    one: 'Gráfico de columnas de {count} mes, de {from} a {to}',
    other: 'Gráfico de columnas de {count} meses, de {from} a {to}',
  },
  'Column chart of {count} years, {from} to {to}': {
    one: 'Gráfico de columnas de {count} año, de {from} a {to}',
    other: 'Gráfico de columnas de {count} años, de {from} a {to}',
  },
  'Bar chart of {count} projects': { one: 'Gráfico de barras de {count} proyecto', other: 'Gráfico de barras de {count} proyectos' },
  'Bar chart of {count} persons': { one: 'Gráfico de barras de {count} persona', other: 'Gráfico de barras de {count} personas' },
  'Bar chart of {count} clients': { one: 'Gráfico de barras de {count} cliente', other: 'Gráfico de barras de {count} clientes' },
  ', {first} and {second} stacked': ', {first} y {second} apilados',
  'Total {total}.': 'Total {total}.',
  'Largest: {label}, {value}.': 'Mayor: {label}, {value}.',
};

const JA: Catalog = {
  'Total:': '合計：',
  '{count} entries': '{count} 件',
  '{count} days': '{count} 日',
  'in {entries} over {days}': '・{days}間・{entries}',
  'Billable:': '請求対象：',
  'Amount:': '金額：',
  'not billable:': '請求対象外：',
  'Billable time is rounded up to {count} minutes per entry.': '請求対象時間はエントリごとに {count} 分単位で切り上げています。',
  'Billable time is rounded down to {count} minutes per entry.': '請求対象時間はエントリごとに {count} 分単位で切り捨てています。',
  'Billable time is rounded to the nearest {count} minutes per entry.': '請求対象時間はエントリごとに {count} 分単位で四捨五入しています。',
  Note: 'メモ',
  'Time tracked in {workspaces}.': '{workspaces} で記録された時間です。',
  'No time was tracked in this period.': 'この期間に記録された時間はありません。',
  Date: '日付',
  Time: '時刻',
  Person: '担当者',
  Project: 'プロジェクト',
  Description: '説明',
  Tags: 'タグ',
  Duration: '時間',
  Billable: '請求対象',
  Amount: '金額',
  'Day total': '日計',
  Total: '合計',
  'By project': 'プロジェクト別',
  'By user': '担当者別',
  'By tag': 'タグ別',
  User: '担当者',
  Tag: 'タグ',
  Entries: '件数',
  Hours: '時間数',
  Share: '割合',
  'No entries carry tags.': 'タグの付いたエントリはありません。',
  'An entry with several tags counts towards each of them, so shares may add up to more than 100%.':
    '複数のタグが付いたエントリはそれぞれのタグに計上されるため、割合の合計が 100% を超えることがあります。',
  'No project': 'プロジェクトなし',
  'No client': 'クライアントなし',
  Highlights: 'ハイライト',
  'tracked in {entries} over {days}': 'を記録（{days}間・{entries}）',
  'Most time went to {project}: {duration} ({share}%)': '最も時間を使ったプロジェクト：{project}、{duration}（{share}%）',
  'Busiest day: {weekday} {date}, {duration}': '最も忙しかった日：{date}（{weekday}）、{duration}',
  'Longest pieces of work:': '時間の長かった作業：',
  'No description': '説明なし',
  'Time by project': 'プロジェクト別の時間',
  'Time by tag': 'タグ別の時間',
  'None of this time is billable: mark projects billable by default, or entries billable, to invoice it.':
    'この時間はすべて請求対象外です。請求するには、プロジェクトを既定で請求対象にするか、エントリを請求対象にしてください。',
  Client: 'クライアント',
  Rate: '単価',
  'Billable time': '請求対象時間',
  'Total due in {currency}': '請求合計（{currency}）',
  Timesheet: 'タイムシート',
  Summary: 'サマリー',
  'Weekly status': '週次ステータス',
  'Invoice summary': '請求サマリー',
  'Hours by day': '日別の時間',
  'Hours by month': '月別の時間',
  'Hours by year': '年別の時間',
  'Hours by project': 'プロジェクト別の時間',
  'Hours by person': '担当者別の時間',
  'Amount by client ({currency})': 'クライアント別の金額（{currency}）',
  'Not billable': '請求対象外',
  'Other ({count} projects)': 'その他（{count} プロジェクト）',
  'Other ({count} people)': 'その他（{count} 人）',
  'Other ({count} clients)': 'その他（{count} クライアント）',
  Data: 'データ',
  Day: '日',
  Month: '月',
  Year: '年',
  'Column chart of {count} days, {from} to {to}': '{count} 日分の縦棒グラフ（{from}〜{to}）',
  'Column chart of {count} months, {from} to {to}': '{count} か月分の縦棒グラフ（{from}〜{to}）',
  'Column chart of {count} years, {from} to {to}': '{count} 年分の縦棒グラフ（{from}〜{to}）',
  'Bar chart of {count} projects': '{count} 件のプロジェクトの横棒グラフ',
  'Bar chart of {count} persons': '{count} 人の担当者の横棒グラフ',
  'Bar chart of {count} clients': '{count} 件のクライアントの横棒グラフ',
  ', {first} and {second} stacked': '、{first}と{second}の積み上げ',
  'Total {total}.': '合計 {total}。',
  'Largest: {label}, {value}.': '最大：{label}、{value}。',
};

const KO: Catalog = {
  'Total:': '합계:',
  '{count} entries': '{count}개 항목',
  '{count} days': '{count}일',
  'in {entries} over {days}': '· {days} 동안 {entries}',
  'Billable:': '청구 대상:',
  'Amount:': '금액:',
  'not billable:': '청구 제외:',
  'Billable time is rounded up to {count} minutes per entry.': '청구 시간은 항목마다 {count}분 단위로 올림합니다.',
  'Billable time is rounded down to {count} minutes per entry.': '청구 시간은 항목마다 {count}분 단위로 내림합니다.',
  'Billable time is rounded to the nearest {count} minutes per entry.': '청구 시간은 항목마다 {count}분 단위로 반올림합니다.',
  Note: '메모',
  'Time tracked in {workspaces}.': '{workspaces}에서 기록된 시간입니다.',
  'No time was tracked in this period.': '이 기간에 기록된 시간이 없습니다.',
  Date: '날짜',
  Time: '시각',
  Person: '담당자',
  Project: '프로젝트',
  Description: '설명',
  Tags: '태그',
  Duration: '시간',
  Billable: '청구 대상',
  Amount: '금액',
  'Day total': '일 합계',
  Total: '합계',
  'By project': '프로젝트별',
  'By user': '담당자별',
  'By tag': '태그별',
  User: '담당자',
  Tag: '태그',
  Entries: '항목 수',
  Hours: '시간 수',
  Share: '비율',
  'No entries carry tags.': '태그가 있는 항목이 없습니다.',
  'An entry with several tags counts towards each of them, so shares may add up to more than 100%.':
    '태그가 여러 개인 항목은 각 태그에 모두 집계되므로 비율의 합이 100%를 넘을 수 있습니다.',
  'No project': '프로젝트 없음',
  'No client': '고객 없음',
  Highlights: '주요 내용',
  'tracked in {entries} over {days}': '기록 ({days} 동안 {entries})',
  'Most time went to {project}: {duration} ({share}%)': '가장 많은 시간을 쓴 프로젝트: {project}, {duration} ({share}%)',
  'Busiest day: {weekday} {date}, {duration}': '가장 바빴던 날: {date} {weekday}, {duration}',
  'Longest pieces of work:': '가장 오래 걸린 작업:',
  'No description': '설명 없음',
  'Time by project': '프로젝트별 시간',
  'Time by tag': '태그별 시간',
  'None of this time is billable: mark projects billable by default, or entries billable, to invoice it.':
    '이 시간은 모두 청구 대상이 아닙니다. 청구하려면 프로젝트를 기본 청구 대상으로 지정하거나 항목을 청구 대상으로 표시하세요.',
  Client: '고객',
  Rate: '단가',
  'Billable time': '청구 시간',
  'Total due in {currency}': '청구 합계 ({currency})',
  Timesheet: '타임시트',
  Summary: '요약',
  'Weekly status': '주간 현황',
  'Invoice summary': '청구 요약',
  'Hours by day': '일별 시간',
  'Hours by month': '월별 시간',
  'Hours by year': '연도별 시간',
  'Hours by project': '프로젝트별 시간',
  'Hours by person': '담당자별 시간',
  'Amount by client ({currency})': '고객별 금액 ({currency})',
  'Not billable': '청구 제외',
  'Other ({count} projects)': '기타 (프로젝트 {count}개)',
  'Other ({count} people)': '기타 ({count}명)',
  'Other ({count} clients)': '기타 (고객 {count}곳)',
  Data: '데이터',
  Day: '일',
  Month: '월',
  Year: '연도',
  'Column chart of {count} days, {from} to {to}': '{count}일의 세로 막대 차트 ({from}–{to})',
  'Column chart of {count} months, {from} to {to}': '{count}개월의 세로 막대 차트 ({from}–{to})',
  'Column chart of {count} years, {from} to {to}': '{count}년의 세로 막대 차트 ({from}–{to})',
  'Bar chart of {count} projects': '프로젝트 {count}개의 가로 막대 차트',
  'Bar chart of {count} persons': '담당자 {count}명의 가로 막대 차트',
  'Bar chart of {count} clients': '고객 {count}곳의 가로 막대 차트',
  ', {first} and {second} stacked': ', {first}, {second} 누적',
  'Total {total}.': '합계 {total}.',
  'Largest: {label}, {value}.': '최대: {label}, {value}.',
};

const CATALOGS = { en: EN, de: DE, fr: FR, es: ES, ja: JA, ko: KO } satisfies Record<string, Catalog>;

/** A language Chronicle's documents are written in. */
export type DocumentLanguage = keyof typeof CATALOGS;
export const DOCUMENT_LANGUAGES = Object.keys(CATALOGS) as DocumentLanguage[];

const isDocumentLanguage = (language: string): language is DocumentLanguage => Object.hasOwn(CATALOGS, language);

/** Locales read, kept: reading a tag costs microseconds, and a page or a render asks for each phrase. */
const languages = new Map<string, DocumentLanguage>();
const KEPT = 256;

/** The language of `locale` that documents are written in: English for any other or an unreadable tag. */
export function documentLanguage(locale: string): DocumentLanguage {
  let language = languages.get(locale);
  if (language) return language;
  try {
    const tag = new Intl.Locale(locale).language;
    language = isDocumentLanguage(tag) ? tag : 'en';
  } catch {
    language = 'en';
  }
  if (languages.size >= KEPT) languages.clear();
  languages.set(locale, language);
  return language;
}

/** The forms of `phrase` in `language`, or undefined for a phrase Chronicle does not know. */
export function phraseForms(language: DocumentLanguage, phrase: string): PhraseForms | undefined {
  return Object.hasOwn(EN, phrase) ? CATALOGS[language][phrase as PhraseKey] : undefined;
}

const pluralRules = new Map<DocumentLanguage, Intl.PluralRules>();

function pluralForm(language: DocumentLanguage, count: string | undefined): 'one' | 'other' {
  const n = count === undefined || count.trim() === '' ? NaN : Number(count);
  if (!Number.isFinite(n)) return 'other';
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules.select(n) === 'one' ? 'one' : 'other';
}

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]{0,39})\}/g;

/**
 * `key` in the language of `locale`, its `{name}`s filled from `values` (a name without a value
 * stays as written); a phrase with plural forms picks one by `values.count`. A phrase Chronicle
 * does not know is its own text, filled the same way.
 */
export function phrase(locale: string, key: string, values: Readonly<Record<string, string>> = {}): string {
  const language = documentLanguage(locale);
  const forms = phraseForms(language, key) ?? key;
  const text = typeof forms === 'string' ? forms : forms[pluralForm(language, values.count)];
  if (!text.includes('{')) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? (values[name] ?? whole) : whole));
}
