/**
 * The reactions a discussion offers (docs/api.md "Discussion"): each key as the API stores it,
 * the emoji it shows and its name. The web app draws the buttons from it, the server's mail
 * names reactions with it.
 */
export const REACTIONS = [
  { key: '+1', emoji: '👍', name: 'Thumbs up' },
  { key: '-1', emoji: '👎', name: 'Thumbs down' },
  { key: 'laugh', emoji: '😄', name: 'Laugh' },
  { key: 'hooray', emoji: '🎉', name: 'Hooray' },
  { key: 'confused', emoji: '😕', name: 'Confused' },
  { key: 'heart', emoji: '❤️', name: 'Heart' },
  { key: 'rocket', emoji: '🚀', name: 'Rocket' },
  { key: 'eyes', emoji: '👀', name: 'Eyes' },
] as const;

export type ReactionName = (typeof REACTIONS)[number]['key'];

/** The emoji of a reaction key (the key itself for one this list does not know). */
export function reactionEmoji(key: string): string {
  return REACTIONS.find((r) => r.key === key)?.emoji ?? key;
}
