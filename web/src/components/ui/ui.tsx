/** Small shared pieces: errors where they happen, progress, formatting. */
import {
  useEffect,
  useId,
  useRef,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
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

/** A labelled form control: the label is always tied to the control. */
export function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string, describedBy?: string) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id, hintId)}
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** What useLoad gives, as far as showing it goes. */
interface LoadState<T> {
  data: T | undefined;
  error: unknown;
}

/** Loaded data through `children`; until then its error, or that it is loading. */
export function Loaded<T>({ state, what, children }: { state: LoadState<T>; what: string; children: (data: T) => ReactNode }) {
  if (state.data !== undefined) return <>{children(state.data)}</>;
  return state.error ? <ErrorMessage error={state.error} /> : <Loading what={what} />;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>;

/** A labelled text (or number, search…) input bound to a string. */
export function InputField({
  label,
  hint,
  value,
  onChange,
  ...input
}: { label: string; hint?: string; value: string; onChange: (value: string) => void } & InputProps) {
  return (
    <Field label={label} {...(hint ? { hint } : {})}>
      {(id, describedBy) => (
        <input
          id={id}
          aria-describedby={describedBy}
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

/** A labelled textarea bound to a string. */
export function TextAreaField({
  label,
  hint,
  value,
  onChange,
  ...area
}: { label: string; hint?: string; value: string; onChange: (value: string) => void } & TextAreaProps) {
  return (
    <Field label={label} {...(hint ? { hint } : {})}>
      {(id, describedBy) => (
        <textarea
          id={id}
          aria-describedby={describedBy}
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
  ...select
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (readonly [value: string, text: string])[];
} & SelectProps) {
  return (
    <Field label={label}>
      {(id) => (
        <select
          id={id}
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

/** A checkbox with its label around it. */
export function CheckField({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => {
          onChange(e.target.checked);
        }}
      />
      {children}
    </label>
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

/** The filters above a list: they apply as they change, so the form never submits. */
export function FilterForm({ label, children }: { label: string; children: ReactNode }) {
  return (
    <form
      className="filters"
      role="search"
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
