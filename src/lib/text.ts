/** Optional user text (a report note, a send message): empty or whitespace only means none. */
export function blankToNull(text: string | null | undefined): string | null {
  return text && text.trim() !== '' ? text : null;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for use in HTML content and in quoted attribute values (share pages, mail). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}
