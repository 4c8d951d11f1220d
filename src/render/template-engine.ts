// The phrases module alone: a render worker's first render waits for what its modules import.
import { phrase } from '../../packages/document/src/phrases.js';
import { formatMoney } from '../../packages/money/src/index.js';
import { ChartTag } from './chart-tag.js';
import { accelerate, directEngine } from './liquid-fast-path.js';
import { decimalHours } from './render-context.js';
import {
  CaptureTag,
  Context,
  Liquid,
  LiquidError,
  Tag,
  TypeGuards,
  toValueSync,
  toValue,
  Value,
  type Emitter,
  type FilterImplOptions,
  type Template,
} from './liquid.js';

/** What `this` is in a filter (LiquidJS does not export the type by name). */
type FilterImpl = ThisParameterType<Extract<FilterImplOptions, (...args: never[]) => unknown>>;

/** Largest template source accepted, in characters. */
export const PARSE_LIMIT = 200_000;

/**
 * What one render may spend. Each limit has a base, which stops a hostile template over a small
 * report quickly, plus an allowance per entry, so a legitimate report of 100,000 entries is never
 * refused for being big: the limits stop templates that do far more per entry than any report
 * needs, not big months.
 */
export interface RenderLimits {
  /** Wall-clock time of the render thread, in milliseconds. */
  timeMs: number;
  /**
   * Allocation budget in LiquidJS units (roughly characters or array slots). The time limit alone
   * is not enough: `(1..100000000)` allocates its whole range before the first iteration runs.
   */
  memory: number;
  /** Largest rendered output, in characters. */
  output: number;
}

export const BASE_LIMITS: RenderLimits = { timeMs: 2_000, memory: 32_000_000, output: 2_000_000 };
/** Added per entry of the report: about 100 times what the built-in templates need. */
export const PER_ENTRY_LIMITS: RenderLimits = { timeMs: 0.5, memory: 4_000, output: 2_000 };

/** The limits of a render over `entryCount` entries; `baseTimeMs` replaces the base time (RENDER_TIME_LIMIT_MS). */
export function limitsFor(entryCount: number, baseTimeMs = BASE_LIMITS.timeMs): RenderLimits {
  const n = Math.max(0, entryCount);
  return {
    timeMs: Math.ceil(baseTimeMs + PER_ENTRY_LIMITS.timeMs * n),
    memory: BASE_LIMITS.memory + PER_ENTRY_LIMITS.memory * n,
    output: BASE_LIMITS.output + PER_ENTRY_LIMITS.output * n,
  };
}

const CACHE_SIZE = 64;

/** A template that failed to parse or render, with a message meant for its author. */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly kind: 'syntax' | 'runtime' | 'limit',
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** Throws a `syntax` TemplateError naming the line when `source` does not parse; unknown filters and tags included. */
export function checkTemplateSyntax(source: string): void {
  parse(source);
}

/**
 * Renders `source` against `context` in the sandbox: no file access, own properties
 * only, bounded in size, time, memory and output. Any failure is a TemplateError.
 */
export async function renderTemplate(
  source: string,
  context: object,
  limits: RenderLimits = BASE_LIMITS,
  format: RenderFormat = DEFAULT_FORMAT,
): Promise<string> {
  return renderParsed(parse(source), context, limits, format, directEngine(engine));
}

/**
 * The same render through LiquidJS's own evaluation alone, without the direct evaluation
 * (liquid-fast-path.ts) renderTemplate uses: the reference that evaluation is tested against.
 * Not cached: for tests.
 */
export async function renderTemplateByLiquidJs(
  source: string,
  context: object,
  limits: RenderLimits = BASE_LIMITS,
  format: RenderFormat = DEFAULT_FORMAT,
): Promise<string> {
  parse(source);
  return renderParsed(engine.parse(source), context, limits, format, engine);
}

