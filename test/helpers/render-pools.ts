/** What the render pool's and the file pool's tests share. */
import { expect } from 'vitest';
import { TemplateError } from '../../src/render/template-engine.js';

/** Polls a condition between event-loop turns (no clock involved). */
export async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The TemplateError a job failed with; fails the test if it did not fail so. */
export async function failure(promise: Promise<unknown>): Promise<TemplateError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TemplateError);
  return error as TemplateError;
}
