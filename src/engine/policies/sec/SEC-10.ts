/**
 * @module engine/policies/sec/SEC-10: files and folders shared with anyone who has the link.
 *
 * Sources (module → field → public value; kept explicit in `SHARE_MODULES` and `SHARE_APIS`):
 * - Google Drive, Make module *Share a File/Folder* (`google-drive:shareAFileFolder`, mapper `type`,
 *   `role`, `allowFileDiscovery`; module and field names as in public Make exports): Drive API v3
 *   `permissions.create`, grantee `type` user | group | domain | anyone; `anyone` is "anyone with the
 *   link", and `allowFileDiscovery` makes it findable by search (developers.google.com/drive/api/guides/manage-sharing).
 *   *Create a Folder* (`google-drive:createAFolder`) and the upload/copy modules take the same
 *   permission fields behind a `shared` switch (make `veracitylife-marketing…` 31: `shared: true`,
 *   `type: anyone`, `role: writer`).
 * - Dropbox, *Create/Update a Share Link* (`dropbox:createShareLink`, mapper `path`, `settings`):
 *   Dropbox API v2 `sharing/create_shared_link_with_settings`, `LinkSettings.audience`
 *   public | team | no_one | password | members and `requested_visibility` public | team_only |
 *   password; without settings the link gets the account's default audience, public on personal
 *   accounts (a Make run with `settings: {}` returned a link that opens without login).
 * - Box, *Add a Shared Link to a File/Folder* (app `box`): Box API shared links, `access`
 *   open | company | collaborators; without `access` the enterprise default applies, "People with the
 *   link" on personal accounts (developer.box.com/guides/shared-links/create-or-update).
 * - OneDrive / SharePoint, *Create a sharing link*: Microsoft Graph `driveItem: createLink`,
 *   `scope` anonymous | organization | users, `type` view | edit | embed; personal OneDrive supports
 *   only anonymous links (learn.microsoft.com/graph/api/driveitem-createlink).
 * The same calls made through the HTTP app or an app's *Make an API call* module are matched by
 * endpoint and body. A share with a named user, group, domain, team or organisation is not public.
 */
import type { Json, JsonObject, ModuleNode } from '../../blueprint/types.js';
import type { Analysis } from '../../analysis.js';
import type { Finding, Policy } from '../types.js';
import type { Severity } from '../../severity.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify, moduleUrl } from '../../blueprint/classify.js';
import { failWith, fieldPath, findingModules, moduleRef } from '../helpers.js';

/** A field path inside a module's mapper (`['settings', 'audience']`). */
type FieldPath = readonly string[];

/** How one app's share module says who may open the link. */
interface ShareModule {
  readonly vendor: string;
  readonly app: RegExp;
  readonly action: RegExp;
  /** Fields that name the audience, first present wins. */
  readonly audience: readonly FieldPath[];
  /** Audience values (lower-case) that mean anyone with the link. */
  readonly publicValues: ReadonlySet<string>;
  /** True when the vendor's default, with no audience set, is a public link on personal accounts. */
  readonly defaultPublic: boolean;
  /** Fields and values (lower-case) that let link holders edit. */
  readonly write: readonly FieldPath[];
  readonly writeValues: ReadonlySet<string>;
  /** A non-empty value here (a link password) restricts the link. */
  readonly password: readonly FieldPath[];
  /** Boolean field that makes the item findable by search. */
  readonly discoverable: readonly FieldPath[];
  /** Boolean field that must be `true` for the share to happen (a create module's optional *Share* switch). */
  readonly enabledBy?: FieldPath;
}

