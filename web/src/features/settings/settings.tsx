/** Settings: profile, e-mail, password, API tokens, sessions; for instance admins also people and their set-password links. */
import { useState } from 'react';
import { api, type CreatedToken, type PasswordLink } from '../../lib/api.js';
import { useSession, useTitle } from '../../lib/session.js';
import { TimeZonePicker } from './time-zone-picker.js';
import { LocalePicker } from './locale-picker.js';
import { describeUserAgent } from './user-agent.js';
import { EmailSettings } from './email-settings.js';
import {
  CopyButton,
  ErrorMessage,
  Field,
  Status,
  Time,
  formatInstant,
  useAction,
  useLoad,
  InputField,
  CheckField,
  Loaded,
  Form,
} from '../../components/ui/ui.js';

export function Settings() {
  useTitle('Settings');
  const { me } = useSession();
  return (
    <>
      <h1>Settings</h1>
      <Profile />
      <EmailSettings />
      <Password />
      <Tokens />
      <Sessions />
      {me.instanceAdmin ? <People /> : null}
    </>
  );
}

function Profile() {
  const { me, setMe } = useSession();
  const [name, setName] = useState(me.name);
  const [timezone, setTimezone] = useState(me.timezone);
  const [locale, setLocale] = useState(me.locale);
  const [saved, setSaved] = useState(false);
  const save = useAction(() => api.patchMe({ name, timezone, locale }));
  const submit = async () => {
    setSaved(false);
    const user = await save.run();
    if (user) {
      setMe(user);
      setSaved(true);
    }
  };
  return (
    <section aria-labelledby="profile-heading" className="card">
      <h2 id="profile-heading">Profile</h2>
      <Form onSubmit={submit} className="stack">
        <InputField label="Name" required maxLength={100} autoComplete="name" value={name} onChange={setName} />
        <Field label="Email" hint="Only an instance admin changes it.">
          {(id, hint) => <input id={id} readOnly value={me.email} aria-describedby={hint} />}
        </Field>
        <TimeZonePicker value={timezone} onChange={setTimezone} />
        <LocalePicker value={locale} onChange={setLocale} />
        <ErrorMessage error={save.error} />
        {saved ? <Status>Saved.</Status> : null}
        <div>
          <button type="submit" disabled={save.busy}>
            {save.busy ? 'Saving…' : 'Save profile'}
          </button>
        </div>
      </Form>
    </section>
  );
}

function Password() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    await api.changePassword(current, next);
    return true;
  });
  const submit = async () => {
    setSaved(false);
    if (await save.run()) {
      setSaved(true);
      setCurrent('');
      setNext('');
      setRepeat('');
    }
  };
  return (
    <section aria-labelledby="password-heading" className="card">
      <h2 id="password-heading">Password</h2>
      <Form onSubmit={submit} className="stack">
        <InputField
          label="Current password"
          type="password"
          required
          autoComplete="current-password"
          value={current}
          onChange={setCurrent}
        />
        <InputField
          label="New password"
          hint="At least 12 characters. Your other sessions end."
          type="password"
          required
          minLength={12}
          maxLength={256}
          autoComplete="new-password"
          value={next}
          onChange={setNext}
        />
        <InputField
          label="Repeat the new password"
          type="password"
          required
          autoComplete="new-password"
          value={repeat}
          invalidMessage={repeat !== next ? 'The two passwords differ.' : undefined}
          onChange={setRepeat}
        />
        <ErrorMessage error={save.error} />
        {saved ? <Status>Password changed.</Status> : null}
        <div>
          <button type="submit" disabled={save.busy}>
            {save.busy ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </Form>
    </section>
  );
}

