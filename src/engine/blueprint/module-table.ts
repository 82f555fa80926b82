/**
 * @module engine/blueprint/module-table: what the modules of the apps real exports use do (read,
 * write, send, delete, compute, trigger), by app and action. Rows come from the module ids of both
 * development corpora (`make/` 912 modules, `make-extra/` 256; `make/FORMAT.md` lists the most
 * frequent) and the Make app documentation of each module; apps that are not here fall back to the
 * verb of the action name (`classify.ts`).
 */

/**
 * What a module does to the world:
 * `trigger` starts the scenario; `read` fetches data; `write` creates or changes data in another
 * system (records, files, drafts); `send` delivers a message to people (e-mail, chat, SMS, a
 * published post, a push notification); `delete` removes data; `compute` only computes a result
 * from its input and changes nothing the scenario owner keeps (AI completions, code, document
 * conversion, remote jobs that return data).
 */
export type ModuleEffect = 'trigger' | 'read' | 'write' | 'send' | 'delete' | 'compute';

/**
 * How a `send` reaches people: `email`, `sms`, `chat` (Telegram, WhatsApp, Discord: bots and
 * outside contacts), `team-chat` (Slack: the owner's own workspace), `post` (a published post: social networks, blogs, sites),
 * `push` (a notification to the owner's own device).
 */
export type SendChannel = 'email' | 'sms' | 'chat' | 'team-chat' | 'post' | 'push';

/**
 * What an AI call that computes returns (the AI policies; AI-5 bounds only generated text):
 * `text` free text a model writes (completions, assistants, agents, image descriptions: the default),
 * `data` fields it extracts or classifies, or vectors, `image` a generated image, `audio` generated
 * speech, `file` a file staged for a later prompt (Gemini "Upload a file").
 */
export type AiOutput = 'text' | 'data' | 'image' | 'audio' | 'file';

/** One action of an app. */
export interface ModuleRow {
  readonly effect: ModuleEffect;
  /** Sends: mapper keys holding the recipients; defaults to the app's `recipients`. */
  readonly recipients?: readonly string[];
  /** Sends: the message goes to the connection's own account ("Send me an e-mail", iOS notification). */
  readonly toSelf?: boolean;
  /** Sends: the message answers the sender of an earlier one (no recipient field: the app takes it from the thread). */
  readonly reply?: boolean;
  /** The change can be undone: moved to the trash, relabelled, moved, archived, a reaction. */
  readonly reversible?: boolean;
  /** Deletes: mapper flag that, when `false`, moves to the trash instead of deleting for good. */
  readonly permanentFlag?: string;
  /** Generic "Make an API call" modules: the effect follows the HTTP method in `mapper.method`, like `http`. */
  readonly byMethod?: boolean;
  /** Writes: saves a message or entry as a draft that a person sends or publishes later (e-mail drafts, Contentful entries). */
  readonly draft?: boolean;
  /** AI computes: what the call returns (default `text`). */
  readonly output?: AiOutput;
}

/** All the actions of one app. */
export interface AppRows {
  /** How this app's sends reach people. */
  readonly channel?: SendChannel;
  /** Mapper keys holding the recipients of this app's sends. */
  readonly recipients?: readonly string[];
  /** Effect of an action without a row (else the verb fallback). */
  readonly otherwise?: ModuleEffect;
  readonly actions: Readonly<Record<string, ModuleEffect | ModuleRow>>;
}

const MAIL = ['to', 'cc', 'bcc', 'toRecipients', 'ccRecipients', 'bccRecipients'];
const send = (extra: Omit<ModuleRow, 'effect'> = {}): ModuleRow => ({ effect: 'send', ...extra });
const reversible = (effect: ModuleEffect): ModuleRow => ({ effect, reversible: true });
const byMethod: ModuleRow = { effect: 'write', byMethod: true };
const draft: ModuleRow = { effect: 'write', draft: true };
const computes = (output: AiOutput): ModuleRow => ({ effect: 'compute', output });

/**
 * The module table. Make built-ins (`builtin`, `util`, `json`, `regexp`, routers, directives) and
 * `gateway` / `http` are classified in `classify.ts`; AI apps (`AI_APPS`) compute unless a row says
 * otherwise. Rows name the exact action ids of the exports.
 */