/** Share modules of file-storage apps in Make (see the module header for sources). */
export const SHARE_MODULES: readonly ShareModule[] = [
  {
    vendor: 'Google Drive',
    app: /^google-drive$/,
    action: /^share|permission/i,
    audience: [['type']],
    publicValues: new Set(['anyone']),
    defaultPublic: false,
    write: [['role']],
    writeValues: new Set(['writer', 'fileorganizer', 'organizer', 'owner']),
    password: [],
    discoverable: [['allowFileDiscovery']],
  },
  {
    // *Create a Folder* / *Upload a File* share the new item when `shared` is on (same Drive permission fields).
    vendor: 'Google Drive',
    app: /^google-drive$/,
    action: /^(?:create|upload|copy)/i,
    enabledBy: ['shared'],
    audience: [['type']],
    publicValues: new Set(['anyone']),
    defaultPublic: false,
    write: [['role']],
    writeValues: new Set(['writer', 'fileorganizer', 'organizer', 'owner']),
    password: [],
    discoverable: [['allowFileDiscovery']],
  },
  {
    vendor: 'Dropbox',
    app: /^dropbox$/,
    action: /link/i,
    audience: [
      ['settings', 'audience'],
      ['settings', 'requested_visibility'],
      ['audience'],
      ['requested_visibility'],
      ['visibility'],
    ],
    publicValues: new Set(['public']),
    defaultPublic: true,
    write: [['settings', 'access'], ['access']],
    writeValues: new Set(['editor', 'max']),
    password: [['settings', 'link_password'], ['link_password'], ['settings', 'password'], ['password']],
    discoverable: [],
  },
  {
    vendor: 'Box',
    app: /^box\d*$/,
    action: /link/i,
    audience: [['access'], ['shared_link', 'access'], ['sharedLink', 'access'], ['settings', 'access']],
    publicValues: new Set(['open']),
    defaultPublic: true,
    write: [['can_edit'], ['permissions', 'can_edit'], ['shared_link', 'permissions', 'can_edit']],
    writeValues: new Set(['true']),
    password: [['password'], ['shared_link', 'password']],
    discoverable: [],
  },
  {
    vendor: 'OneDrive / SharePoint',
    app: /^(?:microsoft-)?(?:onedrive|sharepoint)(?:-[a-z]+)?$/,
    action: /link/i,
    audience: [['scope']],
    publicValues: new Set(['anonymous']),
    defaultPublic: true,
    write: [['type']],
    writeValues: new Set(['edit']),
    password: [['password']],
    discoverable: [],
  },
];

