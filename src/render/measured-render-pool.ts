import { measureRender, type Metrics } from '../lib/metrics.js';
import type { RenderPool } from './render-pool.js';

/** The render pool with every job timed and counted (docs/operations.md "Metrics"). */
export function measuredRenderPool(pool: RenderPool, metrics: Metrics): RenderPool {
  return {
    renderReport: (job) => measureRender(metrics, 'report', () => pool.renderReport(job)),
    renderVersion: (job) => measureRender(metrics, 'report', () => pool.renderVersion(job)),
    file: (job) => measureRender(metrics, 'file', () => pool.file(job)),
    render: (sources, context, limits) => measureRender(metrics, 'liquid', () => pool.render(sources, context, limits)),
    renderPage: (input) => measureRender(metrics, 'page', () => pool.renderPage(input)),
    diff: (job) => measureRender(metrics, 'diff', () => pool.diff(job)),
    analyze: (sources) => measureRender(metrics, 'analyze', () => pool.analyze(sources)),
    versionMeta: (headers) => measureRender(metrics, 'meta', () => pool.versionMeta(headers)),
    stats: () => pool.stats(),
    useLog: (log) => {
      pool.useLog(log);
    },
    reportSlots: pool.reportSlots,
    close: () => pool.close(),
  };
}