function renderParsed(templates: Template[], context: object, limits: RenderLimits, format: RenderFormat, liquid: Liquid): string {
  // Synchronous rendering: every filter and tag here is synchronous, and it runs in a render
  // worker, where blocking is the point; async mode costs a promise per step (several times slower).
  // LiquidJS's own `date` names months and weekdays in the context options' locale.
  const ctx = new Context(
    context,
    { ...engine.options, locale: format.locale },
    { sync: true, renderLimit: limits.timeMs, memoryLimit: limits.memory },
    { liquid: engine },
  );
  outputLimits.set(ctx, limits.output);
  formats.set(ctx, format);
  const emitter = new CappedEmitter(ctx);
  try {
    toValueSync(liquid.renderer.renderTemplates(templates, ctx, emitter));
  } catch (err) {
    throw toTemplateError(err, 'runtime', limits);
  }
  return emitter.buffer;
}

/** How a render prints durations, numbers, money and dates (a report's options, billing.md §3). */
export interface RenderFormat {
  /** A BCP 47 tag the runtime supports. */
  locale: string;
  durationFormat: 'hm' | 'decimal';
}

export const DEFAULT_FORMAT: RenderFormat = Object.freeze({ locale: 'en', durationFormat: 'hm' });

/** The format of each render in progress. */
const formats = new WeakMap<Context, RenderFormat>();

const formatOf = (filter: FilterImpl): RenderFormat => formats.get(filter.context) ?? DEFAULT_FORMAT;

/** `duration`: minutes as the render's durationFormat says (`7h 05m`, or decimal hours in its locale). */
function durationFilter(this: FilterImpl, minutes: unknown): string {
  const format = formatOf(this);
  return format.durationFormat === 'decimal' ? formatHoursIn(minutes, format.locale) : formatDuration(minutes);
}

/** `hours`: minutes as decimal hours with two decimals, in the render's locale (`7.08`, `7,08`). */
function hoursFilter(this: FilterImpl, minutes: unknown): string {
  return formatHoursIn(minutes, formatOf(this).locale);
}

/** `money`: an amount (or a list of them, one per currency) in the render's locale: `€1,234.50`; nil -> ''. */
function moneyFilter(this: FilterImpl, value: unknown): string {
  const locale = formatOf(this).locale;
  const raw: unknown = toValue(value);
  if (raw === null || raw === undefined || raw === '') return '';
  // One amount, the common case (a row's), allocates nothing: its text is formatMoney's kept one.
  const text = Array.isArray(raw) ? raw.map((item) => amountText(item, locale)).join(' / ') : amountText(raw, locale);
  this.context.memoryLimit.use(text.length);
  return text;
}

function amountText(item: unknown, locale: string): string {
  const amount: unknown = toValue(item);
  if (!isAmount(amount)) throw new Error(`money expects an amount ({ currency, minor }), got ${describeValue(amount)}`);
  return formatMoney(amount, locale);
}

/**
 * `t`: one of Chronicle's phrases in the render's language (packages/document phrases.ts), `{name}`s
 * filled from named arguments: `{{ "Total:" | t }}`, `{{ "{count} entries" | t: count: totals.entryCount }}`.
 * `count` picks a plural form. A phrase Chronicle does not know prints as written, filled the same
 * way. Arguments are printed as given: user text goes through `md` first (a `capture`).
 */
function translateFilter(this: FilterImpl, key: unknown, ...args: unknown[]): string {
  const text: unknown = toValue(key);
  if (typeof text !== 'string') throw new Error(`t expects a phrase in quotes, got ${describeValue(text)}`);
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const arg of args) {
    if (!Array.isArray(arg) || typeof arg[0] !== 'string') throw new Error('t takes named arguments only: t: count: 3');
    const value: unknown = toValue(arg[1]);
    if (value === null || value === undefined) values[arg[0]] = '';
    else if (typeof value === 'string') values[arg[0]] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') values[arg[0]] = String(value);
    else throw new Error(`t: the value of ${arg[0].slice(0, 40)} must be text or a number, got ${describeValue(value)}`);
  }
  // Charged before the text is made: a phrase of many `{name}`s filled with a long value would
  // otherwise build a huge string before the memory limit saw it. A translation names each of its
  // values at most as often as the English does, and is never much longer than it.
  let size = text.length + TRANSLATION_ALLOWANCE;
  for (const [, name = ''] of text.matchAll(/\{(\w+)\}/g)) size += values[name]?.length ?? 0;
  for (const value of Object.values(values)) size += value.length;
  this.context.memoryLimit.use(size);
  return phrase(formatOf(this).locale, text, values);
}

