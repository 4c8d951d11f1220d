/**
 * One vocabulary for access: every rule of src/modules/access/access.ts has a row here, naming the
 * predicates of src/modules/access/predicates.ts that are its SQL half, or saying why it needs
 * none; and every predicate is the SQL half of some rule and is composed by some repository. A
 * rule added without a row, a row for a rule that is gone (both also fail the typecheck), and a
 * predicate that no rule or no statement uses all fail here. test/slow/access-matrix.test.ts checks
 * what the rules answer, route by route.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as access from '../../src/modules/access/access.js';
import * as predicates from '../../src/modules/access/predicates.js';

type Rule = keyof typeof access;
type Predicate = keyof typeof predicates;

/** The predicates a rule shares with the statements that check it, or why it has none. */
type SqlHalf = readonly [Predicate, ...Predicate[]] | { none: string };

const STANDING = ['isMemberOfAll', 'isAdminOfOnlyWorkspace'] as const;

const RULES: Record<Rule, SqlHalf> = {
  // Instance admins, users and tokens, templates.
  requireInstanceAdmin: { none: "the caller's own flag" },
  requireInstanceAdminFor: { none: "the caller's own flag and id" },
  requirePasswordLinkIssuer: { none: 'the caller and the credential they call with' },
  requireUserReader: { none: "the caller's own flag and id" },
  requireTokenIssuer: { none: "the caller's own flag and id" },
  requireScopesWithin: { none: "the calling token's scopes" },
  requireTemplateReader: { none: "the caller's flag and the template row in hand" },
  // Workspaces and projects.
  workspaceAccess: ['isWorkspaceMember'],
  requireWorkspaceAdmin: ['isWorkspaceAdmin'],
  requireWorkspaceOwner: { none: 'the role workspaceAccess loaded; no statement checks it' },
  requireRoleChange: { none: 'the roles already loaded; no statement checks it' },
  requireMemberRemover: ['isWorkspaceAdmin'],
  refuseLastOwner: { none: 'an invariant of the workspace, counted by the service, not a right of the caller' },
  projectAccess: ['isWorkspaceMember'],
  clientAccess: ['isWorkspaceMember'],
  // Rates.
  rateAccess: ['mayManageRates'],
  rendersMoney: ['maySeeRatesInAll'],
  // Time entries.
  requireProjectForEntry: ['mayAssignProject'],
  explainEntryRefusal: ['mayLogEntry'],
  explainBatchRefusals: ['mayLogEntry'],
  editableEntry: ['entryReadableBy', 'isWorkspaceAdmin'],
  // Reports, recipients and sending.
  readGrant: STANDING,
  reportReadGrant: STANDING,
  isActiveOwner: ['isMemberOfAll'],
  filterWorkspaceRefusals: ['isMemberOfAll'],
  mayDeleteReport: { none: 'the owner id of the report row in hand' },
  requireReportListAccess: ['isWorkspaceAdmin'],
  hidesListedTotal: ['isMemberOfAll'],
  explainRecipientRefusal: ['mayReceiveReport', 'projectReadableBy'],
  seesReadCounts: { none: 'the owner id of the report row in hand' },
  // Inbox, links, discussion and version history.
  ownDelivery: { none: "the delivery's statement matches its recipient column (inbox.repository.ts)" },
  discussionAccess: STANDING,
  requireDiscussionWriter: { none: "discussionAccess's answer" },
  requireHistoryReader: STANDING,
  requireVersionReader: STANDING,
  requireDiffReader: STANDING,
  // Webhooks.
  webhookAccess: ['isWorkspaceMember', 'isWorkspaceAdmin'],
  reportEventWorkspaces: { none: "the report row's workspaces in hand, as readGrant's single-workspace admin grant" },
};

const functionsOf = (module: object) =>
  Object.entries(module)
    .filter(([, value]) => typeof value === 'function')
    .map(([name]) => name)
    .sort();

describe('the access vocabulary', () => {
  it('has one row for every rule of access.ts', () => {
    expect(Object.keys(RULES).sort()).toEqual(functionsOf(access));
  });

  it('names only predicates that exist, and every predicate is the SQL half of a rule', () => {
    const named = new Set(Object.values(RULES).flatMap((half) => ('none' in half ? [] : half)));
    expect([...named].sort()).toEqual(functionsOf(predicates));
  });

  it('has every predicate composed by a statement, in a repository or through another predicate', () => {
    const src = resolve(import.meta.dirname, '../../src');
    const read = (file: string) => readFileSync(join(src, file), 'utf8');
    const repositories = readdirSync(join(src, 'repositories'))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => read(join('repositories', file)))
      .join('\n');
    const own = read('modules/access/predicates.ts');
    const calls = (source: string, name: string) => source.match(new RegExp(`\\b${name}(\\.parts)?\\(`, 'g'))?.length ?? 0;
    // In predicates.ts the declaration is one match; any other is a use by another predicate.
    const unused = functionsOf(predicates).filter((name) => calls(repositories, name) === 0 && calls(own, name) < 2);
    expect(unused).toEqual([]);
  });
});
