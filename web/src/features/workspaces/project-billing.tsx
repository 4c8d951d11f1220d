/**
 * A project's money (docs/api.md "Workspaces and projects", "Rates"): its client and whether new
 * entries on it are billable by default, which workspace admins change and members read; and,
 * for admins only, the project rate and the rates of the people who log time on it.
 */
import { useState } from 'react';
import { api, type Client, type Member, type ProjectListItem, type ProjectMember, type Workspace } from '../../lib/api.js';
import { Link } from '../../lib/router.js';
import { CheckField, ErrorMessage, Form, SelectField, Status, useAction } from '../../components/ui/ui.js';
import { isWorkspaceAdmin } from './roles.js';
import { sortClients } from './clients.js';
import { MemberRates, RateLevelPanel } from './rates.js';

interface ProjectBillingProps {
  workspace: Workspace;
  project: ProjectListItem;
  clients: Client[];
  onSaved: (project: ProjectListItem) => void;
}

export function ProjectBilling({ workspace, project, clients, onSaved }: ProjectBillingProps) {
  const client = clients.find((c) => c.id === project.clientId) ?? null;
  return (
    <section aria-labelledby="project-billing-heading" className="card">
      <h2 id="project-billing-heading">Client and billing</h2>
      {isWorkspaceAdmin(workspace.role) ? (
        <ProjectBillingForm workspace={workspace} project={project} clients={clients} onSaved={onSaved} />
      ) : (
        <dl className="facts">
          <div>
            <dt>Client</dt>
            <dd>{client ? `${client.name}${client.archived ? ' (archived)' : ''}` : 'None'}</dd>
          </div>
          <div>
            <dt>New entries</dt>
            <dd>{project.billableByDefault ? 'Billable by default' : 'Not billable by default'}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}

function ProjectBillingForm({ workspace, project, clients, onSaved }: ProjectBillingProps) {
  const [clientId, setClientId] = useState(project.clientId ?? '');
  const [billable, setBillable] = useState(project.billableByDefault);
  const [saved, setSaved] = useState(false);
  const save = useAction(() => api.patchProject(project.id, { clientId: clientId || null, billableByDefault: billable }));
  // Archived clients are set aside: offered only when the project already has one.
  const offered = sortClients(clients).filter((c) => !c.archived || c.id === project.clientId);
  const unchanged = (clientId || null) === project.clientId && billable === project.billableByDefault;
  const submit = async () => {
    setSaved(false);
    const changed = await save.run();
    if (changed) {
      onSaved({ ...project, ...changed });
      setSaved(true);
    }
  };
  return (
    <Form onSubmit={submit} aria-labelledby="project-billing-heading">
      <div className="inline-form short-fields">
        <SelectField
          label="Client"
          value={clientId}
          onChange={(value) => {
            setClientId(value);
            setSaved(false);
          }}
          options={[['', 'No client'], ...offered.map((c) => [c.id, c.archived ? `${c.name} (archived)` : c.name] as const)]}
        />
      </div>
      {clients.length === 0 ? (
        <p className="hint">
          {workspace.name} has no clients yet. <Link to={`/workspaces/${workspace.id}`}>Add them on the workspace's page</Link>, then choose
          one here.
        </p>
      ) : null}
      <CheckField
        checked={billable}
        onChange={(value) => {
          setBillable(value);
          setSaved(false);
        }}
      >
        New entries on this project are billable
      </CheckField>
      <p className="hint">Whoever logs an entry can still change it; entries already logged keep their own setting.</p>
      <div className="row form-actions">
        <button type="submit" disabled={save.busy || unchanged}>
          {save.busy ? 'Saving…' : 'Save client and billing'}
        </button>
      </div>
      <ErrorMessage error={save.error} />
      {saved ? <Status>Saved.</Status> : null}
    </Form>
  );
}

/**
 * The project rate and the rates of the people who may log time on the project (its members and
 * the workspace's admins and owners), for workspace admins only.
 */
export function ProjectRates({
  workspace,
  projectId,
  projectMembers,
  workspaceMembers,
}: {
  workspace: Workspace;
  projectId: string;
  projectMembers: ProjectMember[];
  workspaceMembers: Member[];
}) {
  const onProject = new Set(projectMembers.map((m) => m.userId));
  const people = workspaceMembers
    .filter((m) => onProject.has(m.userId) || isWorkspaceAdmin(m.role))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section aria-labelledby="project-rates-heading" className="card">
      <h2 id="project-rates-heading">Rates</h2>
      <p className="hint">
        Rates on this project come before the workspace's: a person's rate here first, then the project rate. Only workspace admins and
        owners see and set them.
      </p>
      <RateLevelPanel
        level={{ kind: 'project', projectId }}
        currency={workspace.currency}
        title="Project rate"
        empty="No project rate yet: entries on it take their person's rate in the workspace, or the workspace rate. Set one below to bill this project differently."
      />
      <section aria-labelledby="project-member-rates-heading" className="rate-level">
        <h3 id="project-member-rates-heading">Member rates on this project</h3>
        <MemberRates
          people={people}
          levelOf={(userId) => ({ kind: 'projectMember', projectId, userId })}
          currency={workspace.currency}
          empty={(name) => `${name} has no rate of their own on this project: the project rate applies, or else the workspace's rates.`}
        />
      </section>
    </section>
  );
}