export const MODULE_TABLE: Readonly<Record<string, AppRows>> = {
  // --- AI apps: completions, image generation, assistants and agents compute a result; `output` says
  // what comes back when it is not text (OpenAI "Generate an image" returns image URLs, Make docs).
  'openai-gpt-3': {
    otherwise: 'compute',
    actions: {
      CreateCompletion: 'compute',
      GenerateImage: computes('image'),
      analyzeImages: 'compute',
      messageAssistantAdvanced: 'compute',
    },
  },
  'anthropic-claude': { otherwise: 'compute', actions: { createAMessage: 'compute', simpleTextPrompt: 'compute' } },
  // Gemini "Upload a file" stages a file for a prompt; the Gemini API keeps it 48 hours.
  'gemini-ai': {
    otherwise: 'compute',
    actions: { createACompletionGeminiPro: 'compute', uploadAFile: computes('file') },
  },
  'perplexity-ai': { otherwise: 'compute', actions: { createAChatCompletion: 'compute' } },
  'ai-tools': { otherwise: 'compute', actions: { Ask: 'compute', Extract: computes('data') } },
  'ai-agent': { otherwise: 'compute', actions: { RunAnAIAgent: 'compute' } },
  // Make's AI agent configured inside the scenario: its tools are subflows (`tools[].flow`) of the module.
  'ai-local-agent': { otherwise: 'compute', actions: { RunLocalAIAgent: 'compute' } },
  dumplingai: { otherwise: 'compute', actions: { generateAiImageFluxSchnell: computes('image') } },
  // --- Code and document services: compute and return a result.
  'custom-js': { otherwise: 'compute', actions: { execute: 'compute' } },
  'pdf-co': {
    otherwise: 'compute',
    actions: { AddSecurityToPDF: 'compute', HTMLtoPDF: 'compute', postPdfInfo: 'compute', postPdfSplit: 'compute' },
  },
  pdf4me: { otherwise: 'compute', actions: { PdfToWord: 'compute' } },
  image: { otherwise: 'compute', actions: { Convert: 'compute' } },
  handlebars: { actions: { Compile: 'compute' } },
  // An Apify actor run scrapes and returns a dataset; it changes nothing of the owner's.
  apify: { actions: { runActorNew: 'compute', fetchDatasetItems: 'read' } },
  onesaas: { actions: { scrapeHtmlFromWebsite: 'read' } },
  weather: { otherwise: 'read', actions: { ActionGetCurrentWeather: 'read', ActionGetDailyForecast: 'read' } },
  // --- E-mail. A draft waits in the mailbox for a person to send it: a write, not a send.
  'google-email': {
    channel: 'email',
    recipients: MAIL,
    actions: {
      sendAnEmail: send(),
      ActionSendEmail: send(),
      replyToAnEmail: send({ reply: true }),
      createADraft: draft,
      ActionMoveEmail: reversible('write'),
      updateEmailLabels: reversible('write'),
      listEmailAttachments: 'read',
      TriggerNewEmail: 'trigger',
      triggerWatchNewEmails: 'trigger',
      deleteAnEmail: { effect: 'delete', permanentFlag: 'permanent' },
    },
  },
  email: {
    channel: 'email',
    recipients: MAIL,
    actions: {
      ActionSendEmail: send(),
      ActionSendMeEmail: send({ toSelf: true }),
      ActionCreateDraft: draft,
      ActionMoveEmail: reversible('write'),
      TriggerNewEmail: 'trigger',
      ActionDeleteEmail: { effect: 'delete', permanentFlag: 'permanent' },
    },
  },
  'microsoft-email': { channel: 'email', recipients: MAIL, actions: { createAndSendAMessage: send() } },
  // --- Messaging. Telegram and WhatsApp reach outside contacts and bot users; Slack stays in the owner's workspace.
  telegram: {
    channel: 'chat',
    recipients: ['chatId'],
    actions: { SendReplyMessage: send(), SendPhoto: send(), GetUpdates: 'read' },
  },
  'whatsapp-business-cloud': {
    channel: 'chat',
    recipients: ['to'],
    actions: { sendMessage: send(), getMedia: 'read', watchEvents: 'trigger' },
  },
  discord: { channel: 'chat', recipients: ['channelId'], actions: { createMessage: send() } },
  slack: {
    channel: 'team-chat',
    recipients: ['channel'],
    actions: {
      CreateMessage: send(),
      AddReaction: reversible('write'),
      GetPublicChannelMessage: 'read',
      GetUser: 'read',
      SearchMessages: 'read',
    },
  },
  twilio: { channel: 'sms', recipients: ['to'], actions: { SendSMS: send() } },
  ios: {
    channel: 'push',
    actions: { SendNotification: send({ toSelf: true }), SaveCalendarEvent: 'write', ButtonPressed: 'trigger' },
  },
  // --- Social networks: a created post is published.
  linkedin: { channel: 'post', actions: { CreatePost: send(), ShareImage: send() } },
  'facebook-pages': { channel: 'post', actions: { CreatePost: send(), CreatePostWithPhotos: send() } },
  'instagram-business': { channel: 'post', actions: { CreatePostPhoto: send(), WatchMedia: 'trigger' } },
  pinterest: { channel: 'post', actions: { createPin: send(), listBoards: 'read' } },
  // "Upload a media" stores an image for a later tweet; nothing is visible until the tweet.
  twitter: { channel: 'post', actions: { createATweet: send(), uploadAMedia: 'write' } },
  // An image uploaded to imgbb is public at its URL.
  imgbb: { actions: { UploadPhotoV1: 'write' } },
  // Contentful creates entries as drafts; publishing is its own module.
  contentful: { actions: { createAnEntry: draft } },
  // --- Records, files and documents.
  'google-sheets': {
    actions: {
      addRow: 'write',
      updateRow: 'write',
      filterRows: 'read',
      getSheetContent: 'read',
      clearValuesFromRange: 'delete',
      watchRows: 'trigger',
      watchUpdatedCells: 'trigger',
    },
  },
  airtable: {
    actions: {
      ActionCreateRecord: 'write',
      ActionUpdateRecords: 'write',
      upsertRecord: 'write',
      ActionGetRecord: 'read',
      ActionSearchRecords: 'read',
      TriggerWatchRecords: 'trigger',
    },
  },
  datastore: {
    actions: {
      AddRecord: 'write',
      DeleteRecord: 'delete',
      ExistRecord: 'read',
      GetRecord: 'read',
      SearchRecord: 'read',
    },
  },
  'google-drive': {
    actions: {
      uploadAFile: 'write',
      updateAFile: 'write',
      copyAFile: 'write',
      createAFolder: 'write',
      moveAFileIntoAFolder: reversible('write'),
      deleteAFile: 'delete',
      getAFile: 'read',
      searchForFilesFolders: 'read',
      watchFilesInAFolder: 'trigger',
    },
  },
  'google-docs': {
    actions: {
      createADocument: 'write',
      appendADocument: 'write',
      replaceATextInADocument: 'write',
      getADocument: 'read',
    },
  },
  'google-calendar': { actions: { createAnEvent: 'write', ActionGetEvents: 'read', getFreeBusyInformation: 'read' } },
  'google-forms': { actions: { watchResponses: 'trigger' } },
  notion: { actions: { createAPage: 'write', updateADatabaseItem: 'write', searchObjects1: 'read' } },
  clickup: { actions: { editATaskAdvanced: 'write', getListTasks: 'read' } },
  todoist: { actions: { CreateItem: 'write' } },
  printify: {
    actions: {
      createAProduct: 'write',
      deleteAProduct: 'delete',
      listBlueprintProviders: 'read',
      listBlueprints: 'read',
      listOfVariantsOfABlueprint: 'read',
    },
  },
  hubspotcrm: {
    actions: {
      updateContact: 'write',
      updateDeal: 'write',
      getContact: 'read',
      getCompany: 'read',
      getDeal: 'read',
      getALineItem: 'read',
      getAQuote: 'read',
      ListCRMObjectAssociation: 'read',
      WatchCRMObjects: 'trigger',
      MakeAPICall: byMethod,
    },
  },
  lemlist: { actions: { getLeadbyIDorEmail: 'read', makeApiCall: byMethod } },
  'fatture-in-cloud': { actions: { listReceivedDocuments: 'read' } },
  typeform: { actions: { ListResponses: 'read', WatchEventsWithResponses: 'trigger' } },
  tally: { actions: { watchNewResponse: 'trigger' } },
  rss: { actions: { TriggerNewArticle: 'trigger' } },
  'scenario-service': { actions: { StartSubscenario: 'trigger' } },
  // --- Delivery apps not in the corpora (the AI policies' former list of publishing apps): only the
  // channel is known; the verb decides the effect (`send`, `reply`, `post`, `publish`, create-a-message).
  gmail: { channel: 'email', recipients: MAIL, actions: {} },
  outlook: { channel: 'email', recipients: MAIL, actions: {} },
  smtp: { channel: 'email', recipients: MAIL, actions: {} },
  sendgrid: { channel: 'email', recipients: MAIL, actions: {} },
  mailgun: { channel: 'email', recipients: MAIL, actions: {} },
  postmark: { channel: 'email', recipients: MAIL, actions: {} },
  'amazon-ses': { channel: 'email', recipients: MAIL, actions: {} },
  mailchimp: { channel: 'email', actions: {} },
  instantly: { channel: 'email', actions: {} },
  whatsapp: { channel: 'chat', recipients: ['to'], actions: {} },
  messagebird: { channel: 'sms', recipients: ['to', 'recipients'], actions: {} },
  vonage: { channel: 'sms', recipients: ['to'], actions: {} },
  'microsoft-teams': { channel: 'team-chat', actions: {} },
  pushover: { channel: 'push', actions: {} },
  facebook: { channel: 'post', actions: {} },
  instagram: { channel: 'post', actions: {} },
  x: { channel: 'post', actions: {} },
  threads: { channel: 'post', actions: {} },
  tiktok: { channel: 'post', actions: {} },
  youtube: { channel: 'post', actions: {} },
  wordpress: { channel: 'post', actions: {} },
  webflow: { channel: 'post', actions: {} },
  ghost: { channel: 'post', actions: {} },
  medium: { channel: 'post', actions: {} },
  intercom: { channel: 'chat', actions: {} },
  zendesk: { channel: 'email', actions: {} },
  freshdesk: { channel: 'email', actions: {} },
};

