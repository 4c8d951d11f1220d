import { randomFillSync } from 'node:crypto';
import { V7Generator } from 'uuidv7';

/**
 * The random bits of new ids, drawn from the operating system 4 KiB at a time: the library's own
 * buffer holds 32 bytes, so every few ids (every request has one) cost a call for random bytes.
 */
class PooledRandom {
  private readonly words = new Uint32Array(1024);
  private cursor = this.words.length;

  nextUint32(): number {
    if (this.cursor === this.words.length) {
      randomFillSync(this.words);
      this.cursor = 0;
    }
    const word = this.words[this.cursor] ?? 0;
    this.cursor += 1;
    return word;
  }
}

const generator = new V7Generator(new PooledRandom());

/** New opaque id: UUID v7, time-sortable; an id is never a secret. */
export function newId(): string {
  return generator.generate().toString();
}