function Tokens() {
  const { me } = useSession();
  const tokens = useLoad(() => api.tokens(), []);
  const [name, setName] = useState('');
  const [write, setWrite] = useState(false);
  const [days, setDays] = useState('90');
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const create = useAction(() =>
    api.createToken(me.id, { name, scopes: write ? ['read', 'write'] : ['read'], ...(days ? { expiresInDays: Number(days) } : {}) }),
  );
  const revoke = useAction(async (id: string) => {
    await api.revokeToken(id);
    return id;
  });
  const submit = async () => {
    const token = await create.run();
    if (token) {
      setCreated(token);
      setName('');
      tokens.reload();
    }
  };
  return (
    <section aria-labelledby="tokens-heading" className="card">
      <h2 id="tokens-heading">API tokens</h2>
      <Form onSubmit={submit} className="stack">
        <InputField label="Token name" maxLength={100} value={name} onChange={setName} />
        <CheckField checked={write} onChange={setWrite}>
          Allow writing (otherwise read only)
        </CheckField>
        <InputField
          label="Expires after (days, empty: never)"
          type="number"
          min={1}
          max={365}
          inputMode="numeric"
          value={days}
          onChange={setDays}
        />
        <ErrorMessage error={create.error} />
        <div>
          <button type="submit" disabled={create.busy}>
            {create.busy ? 'Creating…' : 'Create token'}
          </button>
        </div>
      </Form>
      {created ? (
        <div className="once" role="status">
          <p>
            Your new token, shown only this once: <code>{created.token}</code>
          </p>
          <CopyButton text={created.token} label="Copy token" />
        </div>
      ) : null}
      <ErrorMessage error={revoke.error} />
      <Loaded state={tokens} what="tokens">
        {(data) =>
          data.length === 0 ? (
            <div className="empty">
              <p>No API tokens yet. A token lets a script or the command line use Chronicle as you.</p>
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  document.querySelector<HTMLElement>('#tokens-heading ~ form input')?.focus();
                }}
              >
                Create your first token
              </button>
            </div>
          ) : (
            <ul className="list">
              {data.map((t) => (
                <li key={t.id} className="item title-row">
                  <p>
                    {t.name || 'Unnamed token'} · {t.scopes.join(' + ')} · created <Time instant={t.createdAt} />
                    {t.expiresAt ? (
                      <>
                        {' '}
                        · expires <Time instant={t.expiresAt} />
                      </>
                    ) : null}
                  </p>
                  <button
                    type="button"
                    className="danger"
                    disabled={revoke.busy}
                    onClick={() =>
                      void revoke.run(t.id).then((id) => {
                        if (id) tokens.reload();
                      })
                    }
                  >
                    Revoke<span className="sr-only"> {t.name || 'unnamed token'}</span>
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}

function Sessions() {
  const sessions = useLoad(() => api.sessions(), []);
  const end = useAction(async (id: string) => {
    await api.endSession(id);
    return id;
  });
  return (
    <section aria-labelledby="sessions-heading" className="card">
      <h2 id="sessions-heading">Sessions</h2>
      <ErrorMessage error={end.error} />
      <Loaded state={sessions} what="sessions">
        {(data) => (
          <ul className="list">
            {[...data]
              .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt))
              .map((s) => (
                <li key={s.id} className="item title-row">
                  <p>
                    <span className="session-name" title={s.userAgent || undefined}>
                      {describeUserAgent(s.userAgent)}
                    </span>{' '}
                    {s.current ? <strong>(this one)</strong> : null}
                    <br />
                    <span className="meta">
                      Last used <Time instant={s.lastSeenAt} /> · signed in <Time instant={s.createdAt} />
                    </span>
                  </p>
                  {!s.current && (
                    <button
                      type="button"
                      className="secondary"
                      disabled={end.busy}
                      onClick={() =>
                        void end.run(s.id).then((id) => {
                          if (id) sessions.reload();
                        })
                      }
                    >
                      End
                      <span className="sr-only">
                        {' '}
                        session of {describeUserAgent(s.userAgent)}, signed in {formatInstant(s.createdAt)}
                      </span>
                    </button>
                  )}
                </li>
              ))}
          </ul>
        )}
      </Loaded>
    </section>
  );
}

function People() {
  const users = useLoad(() => api.users(), []);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [link, setLink] = useState<(PasswordLink & { name: string; email: string }) | null>(null);
  // The people whose next link is also mailed to them.
  const [mailTo, setMailTo] = useState<ReadonlySet<string>>(new Set());
  const create = useAction(() => api.createUser({ name, email }));
  const mint = useAction(async (id: string, who: string, address: string) => ({
    ...(await api.createPasswordLink(id, mailTo.has(id))),
    name: who,
    email: address,
  }));
  const submit = async () => {
    const user = await create.run();
    if (user) {
      setName('');
      setEmail('');
      users.reload();
    }
  };
  return (
    <section aria-labelledby="people-heading" className="card">
      <h2 id="people-heading">People</h2>
      <Form onSubmit={submit} className="inline-form">
        <InputField label="Name" required maxLength={100} value={name} onChange={setName} />
        <InputField label="Email" type="email" required maxLength={254} value={email} onChange={setEmail} />
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Adding…' : 'Add person'}
        </button>
      </Form>
      <ErrorMessage error={create.error} />
      {link ? (
        <div className="once" role="status">
          <p>
            Set-password link for {link.name}, valid until <Time instant={link.expiresAt} />, shown once:{' '}
            <code className="url">{link.url}</code>
          </p>
          {link.emailed ? <p>Also e-mailed to {link.email}.</p> : null}
          <CopyButton text={link.url} label="Copy link" />
        </div>
      ) : null}
      <ErrorMessage error={mint.error} />
      <Loaded state={users} what="people">
        {(data) => (
          <ul className="list">
            {data.map((u) => (
              <li key={u.id} className="item title-row">
                <p>
                  {u.name} <span className="muted">{u.email}</span> {u.instanceAdmin ? <span className="tag">admin</span> : null}
                </p>
                <div className="row link-actions">
                  <CheckField
                    checked={mailTo.has(u.id)}
                    onChange={(checked) => {
                      const next = new Set(mailTo);
                      if (checked) next.add(u.id);
                      else next.delete(u.id);
                      setMailTo(next);
                    }}
                  >
                    Also e-mail it to <span className="muted">{u.email}</span>
                  </CheckField>
                  <button
                    type="button"
                    className="secondary"
                    disabled={mint.busy}
                    onClick={() =>
                      void mint.run(u.id, u.name, u.email).then((l) => {
                        if (l) setLink(l);
                      })
                    }
                  >
                    Set-password link<span className="sr-only"> for {u.name}</span>
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Loaded>
    </section>
  );
}
