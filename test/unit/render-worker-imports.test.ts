import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * What a render worker loads before its first task (render-worker.ts): a worker often starts for a
 * report render, the last one having stopped idle, and that render waits for every module the
 * worker imports statically. Markdown, YAML, the charts' drawing and the diff belong to share pages,
 * diffs and front matters, which import them when they first run.
 */
async function staticPackages(entry: string): Promise<{ packages: Set<string>; lazily: Set<string> }> {
  const { metafile } = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const inputs: Metafile['inputs'] = metafile.inputs;
  const packages = new Set<string>();
  const lazily = new Set<string>();
  const seen = new Set<string>();
  const visit = (path: string): void => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const imported of inputs[path]?.imports ?? []) {
      if (imported.kind === 'dynamic-import') lazily.add(imported.path);
      else if (imported.external) packages.add(imported.path);
      else visit(imported.path);
    }
  };
  visit(entry);
  return { packages, lazily };
}

describe('the render worker', () => {
  it('imports only what a report render needs before its first task', async () => {
    const { packages, lazily } = await staticPackages('src/render/render-worker.ts');
    expect([...packages].filter((name) => !name.startsWith('node:')).sort()).toEqual(['liquidjs/dist/liquid.node.mjs', 'luxon']);
    expect([...lazily].sort()).toEqual([
      'src/modules/history/front-matter-meta.ts',
      'src/modules/history/version-diff.ts',
      'src/render/share-page.ts',
    ]);
  });
});
