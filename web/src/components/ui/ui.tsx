/** Small shared pieces: errors where they happen, progress, formatting. */
import {
  useEffect,
  useId,
  useRef,
  useState,
  type FormHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { ChronicleError } from '../../lib/api.js';
import { markdownToSafeHtml, parseDocument } from '../../../../packages/document/src/index.js';

/** A problem's detail (and each field error), announced where the action happened. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  // A problem's detail is written for people; the status line is for logs.
  const message =
    error instanceof ChronicleError
      ? (error.detail ?? `The server answered ${error.status}.`)
      : error instanceof Error
        ? error.message
        : 'Something went wrong.';
  const fields = error instanceof ChronicleError ? error.errors : [];
  return (
    <div className="error" role="alert">
      <p>{message}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map((f) => (
            <li key={`${f.path}:${f.message}`}>
              {f.path ? <code>{f.path}</code> : null} {f.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A polite status line for progress and success. */
export function Status({ children }: { children: ReactNode }) {
  return (
    <p className="status" role="status" aria-live="polite">
      {children}
    </p>
  );
}

/** How long a live preview waits after the last change before it renders. */
export const PREVIEW_DELAY_MS = 400;

/**
 * A live preview: runs `request` a moment after `deps` last changed, and a newer change cancels
 * the older request, so only the latest answer shows. A null request (an incomplete form) waits.
 */
export function useLivePreview<T>(request: ((signal: AbortSignal) => Promise<T>) | null, deps: unknown[]) {
  const [state, setState] = useState<{ data: T | null; error: unknown; busy: boolean }>({ data: null, error: null, busy: false });
  const current = useRef(request);
  current.current = request;
  const ready = request !== null;
  useEffect(() => {
    const run = current.current;
    if (!run) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      setState((s) => ({ ...s, busy: true, error: null }));
      run(controller.signal).then(
        (data) => {
          if (!controller.signal.aborted) setState({ data, error: null, busy: false });
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setState((s) => ({ ...s, error, busy: false }));
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
    // The caller's deps, as useEffect's own: the request is read through a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, ...deps]);
  return state;
}

/** Loads data for a screen: { data, error, loading, reload }. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const loader = useRef(load);
  loader.current = load;
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true, error: null }));
    loader.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ ...s, error, loading: false }));
      },
    );
    return () => {
      controller.abort();
    };
    // The caller's deps, as useEffect's own: the loader is read through a ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  return {
    ...state,
    reload: () => {
      setTick((n) => n + 1);
    },
    set: (data: T) => {
      setState({ data, error: null, loading: false });
    },
  };
}

/** Runs an action with its progress and error: [run, busy, error]. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A): Promise<R | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await action(...args);
    } catch (caught) {
      setError(caught);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return {
    run,
    busy,
    error,
    clear: () => {
      setError(null);
    },
  };
}

export function Loading({ what }: { what: string }) {
  return <Status>Loading {what}…</Status>;
}

/**
 * The app's own words for a control's failed constraint (never the browser's tooltip): what the
 * control's validity says, or the message a screen set with setCustomValidity.
 */
export function validationMessage(control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): string {
  const v = control.validity;
  const type = control instanceof HTMLInputElement ? control.type : control.tagName.toLowerCase();
  if (v.customError) return control.validationMessage;
  if (v.valueMissing)
    return type === 'select' ? 'Choose one.' : type === 'checkbox' ? 'Tick this box to go on.' : 'This field is required.';
  if (v.badInput) {
    if (type === 'number') return 'Enter a number.';
    if (type === 'date') return 'Enter a complete date.';
    if (type === 'datetime-local') return 'Enter a complete date and time.';
    return 'Check this value.';
  }
  if (v.typeMismatch)
    return type === 'email' ? 'Enter an email address, like name@example.com.' : 'Enter a web address, like https://example.com.';
  if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) {
    if (v.tooShort) return `Use at least ${control.minLength} characters (now ${control.value.length}).`;
    if (v.tooLong) return `Use at most ${control.maxLength} characters.`;
  }
  if (control instanceof HTMLInputElement) {
    const dated = type === 'date' || type === 'datetime-local';
    if (v.rangeUnderflow) return dated ? `Choose ${control.min.replace('T', ' ')} or later.` : `Use ${control.min} or more.`;
    if (v.rangeOverflow) return dated ? `Choose ${control.max.replace('T', ' ')} or earlier.` : `Use ${control.max} or less.`;
    if (v.stepMismatch) return type === 'number' ? 'Use a whole number.' : 'Check this value.';
    if (v.patternMismatch) return control.title || 'Check the format of this value.';
  }
  return 'Check this value.';
}

/**
 * A labelled form control: the label is always tied to the control. When a form (see Form) finds
 * the control invalid, the app's own message shows under it, tied to it by aria-describedby, until
 * the value changes; `children` gets the control's id, what describes it, and whether it is invalid.
 */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string | undefined;
  /** A message to show now, whatever the form's checks found (a live filter's rule). */
  error?: string | undefined;
  children: (id: string, describedBy: string | undefined, invalid: boolean) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  const [problem, setProblem] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    // `invalid` does not bubble: a capturing listener on the field's box sees its control's.
    const onInvalid = (event: Event) => {
      event.preventDefault();
      const control = event.target;
      if (control instanceof HTMLInputElement || control instanceof HTMLSelectElement || control instanceof HTMLTextAreaElement) {
        setProblem(validationMessage(control));
      }
    };
    element.addEventListener('invalid', onInvalid, true);
    return () => {
      element.removeEventListener('invalid', onInvalid, true);
    };
  }, []);
  // Through React, not a native listener: a render between the control's event and React's own
  // handling of it would put the old value back into a controlled input.
  const clear = () => {
    setProblem(null);
  };
  const shown = error || problem;
  const describedBy = [hintId, shown ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field" ref={box} onInput={clear} onChange={clear}>
      <label htmlFor={id}>{label}</label>
      {children(id, describedBy, Boolean(shown))}
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      {shown ? (
        <p className="field-error" id={errorId}>
          {shown}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A form that never shows the browser's validation tooltips (noValidate): on submit it checks
 * every control's constraints itself, each invalid field shows the app's message (Field), focus
 * goes to the first one, and `onSubmit` runs only when all are valid.
 */
export function Form({
  onSubmit,
  children,
  ...form
}: Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'noValidate'> & { onSubmit: () => unknown; ref?: Ref<HTMLFormElement> }) {
  return (
    <form
      {...form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const element = event.currentTarget;
        if (!element.checkValidity()) {
          element.querySelector<HTMLElement>('input:invalid, select:invalid, textarea:invalid')?.focus();
          return;
        }
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** Sets a control's custom validity (`message`, or none when empty) so that Form refuses it with that message. */
function useCustomValidity<E extends HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(message: string | undefined) {
  const ref = useRef<E>(null);
  useEffect(() => {
    ref.current?.setCustomValidity(message ?? '');
  }, [message]);
  return ref;
}

/** What useLoad gives, as far as showing it goes. */
interface LoadState<T> {
  data: T | undefined;
  error: unknown;
}

/** Loaded data through `children`; until then its error, or that it is loading. */
export function Loaded<T>({ state, what, children }: { state: LoadState<T>; what: string; children: (data: T) => ReactNode }) {
  if (state.data !== undefined) return <>{children(state.data)}</>;
  // While loading, a block the size of a short list holds the place, so the page does not jump.
  return state.error ? (
    <ErrorMessage error={state.error} />
  ) : (
    <div className="loading-block">
      <Loading what={what} />
    </div>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>;

/** A labelled text (or number, search…) input bound to a string. */
export function InputField({
  label,
  hint,
  value,
  onChange,
  invalidMessage,
  error,
  ...input
}: {
  label: string;
  hint?: string | undefined;
  value: string;
  onChange: (value: string) => void;
  /** A rule of the screen's own that the value breaks (shown when the form is submitted), or none. */
  invalidMessage?: string | undefined;
  /** A message to show now (see Field). */
  error?: string | undefined;
} & InputProps) {
  const ref = useCustomValidity<HTMLInputElement>(invalidMessage);
  return (
    <Field label={label} hint={hint} error={error}>
      {(id, describedBy, invalid) => (
        <input
          ref={ref}
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...input}
          value={value}
          onChange={(e) => {
            onChange(e.target.value);
          }}
        />
      )}
    </Field>
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'value' | 'onChange'>;

/** A labelled textarea bound to a string; `invalidMessage` and `error` as for InputField. */
export function TextAreaField({
  label,
  hint,
  value,
  onChange,
  invalidMessage,
  error,
  ...area
}: {
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  invalidMessage?: string | undefined;
  error?: string | undefined;
} & TextAreaProps) {
  const ref = useCustomValidity<HTMLTextAreaElement>(invalidMessage);
  return (
    <Field label={label} hint={hint} error={error}>
      {(id, describedBy, invalid) => (
        <textarea
          ref={ref}
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...area}
          value={value}
          onChange={(e) => {
            onChange(e.target.value);
          }}
        />
      )}
    </Field>
  );
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'value' | 'onChange'>;

/** A labelled select of `options` ([value, text] pairs) bound to a string. */
export function SelectField({
  label,
  value,
  onChange,
  options,
  error,
  ...select
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (readonly [value: string, text: string])[];
  /** A message to show now (Field's `error`). */
  error?: string | undefined;
} & SelectProps) {
  return (
    <Field label={label} error={error}>
      {(id, describedBy, invalid) => (
        <select
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...select}
          value={value}
          onChange={(e) => {
            onChange(e.target.value);
          }}
        >
          {options.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A checkbox with its label around it, and a hint under it tied to the box when given. */
export function CheckField({
  checked,
  onChange,
  hint,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string | undefined;
  children: ReactNode;
}) {
  const hintId = useId();
  const box = (
    <label className="check">
      <input
        type="checkbox"
        checked={checked}
        aria-describedby={hint ? hintId : undefined}
        onChange={(e) => {
          onChange(e.target.checked);
        }}
      />
      {children}
    </label>
  );
  if (!hint) return box;
  return (
    <div className="check-field">
      {box}
      <p className="hint" id={hintId}>
        {hint}
      </p>
    </div>
  );
}

/** A fieldset of checkboxes choosing some of `items` ([id, name] pairs); `children` follow the boxes. */
export function CheckGroup({
  legend,
  items,
  chosen,
  onChange,
  children,
}: {
  legend: string;
  items: readonly (readonly [id: string, name: string])[];
  chosen: readonly string[];
  onChange: (chosen: string[]) => void;
  children?: ReactNode;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {items.map(([id, name]) => (
        <CheckField
          key={id}
          checked={chosen.includes(id)}
          onChange={(checked) => {
            onChange(checked ? [...chosen.filter((x) => x !== id), id] : chosen.filter((x) => x !== id));
          }}
        >
          {name}
        </CheckField>
      ))}
      {children}
    </fieldset>
  );
}

/** A fieldset of radio buttons choosing one of `options` ([value, text] pairs), with an optional hint under the legend. */
export function RadioGroup<V extends string>({
  legend,
  name,
  value,
  onChange,
  options,
  hint,
}: {
  legend: string;
  /** The radios' shared name, unique on the page. */
  name: string;
  value: V;
  onChange: (value: V) => void;
  options: readonly (readonly [value: V, text: string])[];
  hint?: string;
}) {
  const hintId = useId();
  return (
    <fieldset className="radios" aria-describedby={hint ? hintId : undefined}>
      <legend>{legend}</legend>
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {options.map(([v, text]) => (
        <label key={v} className="check">
          <input
            type="radio"
            name={name}
            value={v}
            checked={value === v}
            onChange={() => {
              onChange(v);
            }}
          />
          {text}
        </label>
      ))}
    </fieldset>
  );
}

/** The filters above a list: they apply as they change, so the form never submits. */
export function FilterForm({ label, children }: { label: string; children: ReactNode }) {
  return (
    <form
      className="filters"
      role="search"
      noValidate
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
      }}
    >
      {children}
    </form>
  );
}

/** Previous / next through a list paged `pageSize` at a time, with the range shown. */
export function Pager({
  offset,
  total,
  pageSize,
  onChange,
}: {
  offset: number;
  total: number;
  pageSize: number;
  onChange: (offset: number) => void;
}) {
  return (
    <nav className="pager" aria-label="Pages">
      <button
        type="button"
        className="secondary"
        disabled={offset === 0}
        onClick={() => {
          onChange(Math.max(0, offset - pageSize));
        }}
      >
        Previous
      </button>
      <span>
        {offset + 1}–{Math.min(offset + pageSize, total)} of {total}
      </span>
      <button
        type="button"
        className="secondary"
        disabled={offset + pageSize >= total}
        onClick={() => {
          onChange(offset + pageSize);
        }}
      >
        Next
      </button>
    </nav>
  );
}

/** A delete (or remove) button that asks once more: "Really …" or "Keep it". */
export function ConfirmDelete({
  busy,
  onConfirm,
  confirmLabel,
  label = 'Delete',
  busyLabel = 'Deleting…',
}: {
  busy: boolean;
  onConfirm: () => void;
  confirmLabel: string;
  label?: ReactNode;
  /** What the confirm button says while the action runs. */
  busyLabel?: string;
}) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button
        type="button"
        className="secondary"
        onClick={() => {
          setConfirming(true);
        }}
      >
        {label}
      </button>
    );
  }
  return (
    <>
      <button type="button" className="danger" disabled={busy} onClick={onConfirm}>
        {busy ? busyLabel : confirmLabel}
      </button>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          setConfirming(false);
        }}
      >
        Keep it
      </button>
    </>
  );
}

export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return '—';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${h}:${String(m).padStart(2, '0')}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export function formatInstant(instant: string | null): string {
  return instant ? dateTime.format(new Date(instant)) : '—';
}

export function formatDate(date: string): string {
  return dateOnly.format(new Date(`${date}T00:00:00Z`));
}

export function Time({ instant }: { instant: string }) {
  return <time dateTime={instant}>{formatInstant(instant)}</time>;
}

/** Markdown rendered by the server's own safe renderer (raw HTML escaped, unsafe links dropped). */
export function Markdown({ source, headingOffset = 0, omitTitle }: { source: string; headingOffset?: number; omitTitle?: string }) {
  // markdownToSafeHtml escapes every raw HTML tag and attribute value; the result is inert.
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: markdownToSafeHtml(source, { headingOffset, omitTitle }) }} />;
}

/** A report version's body; the screen shows its name, so a `# name` opening the body is not repeated. */
export function ReportDocument({ markdown }: { markdown: string }) {
  const { frontMatter, body } = parseDocument(markdown);
  return (
    <article className="document">
      <Markdown source={body} headingOffset={1} omitTitle={frontMatter?.report.name} />
    </article>
  );
}

/** Copies text to the clipboard and says so. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => {
              setDone('copied');
            },
            () => {
              setDone('failed');
            },
          );
        }}
      >
        {label}
      </button>
      <span role="status" className="sr-live">
        {done === 'copied' ? 'Copied.' : done === 'failed' ? 'Copying failed: select the URL and copy it.' : ''}
      </span>
    </>
  );
}
