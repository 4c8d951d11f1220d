/**
 * planImport's clients (docs/cli.md "Clients and billable"): a project that exists keeps its
 * client, a created one gets the file's, found by name ignoring case or created. The directory is
 * plain data here; test/slow/cli.test.ts runs the same against a server.
 */
import { describe, expect, it } from 'vitest';
import { ImportRefusedError, planImport, type ImportDirectory } from '../../packages/import/src/plan.js';
import { readExport } from '../../packages/import/src/read-export.js';

const header = 'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount ()';
const row = (client: string, project: string, email = 'o@x.io') => `O,${email},${client},${project},,x,Yes,2026-03-02,09:00,,,00:30:00,,`;

const directory = (role: 'owner' | 'member' = 'owner'): ImportDirectory => ({
  callerId: 'u1',
  members: [{ userId: 'u1', email: 'o@x.io', role }],
  projects: [
    { id: 'p-web', name: 'Website', clientId: 'c-acme' },
    { id: 'p-int', name: 'Internal', clientId: null },
  ],
  clients: [
    { id: 'c-acme', name: 'Acme' },
    { id: 'c-north', name: 'Northwind' },
  ],
  projectMembers: () => Promise.resolve([]),
});

const plan = (lines: string[], role?: 'owner' | 'member') =>
  planImport(readExport([header, ...lines].join('\n'), 'toggl', { timezone: 'UTC' }), directory(role), {
    createProjects: true,
    createProjectsHint: '--create-projects',
  });

describe('planImport: clients', () => {
  it('gives a created project its client, found by name ignoring case or created once', async () => {
    const p = await plan([
      row('northwind', 'Audit'),
      row('Globex', 'Mobile'),
      row('', 'Mobile'),
      row('GLOBEX', 'Kiosk'),
      row('', 'Chores'),
      row('Initech', ''),
    ]);
    expect(p.toCreate).toEqual([
      { name: 'Audit', client: { id: 'c-north', name: 'Northwind' } },
      { name: 'Mobile', client: { create: 'Globex' } },
      { name: 'Kiosk', client: { create: 'Globex' } },
      { name: 'Chores', client: null },
    ]);
    expect(p.clientsToCreate).toEqual(['Globex']);
    expect(p.warnings).toEqual([]);
    expect(p.failed).toEqual([]);
  });

  it("keeps an existing project's client, warning once per project and client named", async () => {
    const p = await plan([
      row('acme', 'Website'),
      row('Globex', 'website'),
      row('Globex', 'Website'),
      row('Acme', 'Internal'),
      row('', 'Internal'),
    ]);
    expect(p.toCreate).toEqual([]);
    expect(p.clientsToCreate).toEqual([]);
    expect(p.toSend).toHaveLength(5);
    expect(p.warnings).toEqual([
      {
        line: 3,
        column: 'Client',
        message:
          'project "Website" exists with client "Acme"; an import never changes a project\'s client, so "Globex" is not applied (noted on the first such row only)',
      },
      {
        line: 5,
        column: 'Client',
        message:
          'project "Internal" exists without a client; an import never changes a project\'s client, so "Acme" is not applied (noted on the first such row only)',
      },
    ]);
  });

  it('takes the first client named for a created project, warning about another', async () => {
    const p = await plan([row('', 'Mobile'), row('Globex', 'Mobile'), row('Acme', 'Mobile')]);
    expect(p.toCreate).toEqual([{ name: 'Mobile', client: { create: 'Globex' } }]);
    expect(p.clientsToCreate).toEqual(['Globex']);
    expect(p.warnings.map((w) => [w.line, w.message])).toEqual([
      [4, 'project "Mobile" is created with client "Globex", named first; "Acme" is not applied (noted on the first such row only)'],
    ]);
  });

  it('refuses a client name too long for a created project, and creating clients without the right', async () => {
    const long = await plan([row('c'.repeat(101), 'Mobile'), row('c'.repeat(101), 'Website')]);
    expect(long.failed).toEqual([{ line: 2, column: 'Client', message: 'is over 100 characters, too long for a client name' }]);
    expect(long.toSend.map((s) => s.row.line)).toEqual([3]);
    await expect(plan([row('Globex', 'Mobile')], 'member')).rejects.toThrow(ImportRefusedError);
    await expect(plan([row('Globex', 'Mobile')], 'member')).rejects.toThrow('Only a workspace admin or owner may create projects');
  });
});