/** Share endpoints called through the HTTP app or *Make an API call*: URL pattern → body pattern of a public link. */
export const SHARE_APIS: readonly { readonly vendor: string; readonly url: RegExp; readonly body: RegExp }[] = [
  {
    vendor: 'Google Drive',
    url: /\/drive\/v[23]\/files\/[^/?#]+\/permissions|^\/?(?:v[23]\/)?files\/[^/?#]+\/permissions/,
    body: /"type"\s*:\s*"anyone"/,
  },
  {
    vendor: 'Dropbox',
    url: /\/2\/sharing\/(?:create_shared_link_with_settings|modify_shared_link_settings)/,
    body: /"(?:audience|requested_visibility)"\s*:\s*(?:\{\s*"\.tag"\s*:\s*)?"public"/,
  },
  {
    vendor: 'Box',
    // `PUT https://api.box.com/2.0/files/<id>` (or `folders`): the path is Box's, on whatever base URL the module uses.
    url: /\/(?:files|folders)\/[^/?#]+(?:[?#]|$)/,
    body: /"shared_link"\s*:\s*\{[^}]*"access"\s*:\s*"open"/,
  },
  { vendor: 'OneDrive / SharePoint', url: /\/createLink(?:[?#]|$)/, body: /"scope"\s*:\s*"anonymous"/ },
];

/**
 * Severity by who may open the link (OWASP Top 10 2021 A01 Broken Access Control): a public link is
 * high whether or not holders may edit (the reason says so); the blueprint cannot show whether the
 * item holds personal data or secrets, which is what would make it critical (issue 14 labelled set:
 * a public editable folder of marketing drafts judged high, not critical). No audience where the
 * vendor default is public on personal accounts: medium.
 */
const SEVERITY: Readonly<Record<'public-write' | 'public' | 'default', Severity>> = {
  'public-write': 'high',
  public: 'high',
  default: 'medium',
};

function at(root: JsonObject | null, path: FieldPath): Json | undefined {
  let v: Json | undefined = root ?? undefined;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = v[key];
  }
  return v;
}

/** The first field of `paths` that holds a literal (string, number or boolean), with its path. */
function literal(m: ModuleNode, paths: readonly FieldPath[]): { path: FieldPath; value: string } | null {
  for (const path of paths) {
    const v = at(m.mapper, path);
    if (typeof v === 'string' && v.trim() !== '') return { path, value: v.trim() };
    if (typeof v === 'number' || typeof v === 'boolean') return { path, value: String(v) };
  }
  return null;
}

const pointerOf = (m: ModuleNode, path: FieldPath): string => `${m.pointer}/mapper/${path.join('/')}`;

/** A finding for a file-storage share module, or `null` when the link is not public. */
function shareModuleFinding(m: ModuleNode, rule: ShareModule): Finding | null {
  if (rule.enabledBy && literal(m, [rule.enabledBy])?.value !== 'true') return null;
  const audience = literal(m, rule.audience);
  if (audience?.value.includes('{{')) return null; // chosen at run time: not decidable from the blueprint
  if (literal(m, rule.password)) return null; // a password-protected link (literal or mapped) is not open to anyone
  const isPublic = audience ? rule.publicValues.has(audience.value.toLowerCase()) : rule.defaultPublic;
  if (!isPublic) return null;
  const write = literal(m, rule.write);
  const editable = write !== null && rule.writeValues.has(write.value.toLowerCase());
  const discoverable = literal(m, rule.discoverable)?.value === 'true';
  const kind = !audience ? 'default' : editable ? 'public-write' : 'public';
  const who = audience
    ? `anyone with the link (\`${audience.path.join('.')}: ${audience.value}\`)`
    : `the account's default audience, anyone with the link on personal ${rule.vendor} accounts (no audience is set)`;
  const extra = [
    editable ? `link holders may edit (\`${write.path.join('.')}: ${write.value}\`)` : '',
    discoverable ? 'the item is discoverable by search' : '',
  ]
    .filter(Boolean)
    .join('; ');
  return {
    moduleId: m.id,
    severity: SEVERITY[kind],
    reason: `shares the ${rule.vendor} item with ${who}${extra ? `; ${extra}` : ''}`,
    evidence: audience
      ? { pointer: pointerOf(m, audience.path), value: audience.value }
      : { pointer: `${m.pointer}/mapper` },
  };
}

/** A finding for an HTTP or *Make an API call* module that calls a share endpoint with a public audience. */
function apiFinding(analysis: Analysis, m: ModuleNode): Finding | null {
  const url = moduleUrl(m);
  const api = url === null ? undefined : SHARE_APIS.find((a) => a.url.test(url));
  if (!api) return null;
  const prefix = `${m.pointer}/`;
  const body = analysis
    .strings()
    .find((l) => l.module === m && l.fieldName !== 'url' && l.pointer.startsWith(prefix) && api.body.test(l.value));
  if (!body) return null;
  return {
    moduleId: m.id,
    severity: SEVERITY.public,
    reason: `calls the ${api.vendor} sharing API with a public audience in \`${fieldPath(m, body.pointer)}\``,
    evidence: { pointer: body.pointer, value: api.body.exec(body.value)![0] },
  };
}

function isApiCall(m: ModuleNode): boolean {
  return classify(m).http || /api\s*call/i.test(m.action);
}

/** SEC-10: a file or folder is shared with anyone who has (or finds) the link. */
export const SEC_10: Policy = {
  code: 'SEC-10',
  title: 'File shared publicly',
  category: 'SEC',
  severity: 'high',
  description:
    'A Google Drive, Dropbox, Box or OneDrive/SharePoint module shares a file or folder with anyone who has the link (or lets the vendor default do so), so the content is readable, or editable, by whoever receives, forwards or finds the link, without signing in.',
  rationale:
    'A public link is access control by secrecy of a URL that is pasted into e-mails, chats and tickets and cannot be revoked per person: incorrect permission assignment (CWE-732) and exposure of information to unauthorised actors (CWE-200; OWASP Top 10 2021 A01 Broken Access Control). GDPR Art. 25(2) requires that personal data are not made accessible by default to an indefinite number of people; Art. 32 requires access control. Share with named people, a group, the domain or the team instead.',
  compliance_frameworks: [
    ref(F.soc2, 'CC6.1'),
    ref(F.soc2, 'C1.1'),
    ref(F.iso27001, 'A.5.15'),
    ref(F.iso27001, 'A.8.3'),
    ref(F.iso27001, 'A.8.12'),
    ref(F.nist, 'AC-3'),
    ref(F.gdpr, 'Art. 25'),
    ref(F.gdpr, 'Art. 32'),
  ],
  examples: {
    avoid:
      '`google-drive:shareAFileFolder` with `"type": "anyone", "role": "writer"`; `dropbox:createShareLink` with `"settings": {}` or `"audience": "public"`.',
    prefer:
      '`google-drive:shareAFileFolder` with `"type": "user", "emailAddress": "{{1.client_email}}", "role": "reader"`; a Dropbox link with `"audience": "team"` or a password and an expiry.',
  },
  evaluate(analysis: Analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      const rule = SHARE_MODULES.find((r) => r.app.test(m.app) && r.action.test(m.action));
      const finding =
        rule && classify(m).role === 'write'
          ? shareModuleFinding(m, rule)
          : isApiCall(m)
            ? apiFinding(analysis, m)
            : null;
      if (finding) findings.push(finding);
    }
    return failWith(
      findings,
      (n) => `${n} file${n === 1 ? '' : 's'} or folder${n === 1 ? '' : 's'} shared with anyone who has the link`,
    );
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `In ${moduleRef(m)}, share with named people, a group or your domain/team instead of anyone with the link; if a public link is truly needed, make it read-only, set an expiry and (where the app allows) a password.`,
      );
      steps.push(
        'List the links this scenario has already created and revoke the ones that are no longer needed (Drive: *Manage access*; Dropbox: *Shared links*; Box and OneDrive: *Manage links*).',
      );
      steps.push(
        'Do not send public links of files that hold personal data; send them to the recipient through an authenticated channel.',
      );
      return steps;
    },
  },
};
