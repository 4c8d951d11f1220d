#!/usr/bin/env node
// The `chronicle` command: the built CLI when `npm run build` has made dist/, otherwise the
// TypeScript sources through tsx (a checkout with its dev dependencies).
import { existsSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';

const built = new URL('../dist/src/cli/main.js', import.meta.url);
if (existsSync(fileURLToPath(built))) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
