/**
 * The web app's only way to the server: Chronicle's typed client (packages/client, generated from
 * the OpenAPI document), with the session cookie (same origin) as credentials. Every call below is
 * checked against the API's paths, parameters and bodies; the screens use these names and types
 * and never build a URL themselves.
 */
import { ChronicleError, createChronicleClient, unwrap, type components, type paths } from '../../../packages/client/src/index.js';
import { sendImport, type ImportPlan, type SendOptions } from '../../../packages/import/src/plan.js';
import { loadRateBook, type RateBookOptions } from '../../../packages/import/src/rate-book.js';

export { ChronicleError };

type Schemas = components['schemas'];
/** The files `GET /report-contents/{id}/export` makes. */
export type ExportFormat = NonNullable<paths['/api/v1/report-contents/{id}/export']['get']['parameters']['query']>['format'];
export type SignedIn = Schemas['SignedIn'];
export type Session = Schemas['Session'];
export type PasswordLink = Schemas['PasswordLink'];
export type User = Schemas['User'];
export type Token = Schemas['Token'];
export type CreatedToken = Schemas['CreatedToken'];
export type Workspace = Schemas['Workspace'];
export type Member = Schemas['WorkspaceMember'];
export type WorkspaceRole = Schemas['WorkspaceRole'];
export type ProjectMember = Schemas['ProjectMember'];
export type ProjectListItem = Schemas['ProjectListItem'];
export type Project = Schemas['Project'];
export type Client = Schemas['Client'];
export type Rate = Schemas['Rate'];
export type RatesVisibleTo = Schemas['RatesVisibleTo'];
export type WorkspaceBranding = Schemas['WorkspaceBranding'];
export type TimeEntry = Schemas['TimeEntry'];
export type Template = Schemas['Template'];
export type Report = Schemas['Report'];
export type ReportSummary = Schemas['ReportSummary'];
export type ReportBody = Schemas['ReportBody'];
export type Preview = Schemas['ReportPreview'];
export type FiltersInput = Schemas['FiltersInput'];
export type ReportOptions = Schemas['ReportOptions'];
export type Rounding = Schemas['Rounding'];
export type RecipientCandidate = Schemas['RecipientCandidate'];
export type SendHistoryEntry = Schemas['SendHistoryEntry'];
export type InboxMessage = Schemas['InboxMessage'];
export type InboxMessageWithContent = Schemas['InboxMessageWithContent'];
export type Share = Schemas['Share'];
export type Comment = Schemas['Comment'];
export type ReactionSummary = Schemas['ReactionSummary'];
export type ReactionKey = Schemas['ReactionKey'];
export type Discussion = Schemas['Discussion'];
export type Version = Schemas['ReportVersion'];
export type ReportContent = Schemas['ReportContent'];
export type VersionDiff = Schemas['VersionDiff'];
export type GroupChange = Schemas['GroupChange'];
export type Schedule = Schemas['Schedule'];
export type ScheduleBody = Schemas['ScheduleBody'];
export type ScheduleRun = Schemas['ScheduleRun'];
export type DatePreset = Schemas['DatePreset'];
export type MailState = Schemas['MailState'];
export type MailStatus = MailState['status'];
export type NotificationPreferences = Schemas['NotificationPreferences'];
export type OutboxMessage = Schemas['OutboxMessage'];
export type Webhook = Schemas['Webhook'];
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type WebhookEvent = Webhook['events'][number];
export type WebhookDelivery = Schemas['WebhookDelivery'];

/** The JSON body an operation takes. */
type BodyOf<P extends keyof paths, M extends 'post' | 'patch' | 'put'> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** An error the app makes itself (no answer, or an answer it cannot use), in the client's one error type. */
const appError = (status: number, title: string, detail: string) => new ChronicleError({ type: 'about:blank', title, status, detail });

/** Called when the session has ended (401), so the app can go back to the sign-in screen. */
let onUnauthorized: () => void = () => undefined;
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

const client = createChronicleClient({ baseUrl: window.location.origin, headers: { accept: 'application/json' } });

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The answer's body and headers; an error answer becomes the client's ChronicleError carrying the
 * problem's detail and field errors (a 401 outside signing in also ends the app's session).
 */