/** What a translated phrase may add to its English text, in characters (the catalog's longest is far under it). */
const TRANSLATION_ALLOWANCE = 256;

const DATE_STYLES = new Set(['short', 'medium', 'long', 'full']);

/**
 * `date`: LiquidJS's strftime filter, whose month and weekday names follow the render's locale; a
 * format of `short`, `medium`, `long` or `full` prints the date in the locale's own style
 * (`09/03/2026`, `9. März 2026`). Dates are read as UTC, as the context's local dates are written.
 */
function dateFilter(this: FilterImpl, value: unknown, format?: unknown, offset?: unknown): unknown {
  const style: unknown = toValue(format);
  if (typeof style !== 'string' || !DATE_STYLES.has(style)) return builtinDate.call(this, value, format, offset);
  const raw: unknown = toValue(value);
  if (typeof raw !== 'string' && typeof raw !== 'number') return raw;
  if (typeof raw === 'string') this.context.memoryLimit.use(raw.length);
  const date = new Date(typeof raw === 'number' ? raw * 1000 : raw);
  if (Number.isNaN(date.getTime())) return raw;
  return dateFormatter(formatOf(this).locale, style as 'short' | 'medium' | 'long' | 'full').format(date);
}

/** Formats whole minutes as `Hh MMm`: 425 -> `7h 05m`, 30 -> `0h 30m`; nil -> ''. */
export function formatDuration(minutes: unknown): string {
  const value = minutesOf(minutes, 'duration');
  if (value === null) return '';
  const total = Math.round(Math.abs(value));
  const sign = value < 0 && total > 0 ? '-' : '';
  return `${sign}${Math.floor(total / 60)}h ${String(total % 60).padStart(2, '0')}m`;
}

/** Formats minutes as decimal hours with two decimals: 425 -> `7.08`; nil -> ''. */
export function formatHours(minutes: unknown): string {
  const value = minutesOf(minutes, 'hours');
  return value === null ? '' : decimalHours(value);
}

/** Minutes as decimal hours with two decimals in `locale`: 425 -> `7.08` (en), `7,08` (de); nil -> ''. */
export function formatHoursIn(minutes: unknown, locale: string): string {
  const value = minutesOf(minutes, 'hours');
  return value === null ? '' : hoursFormatter(locale).format(value / 60);
}

function isAmount(value: unknown): value is { currency: string; minor: number } {
  if (typeof value !== 'object' || value === null) return false;
  const { currency, minor } = value as { currency?: unknown; minor?: unknown };
  return typeof currency === 'string' && isCurrencyCode(currency) && typeof minor === 'number' && Number.isSafeInteger(minor);
}

/** Three capital letters, as `/^[A-Z]{3}$/` says, without running a regular expression per amount. */
function isCurrencyCode(text: string): boolean {
  if (text.length !== 3) return false;
  for (let i = 0; i < 3; i++) {
    const code = text.charCodeAt(i);
    if (code < 65 || code > 90) return false;
  }
  return true;
}

/** Intl formatters are costly to make and a render prints many numbers: one per locale and kind, kept. */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
const FORMATTER_CACHE_SIZE = 256;

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  const hit = formatters.get(key);
  if (hit) return hit as T;
  const made = make();
  if (formatters.size >= FORMATTER_CACHE_SIZE) formatters.clear();
  formatters.set(key, made);
  return made;
}

const hoursFormatter = (locale: string) =>
  cached(`h ${locale}`, () => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
const dateFormatter = (locale: string, style: 'short' | 'medium' | 'long' | 'full') =>
  cached(`d ${locale} ${style}`, () => new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone: 'UTC' }));

