/** Longest name part of a download's file name, in characters. */
const MAX_FILE_NAME = 80;

/**
 * A name made safe as the stem of a downloaded file on every system: letters, digits, spaces,
 * dots, dashes, en dashes and underscores stay; every run of anything else (path separators,
 * quotes, control and format characters) becomes one dash; no leading or trailing dot or dash,
 * so it never names a hidden file or a parent directory; at most 80 characters; `report` when
 * nothing is left.
 */
export function safeFileStem(name: string): string {
  const safe = Array.from(
    name
      .normalize('NFC')
      .replace(/[^\p{L}\p{M}\p{N} ._\u2013-]+/gu, '-')
      .replace(/\s+/gu, ' ')
      .replace(/^[\s.\u2013-]+|[\s.\u2013-]+$/gu, ''),
  )
    .slice(0, MAX_FILE_NAME)
    .join('')
    .trim();
  return safe || 'report';
}
