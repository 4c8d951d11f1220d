/** The people the caller may pick when adding a workspace member. */
import { api, type User } from '../../lib/api.js';

export interface Person {
  id: string;
  name: string;
  email: string;
}

/**
 * Everyone, for an instance admin (`GET /users`); for anyone else the members of the caller's own
 * workspaces, the only people the API lets them see. Sorted by name.
 */
export async function visiblePeople(me: User): Promise<Person[]> {
  const found = new Map<string, Person>();
  if (me.instanceAdmin) {
    for (const u of await api.users()) found.set(u.id, { id: u.id, name: u.name, email: u.email });
  } else {
    const workspaces = await api.workspaces();
    const lists = await Promise.all(workspaces.map((w) => api.members(w.id)));
    for (const m of lists.flat()) found.set(m.userId, { id: m.userId, name: m.name, email: m.email });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}