// Characters that open inline syntax anywhere, or split a table row (`|`).
const ALWAYS_ESCAPED = /[\\`*_{}[\]<>|~&]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are dropped.
const CONTROL_CHARS = /[\u0000-\u0008\u000e-\u001f\u007f]/g;
const WHITESPACE_RUNS = /[\s\u0085]+/g;
/** Letters and digits in words separated by single spaces; no character Markdown could read. */
const PLAIN_TEXT = /^[\p{L}\p{N}]+(?: [\p{L}\p{N}]+)*$/u;

/**
 * Makes user-written text inert inside Markdown, a GFM table cell included: it renders
 * as exactly the text it was, trimmed, with whitespace runs (newlines, tabs) folded
 * into one space and control characters dropped. Backslash escapes are used throughout
 * because CommonMark lets any ASCII punctuation be escaped and shows it verbatim.
 * Applying it twice shows the backslashes; nil -> ''.
 */
export function escapeMarkdown(value: unknown): string {
  const text: unknown = toValue(value);
  if (text === null || text === undefined) return '';
  const string = typeof text === 'string' ? text : stringify(text);
  // Most names and descriptions are words and single spaces: nothing to escape or fold.
  if (PLAIN_TEXT.test(string)) return string;
  return (
    string
      .replace(CONTROL_CHARS, '')
      .replace(WHITESPACE_RUNS, ' ')
      .trim()
      .replace(ALWAYS_ESCAPED, '\\$&')
      .replace(/!(?=\\\[)/g, '\\!')
      // Splitting every host name and scheme defeats autolinking (GFM `www.`, linkify's
      // fuzzy domains, `mailto:`, protocol-relative `//host`) whatever the renderer.
      .replace(/[.:](?=\S)/g, '\\$&')
      .replace(/\/(?=\/)/g, '\\/')
      // Block syntax can only start at the beginning of a line, which is where a
      // template may place the value.
      .replace(/^[#+=-]/, '\\$&')
      .replace(/^(\d+)([.)])/, '$1\\$2')
  );
}

function minutesOf(value: unknown, filter: string): number | null {
  const raw: unknown = toValue(value);
  if (raw === null || raw === undefined || raw === '') return null;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : NaN;
  if (!Number.isFinite(n)) throw new Error(`${filter} expects a number of minutes, got ${describeValue(raw)}`);
  return n;
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return Array.isArray(value) ? 'a list' : 'an object';
}

/** The output cap of each render in progress (a capture shares its render's cap). */
const outputLimits = new WeakMap<Context, number>();

/**
 * Writes output while charging it to the render's memory budget and the output cap. A render
 * writes tens of thousands of short pieces (a 5,000-row Timesheet about 150,000), and
 * `text += piece` makes each a node of one tree of concatenations that lives until the render
 * ends: every minor collection on the way copied that growing tree, which came to a third of a
 * large render. So the pieces are appended to a short block, and each block of BLOCK_CHARS is made
 * one flat string (`flatten`) before it joins the output: what survives is a few dozen flat
 * blocks, and the pieces die young.
 */
class CappedEmitter implements Emitter {
  /** Finished blocks, each flat. */
  private done = '';
  /** The block being written. */
  private block = '';
  private readonly limit: number;

  constructor(private readonly ctx: Context) {
    this.limit = outputLimits.get(ctx) ?? BASE_LIMITS.output;
  }

  get buffer(): string {
    return this.done + this.block;
  }

  write(html: unknown): void {
    const chunk = stringify(html);
    this.ctx.memoryLimit.use(chunk.length);
    if (this.done.length + this.block.length + chunk.length > this.limit) throw new OutputLimitError(this.limit);
    this.block += chunk;
    if (this.block.length >= BLOCK_CHARS) {
      this.done += flatten(this.block);
      this.block = '';
    }
  }
}

/** The length of an output block (4 to 16 KiB rendered a 5,000-entry Timesheet equally fast). */
const BLOCK_CHARS = 8_192;

