import { useState, type SyntheticEvent } from 'react';
import { api, type User } from '../api.js';
import { ErrorMessage, Field, useAction } from '../ui.js';

export function SignIn({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction(api.signIn);
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const result = await action.run(email, password);
    if (result) onSignedIn(result.user);
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="card stack">
      <Field label="Email">
        {(id) => (
          <input
            id={id}
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
            }}
          />
        )}
      </Field>
      <Field label="Password">
        {(id) => (
          <input
            id={id}
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
            }}
          />
        )}
      </Field>
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        {action.busy ? 'Signing in…' : 'Sign in'}
      </button>
      <p className="hint">No password yet? Ask an instance admin for a set-password link.</p>
    </form>
  );
}
