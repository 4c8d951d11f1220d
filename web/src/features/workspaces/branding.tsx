/**
 * A workspace's branding, for its admins (docs/api.md "Branding"): the name, accent colour and
 * footer its reports' share pages show, with the colour's contrast shown as one types, and the logo.
 */
import { useState, type ChangeEvent } from 'react';
import { api, type Workspace, type WorkspaceBranding } from '../../lib/api.js';
import { ErrorMessage, Form, InputField, Status, TextAreaField, useAction } from '../../components/ui/ui.js';
import { ACCENT_COLOR_PATTERN, BRANDING_LIMITS, contrastWithWhite, MIN_ACCENT_CONTRAST } from '../../../../packages/document/src/index.js';

const LOGO_MAX_BYTES = 1024 * 1024;
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const COLOR = new RegExp(ACCENT_COLOR_PATTERN);

/** What the colour field says about the colour: its contrast with white, and whether that is enough. */
function contrastNote(color: string): { text: string; ok: boolean } | null {
  if (color === '') return null;
  if (!COLOR.test(color)) return { text: 'Write the colour as #rrggbb, e.g. #1f5fbf.', ok: false };
  const ratio = Math.floor(contrastWithWhite(color) * 100) / 100;
  return ratio >= MIN_ACCENT_CONTRAST
    ? { text: `Contrast with white ${ratio}:1: readable.`, ok: true }
    : {
        text: `Contrast with white ${ratio}:1: too light, at least ${MIN_ACCENT_CONTRAST}:1 is needed. Choose a darker colour.`,
        ok: false,
      };
}

/** The logo's URL on this page's own origin (the API gives it absolute, by PUBLIC_BASE_URL). */
const sameOrigin = (url: string) => {
  const parsed = new URL(url, window.location.origin);
  return `${parsed.pathname}${parsed.search}`;
};

export function BrandingSettings({ workspace, onSaved }: { workspace: Workspace; onSaved: (workspace: Workspace) => void }) {
  const { branding } = workspace;
  const [displayName, setDisplayName] = useState(branding.displayName ?? '');
  const [accent, setAccent] = useState(branding.accentColor ?? '');
  const [footer, setFooter] = useState(branding.footer);
  const [saved, setSaved] = useState(false);
  const note = contrastNote(accent.trim());
  const save = useAction(() =>
    api.patchWorkspace(workspace.id, {
      branding: {
        displayName: displayName.trim() === '' ? null : displayName.trim(),
        accentColor: accent.trim() === '' ? null : accent.trim(),
        footer,
      },
    }),
  );
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setSaved(false);
    };
  const submit = async () => {
    setSaved(false);
    const changed = await save.run();
    if (changed) {
      onSaved(changed);
      setSaved(true);
    }
  };
  return (
    <section aria-labelledby="branding-heading" className="card">
      <h2 id="branding-heading">Branding</h2>
      <p className="hint">What the share pages of this workspace's reports show (a report uses its first workspace's branding).</p>
      <Form onSubmit={submit} aria-labelledby="branding-heading" className="stack branding-form">
        <InputField
          label="Display name"
          hint="Shown at the top of share pages instead of “Chronicle”. Leave empty for none."
          maxLength={BRANDING_LIMITS.displayName}
          value={displayName}
          onChange={edit(setDisplayName)}
        />
        <div className="accent-field">
          <InputField
            label="Accent colour"
            hint="#rrggbb, for links and the page's top band. Leave empty for Chronicle's own."
            placeholder="#1f5fbf"
            maxLength={7}
            value={accent}
            onChange={edit(setAccent)}
            invalidMessage={note && !note.ok ? note.text : undefined}
          />
          <input
            type="color"
            aria-label="Pick the accent colour"
            value={COLOR.test(accent.trim()) ? accent.trim().toLowerCase() : '#1f5fbf'}
            onChange={(event: ChangeEvent<HTMLInputElement>) => {
              edit(setAccent)(event.target.value);
            }}
          />
        </div>
        {note ? (
          <p className={note.ok ? 'hint' : 'hint warning'} aria-live="polite">
            {note.text}
          </p>
        ) : null}
        <TextAreaField
          label="Footer"
          hint={`Markdown, up to ${BRANDING_LIMITS.footer} characters (${footer.length} used): links and emphasis; no images or HTML.`}
          maxLength={BRANDING_LIMITS.footer}
          rows={3}
          value={footer}
          onChange={edit(setFooter)}
        />
        <div className="row form-actions">
          <button type="submit" disabled={save.busy}>
            {save.busy ? 'Saving…' : 'Save branding'}
          </button>
        </div>
        <ErrorMessage error={save.error} />
        {saved ? <Status>Saved.</Status> : null}
      </Form>
      <Logo workspace={workspace} branding={branding} onSaved={onSaved} />
    </section>
  );
}

function Logo({
  workspace,
  branding,
  onSaved,
}: {
  workspace: Workspace;
  branding: WorkspaceBranding;
  onSaved: (workspace: Workspace) => void;
}) {
  const [tooBig, setTooBig] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const upload = useAction((file: File) => api.putWorkspaceLogo(workspace.id, file));
  const remove = useAction(async () => {
    await api.deleteWorkspaceLogo(workspace.id);
    return true;
  });
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    setStatus(null);
    setTooBig(null);
    if (!file) return;
    if (!LOGO_TYPES.includes(file.type)) {
      setTooBig('Choose a PNG, JPEG or WebP image.');
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      setTooBig(`This image is ${(file.size / 1024 / 1024).toFixed(1)} MiB; a logo may be 1 MiB at most.`);
      return;
    }
    const changed = await upload.run(file);
    if (changed) {
      onSaved({ ...workspace, branding: changed });
      setStatus('Logo saved.');
    }
  };
  const drop = async () => {
    setStatus(null);
    if (await remove.run()) {
      onSaved({ ...workspace, branding: { ...branding, logo: null } });
      setStatus('Logo removed.');
    }
  };
  return (
    <div className="logo-setting">
      <h3>Logo</h3>
      {branding.logo ? (
        <img
          className="logo-preview"
          src={sameOrigin(branding.logo.url)}
          alt="The workspace's logo"
          width={branding.logo.width}
          height={branding.logo.height}
        />
      ) : (
        <p className="hint">No logo yet.</p>
      )}
      <p className="hint">PNG, JPEG or WebP up to 1 MiB; Chronicle keeps it as a PNG at most 512 pixels wide, without its metadata.</p>
      <div className="row">
        <label className="button secondary file-button">
          {upload.busy ? 'Uploading…' : branding.logo ? 'Replace the logo' : 'Upload a logo'}
          <input type="file" accept={LOGO_TYPES.join(',')} className="sr-only" disabled={upload.busy} onChange={(e) => void choose(e)} />
        </label>
        {branding.logo ? (
          <button type="button" className="secondary" disabled={remove.busy} onClick={() => void drop()}>
            {remove.busy ? 'Removing…' : 'Remove the logo'}
          </button>
        ) : null}
      </div>
      <ErrorMessage error={tooBig ? new Error(tooBig) : (upload.error ?? remove.error)} />
      {status ? <Status>{status}</Status> : null}
    </div>
  );
}
