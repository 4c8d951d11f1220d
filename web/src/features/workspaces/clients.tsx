/**
 * A workspace's clients (docs/api.md "Clients"): every member reads them; workspace admins add,
 * rename, archive, unarchive and delete them. A name the workspace already has, in any case, is
 * the server's 409, shown beside the form that sent it.
 */
import { useState } from 'react';
import { api, type Client, type Workspace } from '../../lib/api.js';
import { ConfirmDelete, ErrorMessage, Form, InputField, Status, useAction } from '../../components/ui/ui.js';
import { isWorkspaceAdmin } from './roles.js';

/** The most characters a client's name may have. */
const MAX_NAME = 100;

/** Active clients by name, then the archived ones by name. */
export function sortClients(clients: readonly Client[]): Client[] {
  return [...clients].sort((a, b) => Number(a.archived) - Number(b.archived) || a.name.localeCompare(b.name));
}

export function Clients({
  workspace,
  clients,
  onChange,
}: {
  workspace: Workspace;
  clients: Client[];
  /** The workspace's clients after a change. */
  onChange: (clients: Client[]) => void;
}) {
  const admin = isWorkspaceAdmin(workspace.role);
  const [status, setStatus] = useState('');
  const replace = (changed: Client) => {
    onChange(clients.map((c) => (c.id === changed.id ? changed : c)));
  };
  return (
    <section aria-labelledby="clients-heading" className="card">
      <h2 id="clients-heading">Clients</h2>
      <p className="hint">Whom this workspace's projects are for.{admin ? " Give each project its client on the project's page." : ''}</p>
      {clients.length === 0 ? (
        <p className="empty">
          No clients yet. {admin ? 'Add the first one below, then choose it on each of its projects.' : 'A workspace admin adds them.'}
        </p>
      ) : (
        <ul className="list" aria-label="Clients">
          {sortClients(clients).map((c) => (
            <ClientRow
              key={c.id}
              client={c}
              admin={admin}
              onChanged={(changed, said) => {
                replace(changed);
                setStatus(said);
              }}
              onDeleted={() => {
                onChange(clients.filter((x) => x.id !== c.id));
                setStatus(`Deleted ${c.name}; its projects no longer have a client.`);
              }}
            />
          ))}
        </ul>
      )}
      {status ? <Status>{status}</Status> : null}
      {admin ? (
        <AddClient
          workspace={workspace}
          onTyping={() => {
            setStatus('');
          }}
          onAdded={(client) => {
            onChange([client, ...clients]);
            setStatus(`Added ${client.name}.`);
          }}
        />
      ) : null}
    </section>
  );
}

function ClientRow({
  client,
  admin,
  onChanged,
  onDeleted,
}: {
  client: Client;
  admin: boolean;
  onChanged: (client: Client, said: string) => void;
  onDeleted: () => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const archive = useAction(() => api.patchClient(client.id, { archived: !client.archived }));
  const remove = useAction(async () => {
    await api.deleteClient(client.id);
    return true;
  });
  return (
    <li className="item">
      {renaming ? (
        <RenameClient
          client={client}
          onDone={(renamed) => {
            setRenaming(false);
            if (renamed) onChanged(renamed, `Renamed ${client.name} to ${renamed.name}.`);
          }}
        />
      ) : (
        <div className="title-row">
          <p>
            <span className="client-name">{client.name}</span> {client.archived ? <span className="tag">Archived</span> : null}
          </p>
          {admin ? (
            <div className="row">
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setRenaming(true);
                }}
              >
                Rename<span className="sr-only"> {client.name}</span>
              </button>
              <button
                type="button"
                className="secondary"
                disabled={archive.busy}
                onClick={() =>
                  void archive.run().then((changed) => {
                    if (changed) onChanged(changed, `${changed.name} is ${changed.archived ? 'archived' : 'active again'}.`);
                  })
                }
              >
                {client.archived ? 'Unarchive' : 'Archive'}
                <span className="sr-only"> {client.name}</span>
              </button>
              <ConfirmDelete
                busy={remove.busy}
                label={
                  <>
                    Delete<span className="sr-only"> {client.name}</span>
                  </>
                }
                confirmLabel={`Really delete ${client.name}`}
                onConfirm={() =>
                  void remove.run().then((done) => {
                    if (done) onDeleted();
                  })
                }
              />
            </div>
          ) : null}
        </div>
      )}
      <ErrorMessage error={archive.error ?? remove.error} />
    </li>
  );
}

function RenameClient({ client, onDone }: { client: Client; onDone: (renamed: Client | null) => void }) {
  const [name, setName] = useState(client.name);
  const rename = useAction(() => api.patchClient(client.id, { name: name.trim() }));
  const submit = async () => {
    if (name.trim() === client.name) {
      onDone(null);
      return;
    }
    const renamed = await rename.run();
    if (renamed) onDone(renamed);
  };
  return (
    <Form onSubmit={submit} aria-label={`Rename ${client.name}`} className="inline-form">
      <InputField
        label={`New name for ${client.name}`}
        maxLength={MAX_NAME}
        value={name}
        invalidMessage={name.trim() === '' ? 'Give the client a name.' : undefined}
        onChange={(value) => {
          setName(value);
          rename.clear();
        }}
        autoFocus
      />
      <button type="submit" disabled={rename.busy}>
        {rename.busy ? 'Saving…' : 'Save name'}
      </button>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          onDone(null);
        }}
      >
        Cancel
      </button>
      <div className="form-feedback">
        <ErrorMessage error={rename.error} />
      </div>
    </Form>
  );
}

function AddClient({
  workspace,
  onTyping,
  onAdded,
}: {
  workspace: Workspace;
  /** The name changed: what the section said last is no longer news. */
  onTyping: () => void;
  onAdded: (client: Client) => void;
}) {
  const [name, setName] = useState('');
  const add = useAction(() => api.createClient(workspace.id, name.trim()));
  const submit = async () => {
    const client = await add.run();
    if (client) {
      setName('');
      onAdded(client);
    }
  };
  return (
    <>
      <h3 id="add-client-heading">Add a client</h3>
      <Form onSubmit={submit} aria-labelledby="add-client-heading" className="inline-form">
        <InputField
          label="Client name"
          maxLength={MAX_NAME}
          value={name}
          invalidMessage={name.trim() === '' ? 'Give the client a name.' : undefined}
          onChange={(value) => {
            setName(value);
            add.clear();
            onTyping();
          }}
        />
        <button type="submit" disabled={add.busy}>
          {add.busy ? 'Adding…' : 'Add client'}
        </button>
        <div className="form-feedback">
          <ErrorMessage error={add.error} />
        </div>
      </Form>
    </>
  );
}
