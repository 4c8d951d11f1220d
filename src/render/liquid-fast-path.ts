/**
 * A direct evaluation of the expressions most templates are made of, for LiquidJS's synchronous
 * renders (docs/decisions.md "Templates evaluated without generators where they can be").
 *
 * LiquidJS evaluates every `{{ e.amount | money }}` and every `{% if e.billable %}` through five or
 * six nested generators (the output, the value, the expression, the token, the scope look-up, each
 * filter), driven one step at a time: in a profile of the Timesheet that machinery and its garbage
 * are over half of a render. Here each parsed `Value` whose parts are all simple (literals, dotted
 * paths of names, operators, filters with positional arguments) gets a plain function that
 * computes the same result in one call; each `{{ }}` output, each run of plain text and each `if`
 * gets a render that is a plain function too (an `if` renders its branch as LiquidJS's
 * renderTemplates does: the same limit checks, error wrapping, `break` and `continue`). Other tags
 * (`for`, `case`, `assign`, `capture`) are LiquidJS's own and call the faster values; they render
 * their blocks (a `for` loop's body once per item) through an engine whose renderTemplates does the
 * same without a generator (`directEngine`).
 *
 * The result is LiquidJS's own, by construction: a path is read only through plain objects and
 * arrays (the render context is nothing else), own properties only, as `ownPropertyOnly` reads
 * them; anything else on the way (a drop such as `forloop`, a string, `first`, `last`, an index, a
 * function) makes the whole value fall back to LiquidJS's generator before any filter has run, as
 * do asynchronous renders, `strictVariables` and engines that read inherited properties. Reads and
 * operators have no effects, so starting again in LiquidJS is safe. Operators and filters are the
 * engine's own functions, called with the same arguments and `this`. test/unit/liquid-fast-path
 * renders every built-in template and generated expressions both ways and compares the output.
 */
import {
  IfTag,
  Liquid,
  LiquidError,
  Output,
  RenderError,
  Tag,
  TypeGuards,
  Value,
  defaultOperators,
  isTruthy,
  toValue,
  toValueSync,
} from './liquid.js';
import type { Context, Emitter, Template } from './liquid.js';

const FALLBACK: unique symbol = Symbol('fall back to LiquidJS');
type Result = unknown;
/** Computes a value, or FALLBACK where LiquidJS's own evaluation is needed. */
type Compiled = (ctx: Context) => Result;

function isIterator(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { next?: unknown; throw?: unknown; return?: unknown };
  return typeof candidate.next === 'function' && typeof candidate.throw === 'function' && typeof candidate.return === 'function';
}

/** A plain object or array (or a scope LiquidJS made with a null prototype): nothing but data. */
function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}

/**
 * One step of a path, as LiquidJS's `readProperty` reads it with `ownPropertyOnly`, for the plain
 * data it is given; FALLBACK for anything else.
 */
function readProperty(object: unknown, key: string): Result {
  if (object === null || object === undefined) return object;
  if (typeof object !== 'object' || !isPlain(object)) return FALLBACK;
  const record = object as Record<string, unknown>;
  if (typeof record.toLiquid === 'function') return FALLBACK;
  if (key === 'first' || key === 'last') return FALLBACK;
  if (key === 'size') {
    // LiquidJS's readSize: a `size` of the object's own, else an array's length, else its key count.
    if (Object.hasOwn(record, 'size') || record.size !== undefined) return typeof record.size === 'function' ? FALLBACK : record.size;
    return Array.isArray(object) ? object.length : Object.keys(object).length;
  }
  if (!Object.hasOwn(record, key)) return undefined;
  const value = record[key];
  if (typeof value === 'function' || isIterator(value)) return FALLBACK;
  return value;
}

/** Context.findScope (private in LiquidJS's types): the scope a name is read from. */
interface ScopeFinder {
  findScope(key: string): unknown;
}

interface TokenLike {
  content?: unknown;
  variable?: unknown;
  props?: TokenLike[];
  operator?: string;
}

