/**
 * Getting started: the steps from an empty instance to a report sent or shared, for instance
 * admins. Each step is ticked from what the API answers; the list goes away once every step is
 * done or when it is hidden, and this browser remembers either (localStorage, per user).
 */
import { useEffect, useState } from 'react';
import { api } from '../../lib/api.js';
import { useSession } from '../../lib/session.js';
import { Link } from '../../lib/router.js';
import { ErrorMessage, Loading, useLoad } from '../../components/ui/ui.js';

interface Step {
  label: string;
  hint: string;
  to: string;
  done: boolean;
}

/** How many of the newest reports are looked at for a send or a link. */
const REPORTS_CHECKED = 10;
/** How many projects are looked at for one with members. */
const PROJECTS_CHECKED = 50;

const storageKey = (userId: string) => `chronicle.onboarding.${userId}`;

function remembered(userId: string): boolean {
  try {
    return window.localStorage.getItem(storageKey(userId)) !== null;
  } catch {
    return false;
  }
}

function remember(userId: string, why: 'done' | 'hidden'): void {
  try {
    window.localStorage.setItem(storageKey(userId), why);
  } catch {
    // Storage refused (a private window): the checklist simply comes back next time.
  }
}

/** The first project (of the caller's workspaces) with a member, or the first project; null when there is none. */
async function projectProgress(workspaceIds: string[]): Promise<{ withMembers: boolean; to: string | null }> {
  const lists = await Promise.all(workspaceIds.map(async (id) => (await api.projects(id)).map((p) => ({ ...p, workspaceId: id }))));
  const projects = lists.flat().slice(0, PROJECTS_CHECKED);
  for (const p of projects) {
    if ((await api.projectMembers(p.id)).length > 0) return { withMembers: true, to: `/workspaces/${p.workspaceId}/projects/${p.id}` };
  }
  const first = projects[0];
  return { withMembers: false, to: first ? `/workspaces/${first.workspaceId}/projects/${first.id}` : null };
}

/** Whether one of the caller's newest reports was sent or has a public link. */
async function sentOrShared(reportIds: string[]): Promise<boolean> {
  for (const id of reportIds) {
    const [sends, shares] = await Promise.all([api.sends(id), api.reportShares(id)]);
    if (sends.length > 0 || shares.length > 0) return true;
  }
  return false;
}

async function loadSteps(): Promise<Step[]> {
  const [workspaces, users, entries, reports] = await Promise.all([
    api.workspaces(),
    api.users(),
    api.timeEntries({ limit: 1 }),
    api.reports({ limit: REPORTS_CHECKED }),
  ]);
  const [projects, shared] = await Promise.all([
    projectProgress(workspaces.map((w) => w.id)),
    sentOrShared(reports.items.map((r) => r.id)),
  ]);
  const firstWorkspace = workspaces[0];
  const newestReport = reports.items[0];
  return [
    {
      label: 'Create a workspace',
      hint: 'It holds the people, projects and time of one team or client.',
      to: '/workspaces',
      done: workspaces.length > 0,
    },
    {
      label: 'Add people',
      hint: 'In Settings → People: add each person, then give them their set-password link.',
      to: '/settings',
      done: users.length > 1,
    },
    {
      label: 'Add a project and its members',
      hint: 'In a workspace, add the people as members, create a project and put them on it.',
      to: projects.to ?? (firstWorkspace ? `/workspaces/${firstWorkspace.id}` : '/workspaces'),
      done: projects.withMembers,
    },
    {
      label: 'Log or import time',
      hint: 'Add an entry on the Time page, or import a Toggl Track or Clockify export under Import.',
      to: '/time',
      done: entries.total > 0,
    },
    {
      label: 'Make the first report',
      hint: 'Pick a template and a period; the preview shows the result before you save.',
      to: '/reports/new',
      done: reports.total > 0,
    },
    {
      label: 'Send or share it',
      hint: "Send it to teammates' inboxes, or make a public link for a client.",
      to: newestReport ? `/reports/${newestReport.id}` : '/reports',
      done: shared,
    },
  ];
}

/** The checklist, for instance admins who have neither finished nor hidden it in this browser. */
export function OnboardingChecklist() {
  const { me } = useSession();
  const [gone, setGone] = useState(() => !me.instanceAdmin || remembered(me.id));
  if (gone) return null;
  return (
    <Checklist
      onGone={(why) => {
        remember(me.id, why);
        setGone(true);
      }}
    />
  );
}

function Checklist({ onGone }: { onGone: (why: 'done' | 'hidden') => void }) {
  const steps = useLoad(() => loadSteps(), []);
  const data = steps.data;
  const doneCount = data?.filter((s) => s.done).length ?? 0;
  const allDone = data !== undefined && doneCount === data.length;
  useEffect(() => {
    // Everything is done: nothing to show, now or next time.
    if (allDone) onGone('done');
  }, [allDone, onGone]);
  if (allDone) return null;
  return (
    <section aria-labelledby="onboarding-heading" className="card checklist">
      <div className="title-row">
        <h2 id="onboarding-heading">Getting started</h2>
        <button
          type="button"
          className="link"
          onClick={() => {
            onGone('hidden');
          }}
        >
          Hide this checklist
        </button>
      </div>
      {steps.error ? <ErrorMessage error={steps.error} /> : null}
      {!data ? (
        steps.error ? null : (
          <Loading what="your progress" />
        )
      ) : (
        <>
          <p className="meta">
            {doneCount} of {data.length} done. Each step is ticked once Chronicle holds it.
          </p>
          <ol className="steps">
            {data.map((s) => (
              <li key={s.label} className={s.done ? 'step done' : 'step'}>
                <span className="step-mark" aria-hidden="true">
                  {s.done ? '✓' : ''}
                </span>
                <div>
                  <p>
                    <span className="sr-only">{s.done ? 'Done: ' : 'To do: '}</span>
                    <Link to={s.to}>{s.label}</Link>
                  </p>
                  <p className="hint">{s.hint}</p>
                </div>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
