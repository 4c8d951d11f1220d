/**
 * The OpenAPI identity of every route: a stable camelCase operationId, a summary, and a description
 * saying who may call it, what a 404 hides and its limits (docs/api.md holds the full rules).
 * Keyed by "METHOD url" as Fastify registers it; app.ts copies these into each route's schema, and
 * test/openapi.test.ts fails on any route left without one.
 */
export interface OperationDoc {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
}

const NOT_MEMBER = 'A workspace the caller is not a member of answers 404, as if it did not exist.';
const REPORT_404 = 'A report the caller may not read answers 404, as if it did not exist.';
const OWNER_ONLY =
  'Owner only (still a member of every filtered workspace); anyone else gets 404 when they cannot read the report, 403 when they can.';

export const OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  'GET /healthz': { operationId: 'getLiveness', summary: 'Liveness probe', description: 'Public. 200 while the process is up.' },
  'GET /readyz': {
    operationId: 'getReadiness',
    summary: 'Readiness probe',
    description:
      'Public. 200 `ready` when the database answers and the event loop keeps up; 503 `database unavailable`, or 503 ' +
      '`overloaded` with Retry-After while new requests are refused (OVERLOAD_EVENT_LOOP_DELAY_MS).',
  },

  'POST /api/v1/users': {
    operationId: 'createUser',
    summary: 'Create a user',
    description: 'Instance admins only (403 otherwise). A duplicate e-mail is 409.',
  },
  'GET /api/v1/users': { operationId: 'listUsers', summary: 'List users', description: 'Instance admins only (403 otherwise).' },
  'GET /api/v1/users/:id': {
    operationId: 'getUser',
    summary: 'Read a user',
    description: 'Instance admins read anyone; anyone else reads only themself, and another user answers 404.',
  },
  'PATCH /api/v1/users/:id': {
    operationId: 'updateUser',
    summary: 'Edit a user',
    description: 'Instance admins only. A duplicate e-mail is 409; demoting the last admin is 409.',
  },
  'DELETE /api/v1/users/:id': {
    operationId: 'deleteUser',
    summary: 'Delete a user',
    description: 'Instance admins only. Deleting the last owner of a workspace or the last admin is 409.',
  },
  'GET /api/v1/me': { operationId: 'getMe', summary: 'Read the caller', description: 'Any authenticated caller.' },
  'PATCH /api/v1/me': {
    operationId: 'updateMe',
    summary: 'Edit the caller',
    description: 'Any authenticated caller with a write token; changes their own name and time zone.',
  },
  'POST /api/v1/users/:id/tokens': {
    operationId: 'createToken',
    summary: 'Create an API token',
    description: 'An instance admin for anyone, a user for themself (another user answers 404). The secret is returned once.',
  },
  'GET /api/v1/me/tokens': {
    operationId: 'listMyTokens',
    summary: "List the caller's tokens",
    description: 'Any authenticated caller; secrets are never returned.',
  },
  'DELETE /api/v1/me/tokens/:id': {
    operationId: 'revokeMyToken',
    summary: "Revoke one of the caller's tokens",
    description: "Any authenticated caller; another user's token answers 404.",
  },

  'POST /api/v1/workspaces': {
    operationId: 'createWorkspace',
    summary: 'Create a workspace',
    description: 'Any authenticated caller with a write token; the caller becomes its owner.',
  },
  'GET /api/v1/workspaces': {
    operationId: 'listWorkspaces',
    summary: "List the caller's workspaces",
    description: 'Workspaces the caller is a member of (all of them for instance admins).',
  },
  'GET /api/v1/workspaces/:id': { operationId: 'getWorkspace', summary: 'Read a workspace', description: `Members. ${NOT_MEMBER}` },
  'PATCH /api/v1/workspaces/:id': {
    operationId: 'updateWorkspace',
    summary: 'Rename a workspace',
    description: `Workspace admins and owners (403 for members). ${NOT_MEMBER}`,
  },
  'GET /api/v1/workspaces/:id/members': {
    operationId: 'listWorkspaceMembers',
    summary: 'List workspace members',
    description: `Members. ${NOT_MEMBER}`,
  },
  'PUT /api/v1/workspaces/:id/members/:userId': {
    operationId: 'putWorkspaceMember',
    summary: 'Add a member or change their role',
    description: `Workspace admins; only owners grant, change or take the owner role (403). A workspace always keeps an owner (409). ${NOT_MEMBER}`,
  },
  'DELETE /api/v1/workspaces/:id/members/:userId': {
    operationId: 'removeWorkspaceMember',
    summary: 'Remove a member',
    description: `Anyone may leave; removing someone else needs a workspace admin, an owner needs an owner. Removing the last owner is 409. ${NOT_MEMBER}`,
  },
  'POST /api/v1/workspaces/:id/projects': {
    operationId: 'createProject',
    summary: 'Create a project',
    description: `Workspace admins (403 for members). ${NOT_MEMBER}`,
  },
  'GET /api/v1/workspaces/:id/projects': {
    operationId: 'listProjects',
    summary: 'List projects',
    description: `Members; each project says whether the caller is a member. ${NOT_MEMBER}`,
  },
  'GET /api/v1/projects/:id/members': {
    operationId: 'listProjectMembers',
    summary: 'List project members',
    description: "Members of the project's workspace; a project in a workspace the caller is not a member of answers 404.",
  },
  'PUT /api/v1/projects/:id/members/:userId': {
    operationId: 'addProjectMember',
    summary: 'Add a project member',
    description: 'Workspace admins; the user must be a member of the workspace (400). Non-members of the workspace get 404.',
  },
  'DELETE /api/v1/projects/:id/members/:userId': {
    operationId: 'removeProjectMember',
    summary: 'Remove a project member',
    description: 'Workspace admins. Non-members of the workspace get 404.',
  },

  'POST /api/v1/time-entries': {
    operationId: 'createTimeEntry',
    summary: 'Record time',
    description:
      'Members of the workspace, for themselves; for someone else a workspace admin. The project must belong to the workspace (400).',
  },
  'GET /api/v1/time-entries': {
    operationId: 'listTimeEntries',
    summary: 'List time entries',
    description:
      "Entries the caller may read: their own, their projects' and, for workspace admins, all of the workspace. The total is in X-Total-Count.",
  },
  'PATCH /api/v1/time-entries/:id': {
    operationId: 'updateTimeEntry',
    summary: 'Edit a time entry',
    description: "The entry's user or a workspace admin (403); an entry the caller cannot read answers 404.",
  },
  'DELETE /api/v1/time-entries/:id': {
    operationId: 'deleteTimeEntry',
    summary: 'Delete a time entry',
    description: "The entry's user or a workspace admin (403); an entry the caller cannot read answers 404.",
  },

  'GET /api/v1/templates': {
    operationId: 'listTemplates',
    summary: 'List templates',
    description: 'Any authenticated caller sees enabled templates; instance admins also see disabled ones.',
  },
  'POST /api/v1/templates': { operationId: 'createTemplate', summary: 'Create a template', description: 'Instance admins only (403).' },
  'POST /api/v1/templates/preview': {
    operationId: 'previewTemplate',
    summary: 'Preview an unsaved template',
    description:
      'Renders a Liquid body (and its name and note templates) that is not stored, against filters, as POST /reports/preview renders a stored template: for editing a template before saving it. Instance admins only (403); read scope; stores nothing. The filters follow the report rules (workspaces the caller belongs to, their projects, a range of at most 366 days) and the render limits (429/503 with Retry-After). A Liquid syntax error is a 400 at /body, /nameTemplate or /noteTemplate naming the line and column; an error while rendering is a 400 at /body.',
  },
  'GET /api/v1/templates/:id': {
    operationId: 'getTemplate',
    summary: 'Read a template',
    description: 'A disabled template answers 404 to anyone but instance admins.',
  },
  'PATCH /api/v1/templates/:id': {
    operationId: 'updateTemplate',
    summary: 'Edit a template',
    description: 'Instance admins only (403). Built-in templates may only be enabled or disabled.',
  },
  'DELETE /api/v1/templates/:id': {
    operationId: 'deleteTemplate',
    summary: 'Delete a template',
    description: 'Instance admins only (403); a template used by reports is 409.',
  },

  'GET /api/v1/reports': {
    operationId: 'listReports',
    summary: 'List reports',
    description:
      "The caller's own reports; ownerUserId (instance admins) or workspaceId (that workspace's admins) list others. limit 1-200 and offset page; the total is in X-Total-Count.",
  },
  'POST /api/v1/reports': {
    operationId: 'createReport',
    summary: 'Create a report',
    description:
      'Any member of every filtered workspace (1-20 workspaces, up to 50 projects and users, a date range of at most 366 days). A workspace the caller is not a member of answers 404.',
  },
  'GET /api/v1/reports/template-ids': {
    operationId: 'listReportTemplateIds',
    summary: 'Template ids in use',
    description: "The template ids of the caller's reports.",
  },
  'POST /api/v1/reports/preview': {
    operationId: 'previewReport',
    summary: 'Preview a report',
    description: 'Renders what POST /reports would freeze, without storing it. Same access and limits as createReport.',
  },
  'GET /api/v1/reports/:id': {
    operationId: 'getReport',
    summary: 'Read a report',
    description: `The owner, instance admins, and admins of the report's workspaces. ${REPORT_404}`,
  },
  'PATCH /api/v1/reports/:id': {
    operationId: 'updateReport',
    summary: 'Edit a report (full replacement)',
    description: `A full replacement: every field is sent, and an absent note clears it. Each valid edit makes a new version; If-Match with a stale version is 412. ${OWNER_ONLY}`,
  },
  'DELETE /api/v1/reports/:id': {
    operationId: 'deleteReport',
    summary: 'Delete a report',
    description: `The owner, even after leaving a workspace. ${REPORT_404}`,
  },
  'GET /api/v1/reports/:id/recipients': {
    operationId: 'listReportRecipients',
    summary: 'Recipient candidates',
    description: `Who may receive the current version, and why others may not. ${OWNER_ONLY}`,
  },
  'POST /api/v1/reports/:id/send': {
    operationId: 'sendReport',
    summary: 'Send a report',
    description: `Puts the current version in each recipient's inbox; a refused recipient is 400 naming why (see listReportRecipients). ${OWNER_ONLY}`,
  },
  'GET /api/v1/reports/:id/sends': {
    operationId: 'listReportSends',
    summary: 'Send history',
    description: `Readers of the report. ${REPORT_404}`,
  },

  'GET /api/v1/inbox': { operationId: 'listInbox', summary: 'List the inbox', description: "The caller's received reports, newest first." },
  'GET /api/v1/inbox/:id': {
    operationId: 'getInboxMessage',
    summary: 'Read an inbox message',
    description: "The recipient only; anyone else's message answers 404.",
  },
  'POST /api/v1/inbox/:id/read': {
    operationId: 'markInboxMessageRead',
    summary: 'Mark a message read',
    description: "The recipient only; anyone else's message answers 404.",
  },

  'POST /api/v1/reports/:id/shares': {
    operationId: 'createReportShare',
    summary: 'Mint a share link for a report',
    description: `An empty body gives a link without passcode or expiry. ${OWNER_ONLY}`,
  },
  'GET /api/v1/reports/:id/shares': {
    operationId: 'listReportShares',
    summary: "List a report's share links",
    description: `Readers of the report, newest first. ${REPORT_404}`,
  },
  'POST /api/v1/inbox/:id/shares': {
    operationId: 'createInboxShare',
    summary: 'Mint a share link for a received report',
    description: "The recipient only; anyone else's message answers 404.",
  },
  'GET /api/v1/inbox/:id/shares': {
    operationId: 'listInboxShares',
    summary: "List a received report's share links",
    description: "The recipient only; anyone else's message answers 404.",
  },
  'POST /api/v1/report-shares/:id/revoke': {
    operationId: 'revokeShare',
    summary: 'Revoke a share link',
    description: 'Whoever minted the link (or may read the report it shares); a link the caller cannot see answers 404.',
  },

  'GET /api/v1/report-contents/:id/discussion': {
    operationId: 'getDiscussion',
    summary: 'Read a discussion',
    description:
      'Participants (the owner and everyone the version was sent to) and readers of the report; a version the caller cannot read answers 404.',
  },
  'POST /api/v1/report-contents/:id/comments': {
    operationId: 'createComment',
    summary: 'Comment on a report version',
    description: 'Participants only (403 for readers who are not). A version the caller cannot read answers 404.',
  },
  'PATCH /api/v1/report-contents/:id/comments/:commentId': {
    operationId: 'updateComment',
    summary: 'Edit a comment',
    description: 'Its author only (403). A deleted comment is 409; a version the caller cannot read answers 404.',
  },
  'DELETE /api/v1/report-contents/:id/comments/:commentId': {
    operationId: 'deleteComment',
    summary: 'Delete a comment',
    description: 'Its author only (403). A version the caller cannot read answers 404.',
  },
  'PUT /api/v1/report-contents/:id/reactions': {
    operationId: 'toggleReportReaction',
    summary: 'React to a report version',
    description: "Participants only (403); toggles the caller's reaction. A version the caller cannot read answers 404.",
  },
  'PUT /api/v1/report-contents/:id/comments/:commentId/reactions': {
    operationId: 'toggleCommentReaction',
    summary: 'React to a comment',
    description: "Participants only (403); toggles the caller's reaction. A version the caller cannot read answers 404.",
  },

  'GET /share/:token': {
    operationId: 'viewShare',
    summary: 'Open a share link',
    description: 'Public. The shared report as HTML, or the passcode prompt. An unknown, revoked or expired link answers 404.',
  },
  'POST /share/:token': {
    operationId: 'unlockShare',
    summary: 'Unlock a passcode link',
    description:
      'Public. Form field `passcode` (application/x-www-form-urlencoded). A wrong passcode is 401; too many attempts are 429 with Retry-After. An unknown link answers 404.',
  },
};
