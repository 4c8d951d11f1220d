import { useState } from 'react';
import { api, type User } from '../../lib/api.js';
import { navigate } from '../../lib/router.js';
import { ErrorMessage, Field, useAction, InputField, Form } from '../../components/ui/ui.js';

const MIN_LENGTH = 12;

/** The page a set-password link opens: the secret is in the URL's fragment, never sent to a server but here. */
export function SetPassword({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const [token] = useState(() => window.location.hash.slice(1));
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const action = useAction(api.redeemPasswordLink);
  const submit = async () => {
    setMismatch(password !== repeat);
    if (password !== repeat) return;
    const result = await action.run(token, password);
    if (result) {
      onSignedIn(result.user);
      navigate('/inbox', { replace: true });
    }
  };
  if (!token) return <p role="alert">This link is incomplete: open the whole link you were given.</p>;
  return (
    <Form onSubmit={submit} className="card stack">
      <Field label="New password" hint={`At least ${MIN_LENGTH} characters.`}>
        {(id, hint) => (
          <input
            id={id}
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_LENGTH}
            maxLength={256}
            aria-describedby={hint}
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
            }}
          />
        )}
      </Field>
      <InputField label="Repeat the password" type="password" autoComplete="new-password" required value={repeat} onChange={setRepeat} />
      {mismatch && (
        <p role="alert" className="error">
          The two passwords differ.
        </p>
      )}
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        {action.busy ? 'Setting the password…' : 'Set password and sign in'}
      </button>
    </Form>
  );
}
