/** Settings → E-mail: which events mail the signed-in person, the PDF, and a daily digest (docs/api.md "E-mail"). */
import { useState } from 'react';
import { api, type NotificationPreferences } from '../../lib/api.js';
import { useSession } from '../../lib/session.js';
import { CheckField, ErrorMessage, Form, Loaded, RadioGroup, Status, useAction, useLoad } from '../../components/ui/ui.js';

type Digest = NotificationPreferences['digest'];

export function EmailSettings() {
  const preferences = useLoad(() => api.notifications(), []);
  return (
    <section aria-labelledby="email-heading" className="card">
      <h2 id="email-heading">E-mail</h2>
      <Loaded state={preferences} what="your e-mail settings">
        {(saved) => <EmailForm saved={saved} onSaved={preferences.set} />}
      </Loaded>
    </section>
  );
}

function EmailForm({ saved, onSaved }: { saved: NotificationPreferences; onSaved: (preferences: NotificationPreferences) => void }) {
  const { me } = useSession();
  const [inbox, setInbox] = useState(saved.events.inbox);
  const [discussion, setDiscussion] = useState(saved.events.discussion);
  const [scheduleProblems, setScheduleProblems] = useState(saved.events.scheduleProblems);
  const [attachPdf, setAttachPdf] = useState(saved.attachPdf);
  const [digest, setDigest] = useState<Digest>(saved.digest);
  const [done, setDone] = useState(false);
  const save = useAction(() => api.patchNotifications({ events: { inbox, discussion, scheduleProblems }, attachPdf, digest }));
  // Any change hides "Saved." until the next save.
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setDone(false);
    };
  const submit = async () => {
    setDone(false);
    const next = await save.run();
    if (next) {
      onSaved(next);
      setDone(true);
    }
  };
  return (
    <Form onSubmit={submit} className="stack" aria-labelledby="email-heading">
      <p className="hint">Mail goes to {me.email}. Every mail also has a link that turns off its kind of mail in one click.</p>
      <fieldset>
        <legend>Mail me when</legend>
        <CheckField checked={inbox} onChange={edit(setInbox)}>
          A report arrives in my inbox
        </CheckField>
        <CheckField checked={discussion} onChange={edit(setDiscussion)} hint="At most one mail per discussion every 10 minutes.">
          New comments and reactions in discussions I take part in
        </CheckField>
        <CheckField checked={scheduleProblems} onChange={edit(setScheduleProblems)}>
          A scheduled run of my report fails or skips someone
        </CheckField>
      </fieldset>
      <CheckField checked={attachPdf} onChange={edit(setAttachPdf)}>
        Attach the PDF to inbox mail
      </CheckField>
      <RadioGroup
        legend="Delivery"
        name="digest"
        value={digest}
        onChange={edit(setDigest)}
        hint="A digest gathers inbox and discussion mail; a failed run is mailed at once either way."
        options={[
          ['immediate', 'As it happens'],
          ['daily', `Daily digest at 08:00 (your time zone, ${me.timezone})`],
        ]}
      />
      <ErrorMessage error={save.error} />
      {done ? <Status>Saved.</Status> : null}
      <div>
        <button type="submit" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save e-mail settings'}
        </button>
      </div>
    </Form>
  );
}