async function answer<T>(request: Promise<Answer<T>>): Promise<{ body: T; headers: Headers }> {
  let result: Answer<T>;
  try {
    result = await request;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw appError(0, 'Network error', 'The server cannot be reached. Check your connection and try again.');
  }
  const { response } = result;
  if (response.status === 401 && !response.url.endsWith('/api/v1/sessions')) onUnauthorized();
  return { body: await unwrap(Promise.resolve(result)), headers: response.headers };
}
const call = async <T>(request: Promise<Answer<T>>): Promise<T> => (await answer(request)).body;
/** A page of a list with the size of the whole list (X-Total-Count). */
const page = async <T>(request: Promise<Answer<T[]>>) => {
  const { body, headers } = await answer(request);
  return { items: body, total: Number(headers.get('x-total-count') ?? body.length) };
};
const id = (value: string) => ({ params: { path: { id: value } } });

/** One level of rates (docs/api.md "Rates"), most specific first: whose rate it is. */
export type RateLevel =
  | { kind: 'projectMember'; projectId: string; userId: string }
  | { kind: 'project'; projectId: string }
  | { kind: 'workspaceMember'; workspaceId: string; userId: string }
  | { kind: 'workspace'; workspaceId: string };
export type RateBody = BodyOf<'/api/v1/workspaces/{id}/rates', 'put'>;

/** A level's history, oldest date first. */
function rateHistory(level: RateLevel) {
  switch (level.kind) {
    case 'projectMember':
      return call(
        client.GET('/api/v1/projects/{id}/members/{userId}/rates', { params: { path: { id: level.projectId, userId: level.userId } } }),
      );
    case 'project':
      return call(client.GET('/api/v1/projects/{id}/rates', id(level.projectId)));
    case 'workspaceMember':
      return call(
        client.GET('/api/v1/workspaces/{id}/members/{userId}/rates', { params: { path: { id: level.workspaceId, userId: level.userId } } }),
      );
    case 'workspace':
      return call(client.GET('/api/v1/workspaces/{id}/rates', id(level.workspaceId)));
  }
}

/** Sets a level's rate from a date (hourly null ends the level from it); a second PUT for a date replaces the first. */
function putRate(level: RateLevel, body: RateBody) {
  switch (level.kind) {
    case 'projectMember':
      return call(
        client.PUT('/api/v1/projects/{id}/members/{userId}/rates', {
          params: { path: { id: level.projectId, userId: level.userId } },
          body,
        }),
      );
    case 'project':
      return call(client.PUT('/api/v1/projects/{id}/rates', { ...id(level.projectId), body }));
    case 'workspaceMember':
      return call(
        client.PUT('/api/v1/workspaces/{id}/members/{userId}/rates', {
          params: { path: { id: level.workspaceId, userId: level.userId } },
          body,
        }),
      );
    case 'workspace':
      return call(client.PUT('/api/v1/workspaces/{id}/rates', { ...id(level.workspaceId), body }));
  }
}