/** A row with the app's defaults applied. */
export interface ResolvedRow extends ModuleRow {
  readonly channel: SendChannel | null;
}

/**
 * The row for `app` / `action`: the action's own row, else the app's `otherwise`, else `null`
 * (the caller falls back to the verb of the action).
 */
export function moduleRow(app: string, action: string): ResolvedRow | null {
  const rows = RESOLVED.get(app);
  if (!rows) return null;
  return rows.actions.get(action) ?? rows.otherwise;
}

/** A table row with its app's defaults applied. */
function resolve(entry: AppRows, raw: ModuleEffect | ModuleRow): ResolvedRow {
  const row: ModuleRow = typeof raw === 'string' ? { effect: raw } : raw;
  return { ...row, recipients: row.recipients ?? entry.recipients ?? [], channel: entry.channel ?? null };
}

/** Every row of the table resolved once, at load (classify looks up one per module per evaluation). */
const RESOLVED: ReadonlyMap<
  string,
  { readonly actions: ReadonlyMap<string, ResolvedRow>; readonly otherwise: ResolvedRow | null }
> = new Map(
  Object.entries(MODULE_TABLE).map(([app, entry]) => [
    app,
    {
      actions: new Map(Object.entries(entry.actions).map(([action, raw]) => [action, resolve(entry, raw)])),
      otherwise: entry.otherwise === undefined ? null : resolve(entry, entry.otherwise),
    },
  ]),
);

/** How an app's messages reach people, for the verb fallback of apps in the table without a row for the action. */
export function appChannel(app: string): SendChannel | null {
  return Object.hasOwn(MODULE_TABLE, app) ? (MODULE_TABLE[app]!.channel ?? null) : null;
}

/** Mapper keys holding the recipients of an app's sends, for actions without a row. */
export function appRecipients(app: string): readonly string[] {
  return Object.hasOwn(MODULE_TABLE, app) ? (MODULE_TABLE[app]!.recipients ?? []) : [];
}
