/**
 * A workspace's webhooks, for its admins and owners (docs/api.md "Webhooks"): the endpoints with
 * their events, format and state; a new endpoint, whose signing secret shows this once; pause and
 * resume; delete after a confirmation; and each endpoint's deliveries, newest first.
 */
import { useState } from 'react';
import { api, type CreatedWebhook, type Webhook, type WebhookDelivery, type WebhookEvent, type Workspace } from '../../lib/api.js';
import {
  CheckGroup,
  ConfirmDelete,
  CopyButton,
  ErrorMessage,
  Form,
  InputField,
  Loaded,
  Pager,
  RadioGroup,
  Time,
  useAction,
  useLoad,
} from '../../components/ui/ui.js';

/** Each event an endpoint may take, in words. */
const EVENTS: readonly (readonly [WebhookEvent, string])[] = [
  ['report.version.created', 'A report gets a new version (created, edited or by its schedule)'],
  ['report.sent', 'A report is sent'],
  ['schedule.run.finished', 'A scheduled run finishes'],
  ['comment.created', 'Someone comments on a report'],
  ['share.viewed', 'A public link is opened (at most once an hour per link)'],
];
const EVENT_SHORT: Record<WebhookEvent, string> = {
  'report.version.created': 'new version',
  'report.sent': 'sent',
  'schedule.run.finished': 'scheduled run',
  'comment.created': 'comment',
  'share.viewed': 'link opened',
};

type Format = Webhook['format'];
const FORMATS: readonly (readonly [Format, string])[] = [
  ['standard', 'Standard: signed JSON (Standard Webhooks)'],
  ['slack', 'Slack: an incoming-webhook message, unsigned'],
];

const DELIVERY_TEXT: Record<WebhookDelivery['status'], string> = {
  queued: 'Queued',
  delivering: 'Delivering',
  succeeded: 'Succeeded',
  failed: 'Failed',
};
const DELIVERY_TONE: Record<WebhookDelivery['status'], string> = {
  queued: 'pending',
  delivering: 'pending',
  succeeded: 'ok',
  failed: 'bad',
};

const DELIVERIES_PAGE = 20;

export function WebhookSettings({ workspace }: { workspace: Workspace }) {
  const hooks = useLoad(() => api.webhooks(workspace.id), [workspace.id]);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  return (
    <section aria-labelledby="webhooks-heading" className="card webhooks">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p className="hint">
        Chronicle POSTs what happens to this workspace&apos;s reports to these addresses (reports that cover this workspace alone). A failed
        delivery is tried again for 24 hours.
      </p>
      <Loaded state={hooks} what="webhooks">
        {(list) =>
          list.length === 0 ? (
            <p className="empty">No endpoints yet.</p>
          ) : (
            <ul className="list" aria-label="Endpoints">
              {list.map((hook) => (
                <WebhookItem
                  key={hook.id}
                  hook={hook}
                  onChanged={(changed) => {
                    hooks.set(list.map((h) => (h.id === changed.id ? changed : h)));
                  }}
                  onDeleted={() => {
                    hooks.set(list.filter((h) => h.id !== hook.id));
                    if (created?.id === hook.id) setCreated(null);
                  }}
                />
              ))}
            </ul>
          )
        }
      </Loaded>
      {created ? (
        <div className="once secret" role="status">
          <p>
            Signing secret of <span className="url">{created.url}</span>:
          </p>
          <p>
            <code>{created.secret}</code>
          </p>
          <p className="hint warning">
            It will not be shown again. Store it now where your receiver reads it; it verifies each delivery&apos;s
            <code> webhook-signature</code>.
          </p>
          <div className="row">
            <CopyButton text={created.secret} label="Copy secret" />
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setCreated(null);
              }}
            >
              I have stored it
            </button>
          </div>
        </div>
      ) : null}
      <AddWebhook
        workspace={workspace}
        onCreated={(hook) => {
          setCreated(hook);
          hooks.reload();
        }}
      />
    </section>
  );
}

function WebhookItem({ hook, onChanged, onDeleted }: { hook: Webhook; onChanged: (hook: Webhook) => void; onDeleted: () => void }) {
  const [showDeliveries, setShowDeliveries] = useState(false);
  const toggle = useAction(() => api.patchWebhook(hook.id, { active: !hook.active }));
  const remove = useAction(async () => {
    await api.deleteWebhook(hook.id);
    return true;
  });
  const deliveriesId = `deliveries-${hook.id}`;
  return (
    <li className="item webhook">
      <p className="url">{hook.url}</p>
      <p className="tags">
        <span className={`state ${hook.active ? 'ok' : 'none'}`}>{hook.active ? 'Active' : 'Paused'}</span>{' '}
        <span className="tag">{hook.format === 'slack' ? 'Slack' : 'Standard'}</span>
      </p>
      <p className="meta">Events: {hook.events.map((e) => EVENT_SHORT[e]).join(', ')}</p>
      <div className="row">
        <button
          type="button"
          className="secondary"
          disabled={toggle.busy}
          onClick={() =>
            void toggle.run().then((changed) => {
              if (changed) onChanged(changed);
            })
          }
        >
          {hook.active ? 'Pause' : 'Resume'}
          <span className="sr-only"> {hook.url}</span>
        </button>
        <button
          type="button"
          className="secondary"
          aria-expanded={showDeliveries}
          aria-controls={deliveriesId}
          onClick={() => {
            setShowDeliveries(!showDeliveries);
          }}
        >
          {showDeliveries ? 'Hide deliveries' : 'Deliveries'}
          <span className="sr-only"> of {hook.url}</span>
        </button>
        <ConfirmDelete
          busy={remove.busy}
          label={
            <>
              Delete<span className="sr-only"> {hook.url}</span>
            </>
          }
          confirmLabel="Really delete, with its deliveries"
          onConfirm={() =>
            void remove.run().then((done) => {
              if (done) onDeleted();
            })
          }
        />
      </div>
      <ErrorMessage error={toggle.error ?? remove.error} />
      <div id={deliveriesId}>{showDeliveries ? <Deliveries hook={hook} /> : null}</div>
    </li>
  );
}

