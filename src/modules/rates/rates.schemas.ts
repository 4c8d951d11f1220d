import { Type, type Static, type TSchema } from 'typebox';
import { CalendarDate, Instant } from '../../http/schemas.js';

import { MAX_RATE_MINOR } from '../../../packages/money/src/index.js';

export { MAX_RATE_MINOR };

/** An amount of money: an integer count of the currency's minor unit (cents for EUR, yen for JPY). */
export const MoneySchema = Type.Object(
  {
    currency: Type.String({ pattern: '^[A-Z]{3}$', maxLength: 3, description: "ISO 4217 code; for a rate, its workspace's currency." }),
    minor: Type.Integer({ minimum: 0, maximum: MAX_RATE_MINOR, description: "Count of the currency's minor unit." }),
  },
  { $id: 'Money', additionalProperties: false, examples: [{ currency: 'EUR', minor: 9500 }] },
);
export type Money = Static<typeof MoneySchema>;

export const RateSchema = Type.Object(
  {
    hourly: Type.Union([MoneySchema, Type.Null()], { description: 'null: the level ends from effectiveFrom.' }),
    effectiveFrom: Type.String({
      description: "YYYY-MM-DD: the rate applies to entries that start at or after 00:00 of this date in their user's time zone.",
    }),
    createdAt: Instant,
  },
  {
    $id: 'Rate',
    examples: [{ hourly: { currency: 'EUR', minor: 9500 }, effectiveFrom: '2026-11-01', createdAt: '2026-10-28T09:12:00.000Z' }],
  },
);
export type Rate = Static<typeof RateSchema>;

export const PutRateBody = Type.Object(
  {
    hourly: Type.Union([MoneySchema, Type.Null()], {
      description: "The hourly rate, in the workspace's currency; null ends the level from effectiveFrom.",
    }),
    effectiveFrom: Type.Optional({
      ...CalendarDate,
      // Years 1000 to 9999, as a time entry's start.
      pattern: '^[1-9]\\d{3}-\\d{2}-\\d{2}$',
      description: "YYYY-MM-DD, in years 1000 to 9999; by default today in the caller's time zone.",
    }),
  },
  { additionalProperties: false },
);
export type PutRateInput = Static<typeof PutRateBody>;

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const RATE_SCHEMAS: readonly TSchema[] = [MoneySchema, RateSchema];