/**
 * `text` itself, made one flat string in memory: converting a string to a number reads it whole,
 * which makes V8 copy a concatenated string's pieces into one flat string in its place. Only the
 * memory's layout changes; the text is the same (a render's output is the same either way).
 */
function flatten(text: string): string {
  Number(text);
  return text;
}

// The stock emitter's coercion, which `{{ list }}` relies on.
function stringify(value: unknown): string {
  const v: unknown = toValue(value);
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(stringify).join('');
  // As the stock emitter: other values print through their own string form.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- Liquid prints objects as String() does
  return String(v);
}

class OutputLimitError extends Error {
  constructor(limit: number) {
    super(`output size limit exceeded (${limit.toLocaleString('en-US')} characters)`);
  }
}

// The stock capture buffers without any bound; route it through the capped emitter.
class BoundedCaptureTag extends CaptureTag {
  override *render(ctx: Context): Generator<unknown, void, string> {
    const emitter = new CappedEmitter(ctx);
    yield this.liquid.renderer.renderTemplates(this.templates, ctx, emitter);
    ctx.bottom()[this.variable] = emitter.buffer;
  }
}

// Templates are self-contained: refusing these tags at parse time reports the problem
// when a template is saved, not when a report is rendered.
class UnavailableTag extends Tag {
  constructor(...args: ConstructorParameters<typeof Tag>) {
    super(...args);
    throw new Error(`the '${this.name}' tag is not available: templates cannot load other templates`);
  }

  render(): void {}
}

function createEngine(): Liquid {
  const liquid = new Liquid({
    // An empty in-memory file system: even without the tags below, no lookup reaches disk.
    templates: {},
    ownPropertyOnly: true,
    strictFilters: true,
    jsTruthy: false,
    parseLimit: PARSE_LIMIT,
    renderLimit: BASE_LIMITS.timeMs,
    memoryLimit: BASE_LIMITS.memory,
    // Context dates are pre-formatted in the owner's zone; `date` must not depend on
    // the server's zone or locale.
    timezoneOffset: 'UTC',
    locale: 'en-US',
  });
  liquid.registerTag('capture', BoundedCaptureTag);
  liquid.registerTag('chart', ChartTag);
  for (const name of ['include', 'render', 'layout']) liquid.registerTag(name, UnavailableTag);
  liquid.registerFilter('duration', durationFilter);
  liquid.registerFilter('hours', hoursFilter);
  liquid.registerFilter('money', moneyFilter);
  liquid.registerFilter('date', dateFilter);
  liquid.registerFilter('md', escapeMarkdown);
  liquid.registerFilter('t', translateFilter);
  return liquid;
}

type DateFilter = (this: FilterImpl, value: unknown, format?: unknown, offset?: unknown) => unknown;
// LiquidJS's own date filter, which the locale-aware one falls back to (read before it is replaced).
const builtinDate = new Liquid().filters.date as DateFilter;

const engine = createEngine();
const parsed = new Map<string, Template[]>();

function parse(source: string): Template[] {
  const hit = parsed.get(source);
  if (hit) {
    // Re-inserting keeps the Map in least-recently-used order.
    parsed.delete(source);
    parsed.set(source, hit);
    return hit;
  }
  if (source.length > PARSE_LIMIT) {
    throw new TemplateError(`template too large (limit ${PARSE_LIMIT.toLocaleString('en-US')} characters)`, 'limit');
  }
  let templates: Template[];
  try {
    templates = engine.parse(source);
  } catch (err) {
    throw toTemplateError(err, 'syntax');
  }
  accelerate(templates);
  parsed.set(source, templates);
  if (parsed.size > CACHE_SIZE) parsed.delete(parsed.keys().next().value as string);
  return templates;
}

/** The message of a limit a render hit; every render has a time limit of its own. */
export const timeLimitMessage = (timeMs: number) => `render time limit exceeded (${timeMs} ms)`;