/** A literal or a dotted path of names (`e.project.name`, `totals.amounts.size`); null for anything else. */
function compileToken(token: TokenLike): Compiled | null {
  if ('content' in token) {
    const content = token.content;
    return () => content;
  }
  if (!TypeGuards.isPropertyAccessToken(token) || token.variable !== undefined) return null;
  const keys: string[] = [];
  for (const prop of token.props) {
    if (!('content' in prop) || typeof prop.content !== 'string') return null;
    keys.push(prop.content);
  }
  const [first, ...rest] = keys;
  if (first === undefined) return null;
  return (ctx) => {
    let value = readProperty((ctx as unknown as ScopeFinder).findScope(first), first);
    for (const key of rest) {
      if (value === FALLBACK) return FALLBACK;
      value = readProperty(value, key);
    }
    return value;
  };
}

type Operator = (...args: unknown[]) => unknown;

type Primitive = string | number | boolean | null | undefined;
const isPrimitive = (value: unknown): value is Primitive => value === null || (typeof value !== 'object' && typeof value !== 'function');

/**
 * LiquidJS's default operators where both operands are primitives (no drop, array or object, whose
 * comparisons LiquidJS defines for itself): its generators reduce to these JavaScript operations
 * then (`equals` is `===`, a comparison compares the values, `contains` is a string's `indexOf`).
 * FALLBACK for anything else.
 */
function onPrimitives(operator: string, left: unknown, right: unknown, ctx: Context): unknown {
  if (!isPrimitive(right) || !isPrimitive(left)) return FALLBACK;
  /* eslint-disable @typescript-eslint/no-non-null-assertion -- compared as LiquidJS compares them: JavaScript's relational operators on any primitives */
  switch (operator) {
    case '==':
      return left === right;
    case '!=':
      return left !== right;
    case '>':
      return left! > right!;
    case '<':
      return left! < right!;
    case '>=':
      return left! >= right!;
    case '<=':
      return left! <= right!;
    /* eslint-enable @typescript-eslint/no-non-null-assertion */
    case 'and':
      return isTruthy(left, ctx) && isTruthy(right, ctx);
    case 'or':
      return isTruthy(left, ctx) || isTruthy(right, ctx);
    case 'not':
      return !isTruthy(right, ctx);
    case 'contains':
      return typeof left === 'string' ? left.includes(String(right)) : FALLBACK;
    default:
      return FALLBACK;
  }
}

const UNARY = new Set(['not']);

/** An expression's postfix as one function; null when one of its tokens is not simple. */
function compileExpression(postfix: readonly TokenLike[]): Compiled | null {
  const single = postfix.length === 1 ? postfix[0] : undefined;
  if (single !== undefined && !TypeGuards.isOperatorToken(single)) return compileToken(single);
  const steps: ({ operand: Compiled } | { operator: string; unary: boolean })[] = [];
  for (const token of postfix) {
    if (TypeGuards.isOperatorToken(token)) {
      const operator = token.operator;
      steps.push({ operator, unary: UNARY.has(operator) });
    } else {
      const operand = compileToken(token);
      if (!operand) return null;
      steps.push({ operand });
    }
  }
  if (steps.length === 0) return null;
  return (ctx) => {
    // Reads first: a fallback must come before any operator has been called.
    const values: Result[] = [];
    for (const step of steps) {
      if (!('operand' in step)) continue;
      const value = step.operand(ctx);
      if (value === FALLBACK) return FALLBACK;
      values.push(value);
    }
    const operands: Result[] = [];
    let next = 0;
    for (const step of steps) {
      if ('operand' in step) {
        operands.push(values[next++]);
        continue;
      }
      const right = operands.pop();
      const left = step.unary ? undefined : operands.pop();
      let result = ctx.opts.operators === defaultOperators ? onPrimitives(step.operator, left, right, ctx) : FALLBACK;
      if (result === FALLBACK) {
        const operator = (ctx.opts.operators as Record<string, Operator | undefined>)[step.operator];
        if (!operator) return FALLBACK;
        result = step.unary ? operator(right, ctx) : operator(left, right, ctx);
        if (isIterator(result)) result = toValueSync(result);
      }
      operands.push(result);
    }
    return operands[0];
  };
}

/** What a parsed filter holds (private in LiquidJS's types). */
interface FilterParts {
  args: unknown[];
  handler: (...args: unknown[]) => unknown;
  liquid: unknown;
  token: unknown;
}

