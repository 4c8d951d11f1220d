/**
 * The words of a recipient refusal (access.ts `explainRecipientRefusal`): with ids for a refused
 * request, in plain words for the owner reading a scheduled run's skipped recipients. The facts
 * behind them (who is a member, which projects they cannot read) are the API tests' business
 * (test/api/sending.test.ts, schedules.test.ts, mail.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/context.js';
import { explainRecipientRefusal } from '../../src/modules/access/access.js';
import type { RecipientStanding } from '../../src/repositories/sending.repository.js';

const OWNER = 'owner-id';
const owner = { user: { id: OWNER } } as unknown as Actor;
const report = { ownerUserId: OWNER, snapshotProjectIds: ['p1'], restrictsRecipients: true };
const studio = { id: 'w1', name: 'Studio' };
const agency = { id: 'w2', name: 'Agency' };

function standing(overrides: Partial<RecipientStanding> = {}): RecipientStanding {
  return { workspaces: [studio], memberships: new Map([['ana', new Set(['w1'])]]), unreadable: new Map(), ...overrides };
}

const people = (s: RecipientStanding, userId = 'ana', r = report) => explainRecipientRefusal(r, owner, userId, s, 'people');

describe('a refused recipient, in words for people', () => {
  it('names the workspaces someone is no longer a member of, without ids', () => {
    const none = { memberships: new Map<string, Set<string>>() };
    expect(people(standing(none))).toBe('is no longer a member of \u201cStudio\u201d');
    expect(people(standing({ ...none, workspaces: [studio, agency] }))).toBe(
      'is no longer a member of any of \u201cStudio\u201d and \u201cAgency\u201d',
    );
    expect(people(standing({ ...none, workspaces: [studio, agency, { id: 'w3', name: 'Lab' }] }))).toBe(
      'is no longer a member of any of \u201cStudio\u201d, \u201cAgency\u201d and \u201cLab\u201d',
    );
  });

  it('names the projects of the version someone can no longer see, and a deleted one as such', () => {
    const apollo = { id: 'p1', name: 'Apollo' };
    const zeus = { id: 'p2', name: 'Zeus' };
    expect(people(standing({ unreadable: new Map([['ana', [apollo]]]) }))).toBe(
      'can no longer see the project \u201cApollo\u201d in this version',
    );
    expect(people(standing({ unreadable: new Map([['ana', [apollo, zeus]]]) }))).toBe(
      'can no longer see the projects \u201cApollo\u201d and \u201cZeus\u201d in this version',
    );
    expect(people(standing({ unreadable: new Map([['ana', [apollo, { id: 'p3', name: null }]]]) }))).toBe(
      'can no longer see \u201cApollo\u201d and a deleted project in this version',
    );
  });

  it('says what the owner can do about themself and about a report from before recipient checks', () => {
    expect(people(standing(), OWNER)).toBe('owns this report: \u201cAlso send to me\u201d delivers it to them');
    expect(people(standing(), 'ana', { ...report, restrictsRecipients: null as unknown as boolean })).toBe(
      'could not be checked: the report must be edited once before it is sent again (it predates recipient checks)',
    );
    expect(people(standing())).toBe('may no longer receive this report');
  });

  it('keeps the ids in the words of a refused request', () => {
    expect(explainRecipientRefusal(report, owner, 'ana', standing({ memberships: new Map() }))).toBe(
      'is not a recipient candidate: not a member of workspace "Studio" (w1)',
    );
  });
});