export const api = {
  // Signing in
  signIn: (email: string, password: string) => call(client.POST('/api/v1/sessions', { body: { email, password } })),
  redeemPasswordLink: (token: string, password: string) =>
    call(client.POST('/api/v1/password-links/redeem', { body: { token, password } })),
  signOut: () => call(client.DELETE('/api/v1/me/sessions/current')),
  /** A one-time set-password link; with `email`, also mailed to the user (the answer says `emailed`). */
  createPasswordLink: (userId: string, email = false) =>
    call(client.POST('/api/v1/users/{id}/password-link', { ...id(userId), ...(email ? { body: { email: true } } : {}) })),
  changePassword: (currentPassword: string, newPassword: string) =>
    call(client.PUT('/api/v1/me/password', { body: { currentPassword, newPassword } })),
  sessions: () => call(client.GET('/api/v1/me/sessions')),
  endSession: (sessionId: string) => call(client.DELETE('/api/v1/me/sessions/{id}', id(sessionId))),

  // Users and tokens
  me: () => call(client.GET('/api/v1/me')),
  patchMe: (patch: BodyOf<'/api/v1/me', 'patch'>) => call(client.PATCH('/api/v1/me', { body: patch })),
  users: () => call(client.GET('/api/v1/users')),
  createUser: (user: BodyOf<'/api/v1/users', 'post'>) => call(client.POST('/api/v1/users', { body: user })),
  tokens: () => call(client.GET('/api/v1/me/tokens')),
  notifications: () => call(client.GET('/api/v1/me/notifications')),
  patchNotifications: (patch: BodyOf<'/api/v1/me/notifications', 'patch'>) =>
    call(client.PATCH('/api/v1/me/notifications', { body: patch })),
  createToken: (userId: string, body: BodyOf<'/api/v1/users/{id}/tokens', 'post'>) =>
    call(client.POST('/api/v1/users/{id}/tokens', { ...id(userId), body })),
  revokeToken: (tokenId: string) => call(client.DELETE('/api/v1/me/tokens/{id}', id(tokenId))),

  // Workspaces and projects
  workspaces: () => call(client.GET('/api/v1/workspaces')),
  members: (workspaceId: string) => call(client.GET('/api/v1/workspaces/{id}/members', id(workspaceId))),
  workspace: (workspaceId: string) => call(client.GET('/api/v1/workspaces/{id}', id(workspaceId))),
  createWorkspace: (name: string) => call(client.POST('/api/v1/workspaces', { body: { name } })),
  renameWorkspace: (workspaceId: string, name: string) =>
    call(client.PATCH('/api/v1/workspaces/{id}', { ...id(workspaceId), body: { name } })),
  /** Its name, currency, who sees its rates or its branding (workspace admins). */
  patchWorkspace: (workspaceId: string, body: BodyOf<'/api/v1/workspaces/{id}', 'patch'>) =>
    call(client.PATCH('/api/v1/workspaces/{id}', { ...id(workspaceId), body })),
  /** Sets the workspace's logo: the image file itself as the body, with its own type (workspace admins). */
  putWorkspaceLogo: (workspaceId: string, file: Blob) =>
    call(
      client.PUT('/api/v1/workspaces/{id}/logo', {
        ...id(workspaceId),
        // The typed body is the image's bytes; the file is sent as it is, never as JSON.
        body: file as unknown as string,
        bodySerializer: (body: unknown) => body as Blob,
        headers: { 'content-type': file.type },
      }),
    ),
  deleteWorkspaceLogo: (workspaceId: string) => call(client.DELETE('/api/v1/workspaces/{id}/logo', id(workspaceId))),
  /** Adds a member or changes their role. */
  putMember: (workspaceId: string, userId: string, role: WorkspaceRole) =>
    call(client.PUT('/api/v1/workspaces/{id}/members/{userId}', { params: { path: { id: workspaceId, userId } }, body: { role } })),
  /** Removes a member; with one's own id, leaves the workspace. */
  removeMember: (workspaceId: string, userId: string) =>
    call(client.DELETE('/api/v1/workspaces/{id}/members/{userId}', { params: { path: { id: workspaceId, userId } } })),
  projects: (workspaceId: string) => call(client.GET('/api/v1/workspaces/{id}/projects', id(workspaceId))),
  createProject: (workspaceId: string, name: string) =>
    call(client.POST('/api/v1/workspaces/{id}/projects', { ...id(workspaceId), body: { name } })),
  /** A project's name, client or billableByDefault (workspace admins). */
  patchProject: (projectId: string, body: BodyOf<'/api/v1/projects/{id}', 'patch'>) =>
    call(client.PATCH('/api/v1/projects/{id}', { ...id(projectId), body })),
  clients: (workspaceId: string) => call(client.GET('/api/v1/workspaces/{id}/clients', id(workspaceId))),
  createClient: (workspaceId: string, name: string) =>
    call(client.POST('/api/v1/workspaces/{id}/clients', { ...id(workspaceId), body: { name } })),
  /** Renames, archives or unarchives a client. */
  patchClient: (clientId: string, body: BodyOf<'/api/v1/clients/{id}', 'patch'>) =>
    call(client.PATCH('/api/v1/clients/{id}', { ...id(clientId), body })),
  /** Its projects stay, without a client. */
  deleteClient: (clientId: string) => call(client.DELETE('/api/v1/clients/{id}', id(clientId))),
  rates: rateHistory,
  putRate,
  projectMembers: (projectId: string) => call(client.GET('/api/v1/projects/{id}/members', id(projectId))),
  addProjectMember: (projectId: string, userId: string) =>
    call(client.PUT('/api/v1/projects/{id}/members/{userId}', { params: { path: { id: projectId, userId } } })),
  removeProjectMember: (projectId: string, userId: string) =>
    call(client.DELETE('/api/v1/projects/{id}/members/{userId}', { params: { path: { id: projectId, userId } } })),

  // Webhooks (workspace admins and owners)
  webhooks: (workspaceId: string) => call(client.GET('/api/v1/workspaces/{id}/webhooks', id(workspaceId))),
  /** The answer holds the signing secret, which no later answer shows. */
  createWebhook: (workspaceId: string, body: BodyOf<'/api/v1/workspaces/{id}/webhooks', 'post'>) =>
    call(client.POST('/api/v1/workspaces/{id}/webhooks', { ...id(workspaceId), body })),
  patchWebhook: (webhookId: string, body: BodyOf<'/api/v1/webhooks/{id}', 'patch'>) =>
    call(client.PATCH('/api/v1/webhooks/{id}', { ...id(webhookId), body })),
  /** Its deliveries go with it. */
  deleteWebhook: (webhookId: string) => call(client.DELETE('/api/v1/webhooks/{id}', id(webhookId))),
  /** An endpoint's deliveries, newest first. */
  webhookDeliveries: (webhookId: string, query: NonNullable<paths['/api/v1/webhooks/{id}/deliveries']['get']['parameters']['query']>) =>
    page(client.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id: webhookId }, query } })),

  // Time entries
  timeEntries: (query: NonNullable<paths['/api/v1/time-entries']['get']['parameters']['query']>) =>
    page(client.GET('/api/v1/time-entries', { params: { query } })),
  createTimeEntry: (body: BodyOf<'/api/v1/time-entries', 'post'>) => call(client.POST('/api/v1/time-entries', { body })),
  patchTimeEntry: (entryId: string, body: BodyOf<'/api/v1/time-entries/{id}', 'patch'>) =>
    call(client.PATCH('/api/v1/time-entries/{id}', { ...id(entryId), body })),
  deleteTimeEntry: (entryId: string) => call(client.DELETE('/api/v1/time-entries/{id}', id(entryId))),
  /** An import checked by planImport (packages/import): its projects, then its entries in batches. */
  importEntries: (plan: ImportPlan, options: SendOptions) => sendImport(client, plan, options),
  /** The rates an import's rows fall under, to compare the export's with; null when the caller may not read rates. */
  importRates: (plan: ImportPlan, options: RateBookOptions) => loadRateBook(client, plan, options),

  // Templates
  templates: (includeDisabled = false) =>
    call(client.GET('/api/v1/templates', { params: { query: includeDisabled ? { includeDisabled: true } : {} } })),
  template: (templateId: string) => call(client.GET('/api/v1/templates/{id}', id(templateId))),
  createTemplate: (body: BodyOf<'/api/v1/templates', 'post'>) => call(client.POST('/api/v1/templates', { body })),
  patchTemplate: (templateId: string, body: BodyOf<'/api/v1/templates/{id}', 'patch'>) =>
    call(client.PATCH('/api/v1/templates/{id}', { ...id(templateId), body })),
  /** Renders the editor's unsaved text against filters (instance admins). */
  previewTemplate: (body: BodyOf<'/api/v1/templates/preview', 'post'>, signal?: AbortSignal) =>
    call(client.POST('/api/v1/templates/preview', { body, ...(signal ? { signal } : {}) })),

  // The outbox (instance admins): every mail message, newest first
  outbox: (query: NonNullable<paths['/api/v1/admin/outbox']['get']['parameters']['query']>) =>
    page(client.GET('/api/v1/admin/outbox', { params: { query } })),

  // Reports
  reports: (query: NonNullable<paths['/api/v1/reports']['get']['parameters']['query']>) =>
    page(client.GET('/api/v1/reports', { params: { query } })),
  report: (reportId: string) => call(client.GET('/api/v1/reports/{id}', id(reportId))),
  preview: (body: ReportBody, signal?: AbortSignal) =>
    call(client.POST('/api/v1/reports/preview', { body, ...(signal ? { signal } : {}) })),
  createReport: (body: ReportBody) => call(client.POST('/api/v1/reports', { body })),
  updateReport: (reportId: string, body: ReportBody) => call(client.PATCH('/api/v1/reports/{id}', { ...id(reportId), body })),
  deleteReport: (reportId: string) => call(client.DELETE('/api/v1/reports/{id}', id(reportId))),

  // Sending and the inbox
  recipients: (reportId: string) => call(client.GET('/api/v1/reports/{id}/recipients', id(reportId))),
  sendReport: (reportId: string, body: BodyOf<'/api/v1/reports/{id}/send', 'post'>) =>
    call(client.POST('/api/v1/reports/{id}/send', { ...id(reportId), body })),
  sends: (reportId: string) => call(client.GET('/api/v1/reports/{id}/sends', id(reportId))),
  inbox: () => call(client.GET('/api/v1/inbox')),
  inboxMessage: (messageId: string) => call(client.GET('/api/v1/inbox/{id}', id(messageId))),
  markRead: (messageId: string) => call(client.POST('/api/v1/inbox/{id}/read', id(messageId))),

  // Schedules (the report's owner only)
  /** The report's schedule, or null when it has none. */
  schedule: async (reportId: string): Promise<Schedule | null> => {
    try {
      return await call(client.GET('/api/v1/reports/{id}/schedule', id(reportId)));
    } catch (error) {
      if (error instanceof ChronicleError && error.status === 404) return null;
      throw error;
    }
  },
  /** Creates or replaces the schedule. */
  putSchedule: (reportId: string, body: ScheduleBody) => call(client.PUT('/api/v1/reports/{id}/schedule', { ...id(reportId), body })),
  /** Ends the schedule; its run history stays. */
  deleteSchedule: (reportId: string) => call(client.DELETE('/api/v1/reports/{id}/schedule', id(reportId))),
  /** The runs of the report's schedules, newest occurrence first. */
  scheduleRuns: (reportId: string, query: NonNullable<paths['/api/v1/reports/{id}/schedule/runs']['get']['parameters']['query']>) =>
    page(client.GET('/api/v1/reports/{id}/schedule/runs', { params: { path: { id: reportId }, query } })),
  /** Queues a run at once (409 while another run of the report waits or runs). */
  runScheduleNow: (reportId: string) => call(client.POST('/api/v1/reports/{id}/schedule/run-now', id(reportId))),

  // Version history
  /** A page of the report's versions, newest first, with how many it has. */
  versions: (reportId: string, query: NonNullable<paths['/api/v1/reports/{id}/versions']['get']['parameters']['query']>) =>
    page(client.GET('/api/v1/reports/{id}/versions', { params: { path: { id: reportId }, query } })),
  /** The route also serves Markdown (a download); this app asks for, and gets, the JSON form. */
  reportContent: async (contentId: string): Promise<ReportContent> => {
    const content = await call(client.GET('/api/v1/report-contents/{id}', id(contentId)));
    if (typeof content === 'string') throw appError(406, 'Not Acceptable', 'The server answered Markdown where JSON was asked for.');
    return content;
  },
  /**
   * Where a version's file downloads from: a plain link (the browser downloads it with the session
   * cookie), so a large PDF streams to disk instead of through the app's memory.
   */
  exportHref: (contentId: string, format: ExportFormat): `/api/v1/report-contents/${string}/export?format=${ExportFormat}` =>
    `/api/v1/report-contents/${encodeURIComponent(contentId)}/export?format=${format}`,
  diff: (reportId: string, from: string, to: string) =>
    call(client.GET('/api/v1/reports/{id}/diff', { params: { path: { id: reportId }, query: { from, to } } })),

  // Share links
  reportShares: (reportId: string) => call(client.GET('/api/v1/reports/{id}/shares', id(reportId))),
  mintReportShare: (reportId: string, body: BodyOf<'/api/v1/reports/{id}/shares', 'post'>) =>
    call(client.POST('/api/v1/reports/{id}/shares', { ...id(reportId), body })),
  inboxShares: (messageId: string) => call(client.GET('/api/v1/inbox/{id}/shares', id(messageId))),
  mintInboxShare: (messageId: string, body: BodyOf<'/api/v1/inbox/{id}/shares', 'post'>) =>
    call(client.POST('/api/v1/inbox/{id}/shares', { ...id(messageId), body })),
  revokeShare: (shareId: string) => call(client.POST('/api/v1/report-shares/{id}/revoke', id(shareId))),

  // Discussion
  discussion: (contentId: string) => call(client.GET('/api/v1/report-contents/{id}/discussion', id(contentId))),
  addComment: (contentId: string, body: string) =>
    call(client.POST('/api/v1/report-contents/{id}/comments', { ...id(contentId), body: { body } })),
  editComment: (contentId: string, commentId: string, body: string) =>
    call(
      client.PATCH('/api/v1/report-contents/{id}/comments/{commentId}', { params: { path: { id: contentId, commentId } }, body: { body } }),
    ),
  deleteComment: (contentId: string, commentId: string) =>
    call(client.DELETE('/api/v1/report-contents/{id}/comments/{commentId}', { params: { path: { id: contentId, commentId } } })),
  /** Toggles the caller's reaction; the answer is the target's reactions after the toggle. */
  toggleReaction: (contentId: string, emoji: ReactionKey, commentId?: string) =>
    commentId
      ? call(
          client.PUT('/api/v1/report-contents/{id}/comments/{commentId}/reactions', {
            params: { path: { id: contentId, commentId } },
            body: { emoji },
          }),
        )
      : call(client.PUT('/api/v1/report-contents/{id}/reactions', { ...id(contentId), body: { emoji } })),
};
