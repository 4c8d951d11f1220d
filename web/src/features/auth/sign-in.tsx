import { useState } from 'react';
import { api, type User } from '../../lib/api.js';
import { ErrorMessage, useAction, InputField, Form } from '../../components/ui/ui.js';

export function SignIn({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction(api.signIn);
  const submit = async () => {
    const result = await action.run(email, password);
    if (result) onSignedIn(result.user);
  };
  return (
    <Form onSubmit={submit} className="card stack">
      <InputField label="Email" type="email" autoComplete="username" required value={email} onChange={setEmail} />
      <InputField label="Password" type="password" autoComplete="current-password" required value={password} onChange={setPassword} />
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        {action.busy ? 'Signing in…' : 'Sign in'}
      </button>
      <p className="hint">No password yet? Ask an instance admin for a set-password link.</p>
    </Form>
  );
}