/** A Value (an expression and its filters) as one function; null when a part is not simple. */
function compileValue(value: Value): Compiled | null {
  const initial = compileExpression((value.initial as unknown as { postfix: TokenLike[] }).postfix);
  if (!initial) return null;
  const filters: { parts: FilterParts; args: Compiled[] }[] = [];
  for (const filter of value.filters as unknown as FilterParts[]) {
    const args: Compiled[] = [];
    for (const arg of filter.args) {
      // `key: value` arguments come as pairs: left to LiquidJS.
      if (Array.isArray(arg)) return null;
      const compiled = compileToken(arg as TokenLike);
      if (!compiled) return null;
      args.push(compiled);
    }
    filters.push({ parts: filter, args });
  }
  if (filters.length === 0) return initial;
  if (filters.every(({ args }) => args.length === 0)) {
    // The common case (`| md`, `| duration`, `| money`): no argument to read, nothing to gather.
    const parts = filters.map((filter) => filter.parts);
    return (ctx) => {
      let result = initial(ctx);
      if (result === FALLBACK) return FALLBACK;
      for (const { handler, token, liquid } of parts) {
        result = handler.call({ context: ctx, token, liquid }, result);
        if (isIterator(result)) result = toValueSync(result);
      }
      return result;
    };
  }
  return (ctx) => {
    let result = initial(ctx);
    if (result === FALLBACK) return FALLBACK;
    // Every argument is read before the first filter runs, so a fallback never repeats a filter.
    const argvs: Result[][] = [];
    for (const { args } of filters) {
      const argv: Result[] = [];
      for (const arg of args) {
        const read = arg(ctx);
        if (read === FALLBACK) return FALLBACK;
        argv.push(read);
      }
      argvs.push(argv);
    }
    for (const [i, { parts }] of filters.entries()) {
      result = parts.handler.apply({ context: ctx, token: parts.token, liquid: parts.liquid }, [result, ...(argvs[i] ?? [])]);
      if (isIterator(result)) result = toValueSync(result);
    }
    return result;
  };
}

type ValueMethod = (ctx: Context, lenient?: boolean) => unknown;
type RenderMethod = (ctx: Context, emitter: Emitter) => unknown;

/** Whether a render may take the direct path at all. */
const direct = (ctx: Context): boolean => ctx.sync && !ctx.strictVariables && ctx.ownPropertyOnly;

/* eslint-disable @typescript-eslint/unbound-method -- LiquidJS's own methods, always called on their instance */
const valueGenerator = Value.prototype.value as ValueMethod;
const renderGenerator = Output.prototype.render as RenderMethod;
/* eslint-enable @typescript-eslint/unbound-method */

function accelerateValue(value: Value): boolean {
  const compiled = compileValue(value);
  if (!compiled) return false;
  const method: ValueMethod = function (this: Value, ctx, lenient) {
    if (!direct(ctx)) return valueGenerator.call(this, ctx, lenient);
    const result = compiled(ctx);
    return result === FALLBACK ? valueGenerator.call(this, ctx, lenient) : result;
  };
  (value as unknown as { value: ValueMethod }).value = method;
  return true;
}

function accelerateOutput(output: Output): void {
  const render: RenderMethod = function (this: Output, ctx, emitter) {
    if (!direct(ctx)) return renderGenerator.call(this, ctx, emitter);
    // As Output.render: the value, then its own value (a drop's valueOf), each driven to the end.
    let value = (this.value as unknown as { value: ValueMethod }).value(ctx, false);
    if (isIterator(value)) value = toValueSync(value);
    let shown: unknown = toValue(value);
    if (isIterator(shown)) shown = toValueSync(shown);
    emitter.write(shown);
    return undefined;
  };
  (output as unknown as { render: RenderMethod }).render = render;
}

/** LiquidJS's class for the text between tags (not exported): what a template of plain text parses to. */
const HTML = (new Liquid().parse('text')[0] as object).constructor;

function accelerateText(text: Template & { str: string }): void {
  // As HTML.render, a generator that writes its text and yields nothing.
  (text as unknown as { render: RenderMethod }).render = function (this: { str: string }, _ctx, emitter) {
    emitter.write(this.str);
    return undefined;
  };
}

/**
 * Templates rendered between two readings of the clock for the render's time limit. LiquidJS reads
 * it before each one; a Timesheet of 5,000 rows renders about 100,000, and a reading costs more
 * than most of them. A run of 16 simple ones takes microseconds, and anything longer (a loop, a
 * branch) renders its own templates through here, so the limit is still checked within
 * microseconds of running out.
 */
const CLOCK_EVERY = 16;
let sinceClock = 0;

function checkTime(ctx: Context): void {
  sinceClock += 1;
  if (sinceClock < CLOCK_EVERY) return;
  sinceClock = 0;
  ctx.renderLimit.check(performance.now());
}