function Deliveries({ hook }: { hook: Webhook }) {
  const [offset, setOffset] = useState(0);
  const deliveries = useLoad(() => api.webhookDeliveries(hook.id, { limit: DELIVERIES_PAGE, offset }), [hook.id, offset]);
  const headingId = `deliveries-heading-${hook.id}`;
  return (
    <section aria-labelledby={headingId} className="deliveries">
      <div className="title-row">
        <h3 id={headingId}>Deliveries</h3>
        <button type="button" className="secondary" onClick={deliveries.reload}>
          Refresh<span className="sr-only"> the deliveries</span>
        </button>
      </div>
      <Loaded state={deliveries} what="deliveries">
        {({ items, total }) =>
          items.length === 0 ? (
            <p>Nothing delivered yet.</p>
          ) : (
            <>
              <ul className="list" aria-labelledby={headingId}>
                {items.map((d) => (
                  <li key={d.id} className="item delivery">
                    <p>
                      <span className={`state ${DELIVERY_TONE[d.status]}`}>{DELIVERY_TEXT[d.status]}</span> <code>{d.eventType}</code>
                    </p>
                    <p className="meta">
                      <Time instant={d.createdAt} />
                      {d.responseStatus !== null ? ` · answered ${d.responseStatus}` : ' · no answer yet'}
                      {` · ${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}`}
                      {d.deliveredAt ? (
                        <>
                          {' '}
                          · delivered <Time instant={d.deliveredAt} />
                        </>
                      ) : null}
                      {d.status === 'queued' && d.nextAttemptAt ? (
                        <>
                          {' '}
                          · next attempt <Time instant={d.nextAttemptAt} />
                        </>
                      ) : null}
                    </p>
                    {d.error ? <p className="run-error">{d.error}</p> : null}
                  </li>
                ))}
              </ul>
              {total > DELIVERIES_PAGE ? <Pager offset={offset} total={total} pageSize={DELIVERIES_PAGE} onChange={setOffset} /> : null}
            </>
          )
        }
      </Loaded>
    </section>
  );
}

function AddWebhook({ workspace, onCreated }: { workspace: Workspace; onCreated: (hook: CreatedWebhook) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['report.sent']);
  const [format, setFormat] = useState<Format>('standard');
  const [noEvents, setNoEvents] = useState(false);
  const create = useAction(() =>
    api.createWebhook(workspace.id, {
      url: url.trim(),
      // In the order of the list, whatever the order they were ticked in.
      events: EVENTS.map(([e]) => e).filter((e) => events.includes(e)),
      format,
    }),
  );
  const submit = async () => {
    setNoEvents(events.length === 0);
    if (events.length === 0) return;
    const hook = await create.run();
    if (hook) {
      setUrl('');
      setEvents(['report.sent']);
      setFormat('standard');
      onCreated(hook);
    }
  };
  return (
    <>
      <h3 id="new-webhook-heading">Add an endpoint</h3>
      <Form onSubmit={submit} aria-labelledby="new-webhook-heading" className="stack">
        <InputField
          label="URL"
          hint="https only; an address on a private or local network is refused."
          type="url"
          required
          maxLength={2000}
          placeholder="https://hooks.example.com/chronicle"
          autoComplete="off"
          spellCheck={false}
          value={url}
          onChange={setUrl}
        />
        <CheckGroup
          legend="Events"
          items={EVENTS}
          chosen={events}
          onChange={(chosen) => {
            setEvents(chosen);
            setNoEvents(false);
          }}
        >
          {noEvents ? (
            <p className="field-error" role="alert">
              Choose at least one event.
            </p>
          ) : null}
        </CheckGroup>
        <RadioGroup legend="Format" name="webhook-format" value={format} onChange={setFormat} options={FORMATS} />
        <ErrorMessage error={create.error} />
        <div>
          <button type="submit" disabled={create.busy}>
            {create.busy ? 'Adding…' : 'Add endpoint'}
          </button>
        </div>
      </Form>
    </>
  );
}