function limitMessage(raw: string, limits: RenderLimits): string | undefined {
  switch (raw) {
    case 'template render limit exceeded':
      return timeLimitMessage(limits.timeMs);
    case 'memory alloc limit exceeded':
      return 'memory limit exceeded (the template builds too much data, e.g. a very large range or string)';
    case 'parse length limit exceeded':
      return `template too large (limit ${PARSE_LIMIT.toLocaleString('en-US')} characters)`;
  }
  return undefined;
}

// Only the author-facing part of a LiquidJS error survives: its position and the first
// line of its cause. Stacks, source excerpts and file names are dropped.
function toTemplateError(err: unknown, fallbackKind: 'syntax' | 'runtime', limits: RenderLimits = BASE_LIMITS): TemplateError {
  if (err instanceof TemplateError) return err;
  const cause = LiquidError.is(err) ? ((err as { originalError?: unknown }).originalError ?? err) : err;
  const position = positionOf(err);
  if (cause instanceof OutputLimitError) return new TemplateError(cause.message, 'limit', ...position);
  const raw = cause instanceof Error ? stripPosition(cause.message) : 'template failed';
  const limit = limitMessage(raw, limits);
  if (limit) return new TemplateError(limit, 'limit', ...position);
  const kind = err instanceof Error && err.name === 'RenderError' ? 'runtime' : fallbackKind;
  const message = describeProblem(raw);
  const [line, column] = position;
  const where = line === undefined ? '' : `line ${line}, column ${column}: `;
  return new TemplateError(`${where}${message}`, kind, line, column);
}

function positionOf(err: unknown): [number?, number?] {
  const token = LiquidError.is(err) ? (err as { token?: { getPosition?: () => number[] } }).token : undefined;
  const position = token?.getPosition?.();
  return position && position.length >= 2 ? [position[0], position[1]] : [];
}

function stripPosition(message: string): string {
  return (message.split('\n')[0] ?? '').replace(/(, file:[^,]*)?, line:\d+, col:\d+$/, '');
}

function describeProblem(message: string): string {
  const filter = /^undefined filter: (.+)$/.exec(message);
  if (filter) return `unknown filter '${filter[1]}'`;
  const tag = /^tag "(.+)" not found$/.exec(message);
  if (tag) return `unknown tag '${tag[1]}'`;
  if (message.startsWith('ENOENT')) return 'templates cannot load other templates';
  return message;
}

/** What analysing a template found, and the work it took (tests bound it). */
export interface TemplateAnalysis {
  /** The variable paths the template reads from its context, as `variablePaths` gives them. */
  paths: unknown[][];
  /** Template nodes and expression tokens visited: linear in the template's size. */
  steps: number;
}

const analysed = new Map<string, TemplateAnalysis>();

/**
 * The variable paths a template reads (`[['groups', 'byDay'], ['totals', 'hours']]`); a dynamic
 * segment such as `groups[x]` appears as a nested array, and is itself a path the template reads.
 * Throws a `syntax` TemplateError for a template that does not parse.
 *
 * The same answer as LiquidJS's `globalVariableSegmentsSync` for Chronicle's templates (which
 * cannot include others), in linear time: LiquidJS computes each variable's line and column by
 * scanning the source from its start, so a template with many variables took quadratic time (1.7 s
 * on the event loop for 99 KB). Positions are not needed here, so none are computed.
 */
export function variablePaths(source: string): unknown[][] {
  return analyseTemplate(source).paths;
}

/** A source's analysis as the render pool returns it: its paths, or why it does not parse. */
export type SourceAnalysis =
  | { ok: true; paths: unknown[][] }
  | { ok: false; error: { message: string; kind: TemplateError['kind']; line?: number | undefined; column?: number | undefined } };

/** analyseTemplate for the render pool's `analyze` task: a template error is an answer, not a failure. */
export function analyseSource(source: string): SourceAnalysis {
  try {
    return { ok: true, paths: analyseTemplate(source).paths };
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    return { ok: false, error: { message: error.message, kind: error.kind, line: error.line, column: error.column } };
  }
}

/** variablePaths with the work it took; remembered per source, as parsed templates are. */
export function analyseTemplate(source: string): TemplateAnalysis {
  const hit = analysed.get(source);
  if (hit) return hit;
  const result = analyse(parse(source));
  analysed.set(source, result);
  if (analysed.size > CACHE_SIZE) analysed.delete(analysed.keys().next().value as string);
  return result;
}