/**
 * LiquidJS's renderTemplates for a direct render: the same limit checks (the time limit's every
 * CLOCK_EVERY templates), error wrapping and `break`/`continue`, each template's render driven
 * where it is a generator.
 */
function renderList(templates: readonly Template[], ctx: Context, emitter: Emitter): void {
  checkTime(ctx);
  for (const template of templates) {
    checkTime(ctx);
    try {
      let html: unknown = template.render(ctx, emitter);
      if (isIterator(html)) html = toValueSync(html);
      if (html) emitter.write(html);
      if (ctx.breakCalled || ctx.continueCalled) break;
    } catch (error) {
      throw LiquidError.is(error) ? error : new RenderError(error as Error, template);
    }
  }
}

type RenderTemplates = (templates: Template[], ctx: Context, emitter?: Emitter) => unknown;
const directEngines = new WeakMap<Liquid, Liquid>();

/**
 * The engine as the tags of an accelerated template see it: the same engine, but its renderer's
 * renderTemplates renders a block with renderList where the render is direct (a `for` loop's body
 * once per item, a `case` branch, a `capture`), and with LiquidJS's own otherwise. It returns
 * what LiquidJS's does (the emitter's buffer).
 */
export function directEngine(liquid: Liquid): Liquid {
  let engine = directEngines.get(liquid);
  if (!engine) {
    const own = liquid.renderer;
    const renderTemplates: RenderTemplates = (templates, ctx, emitter) => {
      if (!emitter || !direct(ctx) || ctx.opts.catchAllErrors) return own.renderTemplates(templates, ctx, emitter);
      renderList(templates, ctx, emitter);
      return (emitter as Emitter & { buffer?: unknown }).buffer;
    };
    const renderer = Object.create(own, { renderTemplates: { value: renderTemplates } }) as object;
    engine = Object.create(liquid, { renderer: { value: renderer } }) as Liquid;
    directEngines.set(liquid, engine);
  }
  return engine;
}

/* eslint-disable-next-line @typescript-eslint/unbound-method -- LiquidJS's own method, always called on its instance */
const ifGenerator = IfTag.prototype.render as RenderMethod;

function accelerateIf(tag: IfTag): void {
  const render: RenderMethod = function (this: IfTag, ctx, emitter) {
    // catchAllErrors collects errors where LiquidJS's renderTemplates would throw: left to it.
    if (!direct(ctx) || ctx.opts.catchAllErrors) return ifGenerator.call(this, ctx, emitter);
    // As IfTag.render: the first branch whose value is truthy, else the else branch.
    for (const { value, templates } of this.branches) {
      let tested = (value as unknown as { value: ValueMethod }).value(ctx, ctx.opts.lenientIf);
      if (isIterator(tested)) tested = toValueSync(tested);
      let shown: unknown = toValue(tested);
      if (isIterator(shown)) shown = toValueSync(shown);
      if (isTruthy(shown, ctx)) {
        renderList(templates, ctx, emitter);
        return undefined;
      }
    }
    renderList(this.elseTemplates ?? [], ctx, emitter);
    return undefined;
  };
  (tag as unknown as { render: RenderMethod }).render = render;
}

/** Keys of parsed templates that lead out of the tree (the engine, source tokens). */
const NOT_TREE = new Set(['liquid', 'token', 'tokenizer', 'tokens', 'parser']);

/**
 * Gives every simple Value and output in parsed templates its direct evaluation; returns how many
 * Values it accelerated. The templates behave exactly as before, only faster; a part the walk does
 * not reach keeps LiquidJS's own evaluation.
 */
export function accelerate(templates: readonly Template[]): number {
  const seen = new Set<object>();
  let count = 0;
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (node instanceof Value) {
      if (accelerateValue(node)) count += 1;
      return;
    }
    if (node instanceof Output) {
      visit(node.value);
      accelerateOutput(node);
      return;
    }
    if (node.constructor === HTML) {
      accelerateText(node as Template & { str: string });
      return;
    }
    if (node instanceof IfTag && node.constructor === IfTag) accelerateIf(node);
    else if (node instanceof Tag) node.liquid = directEngine(node.liquid);
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    for (const [key, child] of Object.entries(node)) if (!NOT_TREE.has(key)) visit(child);
  };
  visit(templates);
  return count;
}
