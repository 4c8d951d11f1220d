/**
 * The rate rule (docs/api.md "Rates") lives in packages/money, where the importers use it too; the
 * server keeps no copy of its own (docs/decisions.md "The rate rule in packages/money").
 */
export { appliedRate, rateFor, type RateEntry, type RatedEntry, type RateLevel } from '../../../packages/money/src/rate-for.js';
