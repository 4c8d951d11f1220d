import { uuidv7 } from 'uuidv7';

/** New opaque id: UUID v7, time-sortable; an id is never a secret. */
export function newId(): string {
  return uuidv7();
}
