/** Optional user text (a report note, a send message): empty or whitespace only means none. */
export function blankToNull(text: string | null | undefined): string | null {
  return text && text.trim() !== '' ? text : null;
}