type Segment = string | number | Segment[];
interface AnalysedTemplate {
  arguments?: () => Iterable<unknown>;
  localScope?: () => Iterable<{ content: string }>;
  blockScope?: () => Iterable<string>;
  children?: (partials: boolean, sync: boolean) => Generator<unknown, Template[]>;
}

function analyse(templates: Template[]): TemplateAnalysis {
  let steps = 0;
  // Names assigned anywhere before (assign, capture, increment: template-wide, as in LiquidJS),
  // and names a block binds for its children (for, tablerow), counted so nesting stays O(1).
  const locals = new Set<string>();
  const bound = new Map<string, number>();
  const inScope = (name: string) => locals.has(name) || (bound.get(name) ?? 0) > 0;
  const seen = new Set<string>();
  const paths: unknown[][] = [];

  /** A property access (`a.b[c]`) as segments; nested accesses become nested arrays and are read too. */
  function segmentsOf(token: unknown, nested: unknown[][]): Segment[] {
    steps += 1;
    const props = (token as { props: unknown[] }).props;
    const segments: Segment[] = [];
    props.forEach((prop, i) => {
      steps += 1;
      if (TypeGuards.isQuotedToken(prop) || TypeGuards.isNumberToken(prop) || TypeGuards.isWordToken(prop)) {
        segments.push((prop as unknown as { content: string | number }).content);
      } else if (TypeGuards.isPropertyAccessToken(prop)) {
        const inner = segmentsOf(prop, nested);
        // A path that starts with a nested path is flattened into it, as LiquidJS does.
        if (i === 0) segments.push(...inner);
        else {
          nested.push(inner);
          segments.push(inner);
        }
      }
    });
    return segments;
  }

  function read(segments: Segment[]): void {
    const root = segments[0];
    if (typeof root !== 'string' || inScope(root)) return;
    const key = JSON.stringify(segments);
    if (seen.has(key)) return;
    seen.add(key);
    paths.push(segments);
  }

  function visitValueToken(token: unknown): void {
    steps += 1;
    if (TypeGuards.isRangeToken(token)) {
      visitValueToken(token.lhs);
      visitValueToken(token.rhs);
    } else if (TypeGuards.isFilteredValueToken(token)) {
      visitFiltered(token.initial.postfix, token.filters);
    } else if (TypeGuards.isPropertyAccessToken(token)) {
      const nested: unknown[][] = [];
      const segments = segmentsOf(token, nested);
      read(segments);
      for (const inner of nested) read(inner as Segment[]);
    }
  }

  function visitFiltered(postfix: Iterable<unknown>, filters: Iterable<{ args: Iterable<unknown> }>): void {
    for (const token of postfix) if (TypeGuards.isValueToken(token)) visitValueToken(token);
    for (const filter of filters) {
      for (const arg of filter.args) {
        steps += 1;
        if (Array.isArray(arg)) {
          if (arg[1]) visitValueToken(arg[1]);
        } else if (TypeGuards.isValueToken(arg)) visitValueToken(arg);
      }
    }
  }

  function visit(template: AnalysedTemplate): void {
    steps += 1;
    for (const arg of template.arguments?.() ?? []) {
      if (arg instanceof Value) visitFiltered(arg.initial.postfix, arg.filters);
      else if (TypeGuards.isValueToken(arg)) visitValueToken(arg);
    }
    for (const ident of template.localScope?.() ?? []) locals.add(ident.content);
    if (!template.children) return;
    const names = [...(template.blockScope?.() ?? [])];
    for (const name of names) bound.set(name, (bound.get(name) ?? 0) + 1);
    for (const child of toValueSync(template.children(false, true)) as AnalysedTemplate[]) visit(child);
    for (const name of names) bound.set(name, (bound.get(name) ?? 1) - 1);
  }

  for (const template of templates) visit(template);
  return { paths, steps };
}
